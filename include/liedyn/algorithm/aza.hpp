// liedyn — algorithm: AZA, the "ABA with zero inputs" of the IDSVA paper (Singh–Russell–Wensing
// 2022): solves
// M(s) X = Y for many right-hand sides in O(n) each, by factoring the articulated-body inertias
// once and running ABA's last two sweeps per column with zero velocity and gravity.
//
// Order: rows of Y and X follow the model's base-first generalized order (nv). For a moving
// base the base rows of Y are a base wrench in the base frame and those of X the base
// acceleration ν̇; joint armature is included (as in M). Cost: factorization O(n), each column
// O(n) with no spatial transform; no allocation. Compare with the dense product M⁻¹ Y from
// immamb, O(nv²) per column.
//
// Frames. The factorization keeps the articulated inertia M^A_i in the "mixed" frame [i]:
// the base frame's orientation, origin at body i's. D_i = S_iᵀ M^A_i S_i is then formed about
// the joint — in the base frame a light body far from the base has m·|p|² terms that cancel
// there, and talos' grippers lost three to four digits of M⁻¹ that way — while moving M^A_i to
// the parent is a translation by the joint offset (cross products, no rotation). The axis S_i
// and U_i = M^A_i S_i are then stored in the base frame 0 (data.aza_S, data.aza_U), so the
// solves, and immamb's column passes, are plain 6-vector sums with no transform.
#pragma once

#include "liedyn/algorithm/common.hpp"

namespace liedyn {
namespace detail {

/// out += Tᵀ Ia T for a symmetric 6×6 Ia read entry by entry through `Ia(r, c)`, and
/// T = [1 −d^; 0 1]: an articulated inertia about point p moved to point p − d without rotating
/// (motion at p is v + ω × d from motion at p − d). With blocks [A B; Bᵀ C] (linear first):
/// B' = B − A d^, C' = C + (d^ B)ᵀ + d^ B'. Each d^ product is three cross products, a quarter of
/// a general congruence's multiplications.
template <class S, class Entry>
LIEDYN_ALWAYS_INLINE void add_translated(const Vector3<S>& d_, const Entry& Ia, Matrix6<S>& out) {
  // Coefficient by coefficient in registers (arithmetic/registers.hpp says why): Eigen's 3×3 blocks
  // and cross products of columns went through memory.
  auto A = [&](int r, int c) { return Ia(r, c); };
  auto B = [&](int r, int c) { return Ia(r, c + 3); };
  auto C = [&](int r, int c) { return Ia(r + 3, c + 3); };
  const Vec3<S> d{d_(0), d_(1), d_(2)};
  Vec3<S> Bp[3];  // Bp[c] = column c of B'
  {
    // (A d^) row k = −(d × A_k)ᵀ with A_k row k = column k (A symmetric), so −A d^ has rows d ×
    // A_k.
    const Vec3<S> x0 = cross3(d, Vec3<S>{A(0, 0), A(1, 0), A(2, 0)});
    const Vec3<S> x1 = cross3(d, Vec3<S>{A(0, 1), A(1, 1), A(2, 1)});
    const Vec3<S> x2 = cross3(d, Vec3<S>{A(0, 2), A(1, 2), A(2, 2)});
    Bp[0] = Vec3<S>{B(0, 0) + x0.x, B(1, 0) + x1.x, B(2, 0) + x2.x};
    Bp[1] = Vec3<S>{B(0, 1) + x0.y, B(1, 1) + x1.y, B(2, 1) + x2.y};
    Bp[2] = Vec3<S>{B(0, 2) + x0.z, B(1, 2) + x1.z, B(2, 2) + x2.z};
  }
  S dB[3][3];  // dB[r][c] = (d × B_col c)_r
  for (int c = 0; c < 3; ++c) {
    const Vec3<S> y = cross3(d, Vec3<S>{B(0, c), B(1, c), B(2, c)});
    dB[0][c] = y.x;
    dB[1][c] = y.y;
    dB[2][c] = y.z;
  }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out(r, c) += A(r, c);
  for (int c = 0; c < 3; ++c) {
    const S bp[3] = {Bp[c].x, Bp[c].y, Bp[c].z};
    for (int r = 0; r < 3; ++r) {
      out(r, 3 + c) += bp[r];
      out(3 + c, r) += bp[r];
    }
  }
  // C' = C + (d^ B)ᵀ + d^ B'. Symmetric in exact arithmetic; the upper triangle is mirrored so
  // M^A stays exactly so.
  for (int c = 0; c < 3; ++c) {
    const Vec3<S> z = cross3(d, Bp[c]);
    const S zc[3] = {z.x, z.y, z.z};
    for (int r = 0; r <= c; ++r) {
      out(3 + r, 3 + c) += C(r, c) + dB[c][r] + zc[r];
      if (r != c) out(3 + c, 3 + r) = out(3 + r, 3 + c);
    }
  }
}

/// out += Tᵀ (M − U D⁻¹ Uᵀ) T (add_translated): the articulated inertia a 1-DoF child passes to
/// its parent (ABA's I^a). The rank-one term is subtracted entry by entry as it is read, for the
/// entries the formulas read (not a 6×6 temporary).
template <class S>
void add_articulated_translated(const Vector3<S>& d, const Matrix6<S>& M, const Vector6<S>& U,
                                S Dinv, Matrix6<S>& out) {
  const S UD[6] = {U(0) * Dinv, U(1) * Dinv, U(2) * Dinv, U(3) * Dinv, U(4) * Dinv, U(5) * Dinv};
  add_translated(
      d, [&](int r, int c) { return M(r, c) - UD[r] * U(c); }, out);
}

/// aza_factorize at the poses already in data.H_parent and data.H_base (update_poses), for a
/// caller that has them from another kernel at the same s.
template <class S>
void aza_factorize_at_poses(const Model<S>& model, Data<S>& data) {
  const int nb = model.num_bodies();
  const bool moving = model.has_moving_base();
  // Axes and bodies' inertias rotated into the mixed frames ([0] is the base frame).
  model.inertia(0).matrix_into(data.aza_IA[0]);
  for (int i = 1; i < nb; ++i) {
    const Joint<S>& j = model.joint(i);
    const Matrix3<S>& R = data.H_base[i].rotation();
    data.aza_S[i] = j.subspace_rotated(R);
    model.inertia(i).rotated(R).matrix_into(data.aza_IA[i]);
  }
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent(i);
    Motion<S>& Si = data.aza_S[i];
    const Vector6<S> U = data.aza_IA[i] * Si.vector();  // in [i]
    const S Dinv = S(1) / (Si.vector().dot(U) + model.joint(i).armature);
    data.aza_Dinv[i] = Dinv;
    // [i] → frame 0: moments and linear velocities about the base origin.
    const Vector3<S>& pi = data.H_base[i].translation();
    data.aza_U[i].template head<3>() = U.template head<3>();
    data.aza_U[i].template tail<3>() =
        U.template tail<3>() + pi.cross(Vector3<S>(U.template head<3>()));
    Si.linear() += pi.cross(Vector3<S>(Si.angular()));
    // A welded base's articulated inertia is never used.
    if (moving || p > 0)
      detail::add_articulated_translated(Vector3<S>(pi - data.H_base[p].translation()),
                                         data.aza_IA[i], U, Dinv, data.aza_IA[p]);
  }
  if (moving) data.aza_base.compute(data.aza_IA[0]);
}
}  // namespace detail

/// Factors M(s) by articulated-body inertias into data.aza_* (see the header for the frames).
/// Also writes data.H_parent and data.H_base (^0H_i). Refuses a singular model.
template <class S, class Derived>
void aza_factorize(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  LIEDYN_CHECK_SIZE("aza_factorize", "s", s, model.nq_joints());
  detail::check_data("aza_factorize", model, data);
  model.require_invertible_mass_matrix("aza_factorize");
  detail::update_poses(model, data, s);
  detail::aza_factorize_at_poses(model, data);
}

/// X = M⁻¹ Y column by column, after aza_factorize. `X` may alias `Y`.
template <class S, class DY, class DX>
void aza_solve(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<DY>& Y,
               const Eigen::MatrixBase<DX>& X_) {
  auto& X = const_cast<Eigen::MatrixBase<DX>&>(X_);
  detail::check_data("aza_solve", model, data);
  LIEDYN_CHECK_DIMS("aza_solve", "Y", Y, model.nv(), Y.cols());
  LIEDYN_CHECK_DIMS("aza_solve", "X", X, model.nv(), Y.cols());
  const int nb = model.num_bodies();
  const bool moving = model.has_moving_base();
  // Everything in frame 0: the sweeps are ABA's with the transforms gone.
  for (Eigen::Index c = 0; c < Y.cols(); ++c) {
    for (int i = 0; i < nb; ++i) data.aza_p[i].setZero();
    // Backward sweep: bias wrenches from the inputs alone (no velocity, no gravity).
    for (int i = nb - 1; i >= 1; --i) {
      Vector6<S>& p = data.aza_p[i];
      const S u = S(Y(model.v_index(i), c)) - data.aza_S[i].vector().dot(p);
      data.aza_u[i] = u;
      data.aza_p[model.parent(i)] += p + data.aza_U[i] * (data.aza_Dinv[i] * u);
    }
    // Forward sweep.
    if (moving) {
      const Vector6<S> rhs = Vector6<S>(Y.col(c).template head<6>()) - data.aza_p[0];
      data.aza_a[0] = data.aza_base.solve(rhs);
      X.col(c).template head<6>() = data.aza_a[0];
    } else {
      data.aza_a[0].setZero();
    }
    for (int i = 1; i < nb; ++i) {
      const Vector6<S>& ap = data.aza_a[model.parent(i)];
      const S qdd = data.aza_Dinv[i] * (data.aza_u[i] - data.aza_U[i].dot(ap));
      data.aza_a[i] = ap + data.aza_S[i].vector() * qdd;
      X(model.v_index(i), c) = qdd;
    }
  }
}

}  // namespace liedyn
