// liedyn — algorithm: textbook twins of the fast dynamics kernels: short, slow, plain 6×6-matrix
// transcriptions of Featherstone's Rigid Body Dynamics Algorithms (RBDA, 2008) — rnea (Table 5.1),
// crba (Table 6.2), aba (Table 7.1; floating base §9.3) — and what follows from them directly
// (bias, gravity and Coriolis terms; M⁻¹ as the inverse of this M). They are the ORACLE the tests
// hold rnea, eidamb, crba (both routes), aba and immamb to; the library never calls them. Each
// line's comment is the table line it implements, quoted in the book's symbols.
//
// Where liedyn's contract (docs/conventions.md §1–2) reads the book differently:
//  * LINEAR FIRST, v = [v_lin; ω], f = [force; moment]: crm(v) = v× and crf(v) = v×* = −(v×)ᵀ
//    are the book's crm/crf with the 3×3 blocks swapped;
//  * bodies 0..n, body 0 the base. A moving base is body 0 with a 6-DoF joint of motion subspace
//    S_0 = 1₆ (§9.3): velocity the body twist ν, acceleration ν̇, generalized force the base
//    wrench τ̄_b (base frame). A welded base has v_0 = 0 and no coordinates;
//  * gravity is the book's fictitious base acceleration a_0 = −a_g = ^0X_A (−[g; 0]);
//  * each body's quantities are in its own frame; ^iX_λ(i) (the book's X_J X_T(i)) is the 6×6
//    velocity transform of (^λH_i)⁻¹, ^λH_i = Joint::transform(s_i); forces go back with
//    ^λX*_i = (^iX_λ)ᵀ. S_i = Γ_i (joint.screw) is constant in the child frame: c_J = 0;
//  * generalized vectors base first ([ν̇; ṙ], [τ̄_b; τ]), joint i at model.v_index(i); external
//    wrenches per body in its own frame (the book's ^iX*_0 f^x_i is f^x_i); armature adds to
//    H_ii and D_i, as in the fast kernels.
// These functions ALLOCATE (std::vector of 6×6 matrices, dense results) and need no Data.
#pragma once

#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "liedyn/algorithm/common.hpp"

namespace liedyn {
namespace textbook {

/// The motion cross-product matrix v× = [ω^, v_lin^; 0, ω^] of v = [v_lin; ω] (RBDA's crm).
template <class S>
Matrix6<S> crm(const Vector6<S>& v) {
  const Matrix3<S> w = hat(v.template tail<3>());
  Matrix6<S> X;
  X << w, hat(v.template head<3>()), Matrix3<S>::Zero(), w;
  return X;
}

/// The force cross-product matrix v×* = −(v×)ᵀ = [ω^, 0; v_lin^, ω^] (RBDA's crf).
template <class S>
Matrix6<S> crf(const Vector6<S>& v) {
  return -crm(v).transpose();
}

/// ^iX_λ(i) = X_J X_T(i) of every body, 6×6 velocity transforms (entry 0, the base: identity).
/// Each joint's pose is placement · exp((Γ q)^) (docs/conventions.md §2), built from the joint's
/// data alone: independent of Joint::transform and its fast cases, which the fast kernels use.
template <class S>
std::vector<Matrix6<S>> parent_transforms(const Model<S>& model, const VectorX<S>& s) {
  std::vector<Matrix6<S>> X(model.num_bodies(), Matrix6<S>::Identity());
  for (int i = 1; i < model.num_bodies(); ++i) {
    const Joint<S>& joint = model.joint(i);
    const Vector6<S> screw_times_q = joint.screw.vector() * s(model.q_index(i));
    X[i] = (joint.placement * SE3<S>::exp(screw_times_q)).inverse().velocity_transform();
  }
  return X;
}

/// −a_g in the base frame: the fictitious acceleration ^0X_A (−[g; 0]) of gravity at pose H.
template <class S>
Vector6<S> minus_gravity(const Model<S>& model, const SE3<S>& H) {
  Vector6<S> a;
  a << -model.gravity(), Vector3<S>::Zero();
  return H.inverse().velocity_transform() * a;
}

/// RBDA Table 5.1 (RNEA) with a given base acceleration −a_g (zero: no gravity): τ̄ for the
/// accelerations ddq = [ν̇; ṙ], base first.
template <class S>
VectorX<S> inverse_dynamics(const Model<S>& model, const State<S>& x, const VectorX<S>& ddq,
                            const Vector6<S>& minus_ag, const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("textbook::inverse_dynamics", model, x);
  LIEDYN_CHECK_SIZE("textbook::inverse_dynamics", "ddq", ddq, model.nv());
  detail::check_wrenches("textbook::inverse_dynamics", model, fext);
  const int nb = model.num_bodies();
  // Branches kept: an oracle of §9.3 verbatim, independent of the joint layer it checks.
  const bool moving = model.has_moving_base();
  const std::vector<Matrix6<S>> X = parent_transforms(model, x.s);
  std::vector<Vector6<S>> v(nb), a(nb), f(nb);
  v[0] = moving ? x.nu : Vector6<S>(Vector6<S>::Zero());  // v_0 = 0 (§9.3: the base twist)
  a[0] = minus_ag;                                        // a_0 = −a_g
  if (moving) a[0] += ddq.template head<6>();             // §9.3: + S_0 q̈_0, S_0 = 1
  for (int i = 0; i < nb; ++i) {
    if (i > 0) {
      const int p = model.parent(i);
      const Vector6<S> Si = model.joint(i).screw.vector(), vJ = Si * x.r(model.r_index(i));
      v[i] = X[i] * v[p] + vJ;  // v_i = ^iX_λ v_λ + v_J
      // a_i = ^iX_λ a_λ + S_i q̈_i + c_J + v_i × v_J
      a[i] = X[i] * a[p] + Si * ddq(model.v_index(i)) + crm(v[i]) * vJ;
    }
    const Matrix6<S> I = model.inertia(i).matrix();
    f[i] = I * a[i] + crf(v[i]) * I * v[i];  // f_i = I_i a_i + v_i ×* I_i v_i
    if (fext) f[i] -= (*fext)[i].vector();   //       − ^iX*_0 f^x_i
  }
  VectorX<S> tau(model.nv());
  for (int i = nb - 1; i >= 1; --i) {
    const Joint<S>& joint = model.joint(i);
    tau(model.v_index(i)) = joint.screw.vector().dot(f[i])             // τ_i = S_iᵀ f_i
                            + joint.armature * ddq(model.v_index(i));  // + armature_i q̈_i
    f[model.parent(i)] += X[i].transpose() * f[i];                     // f_λ = f_λ + ^λX*_i f_i
  }
  if (moving) tau.template head<6>() = f[0];  // §9.3: τ̄_b = S_0ᵀ f_0
  return tau;
}

/// Inverse dynamics τ̄ = M ddq + h(x) − Σ J_iᵀ f_ext,i by RBDA Table 5.1; the twin of rnea
/// and eidamb.
template <class S>
VectorX<S> rnea(const Model<S>& model, const State<S>& x, const VectorX<S>& ddq,
                const ExternalWrenches<S>* fext = nullptr) {
  return inverse_dynamics(model, x, ddq, minus_gravity(model, x.H), fext);
}

/// The bias h(x) (and external wrenches) = rnea(x, 0); the twin of bias_force.
template <class S>
VectorX<S> bias_force(const Model<S>& model, const State<S>& x,
                      const ExternalWrenches<S>* fext = nullptr) {
  return rnea(model, x, VectorX<S>(VectorX<S>::Zero(model.nv())), fext);
}

/// The gravity term G = rnea at rest (ν = 0, r = 0, ddq = 0); the twin of gravity_force.
template <class S>
VectorX<S> gravity_force(const Model<S>& model, const State<S>& x) {
  State<S> rest = x;
  rest.nu.setZero();
  rest.r.setZero();
  return rnea(model, rest, VectorX<S>(VectorX<S>::Zero(model.nv())));
}

/// The Coriolis/centrifugal term V = rnea with a_g = 0 and ddq = 0; the twin of coriolis_force.
template <class S>
VectorX<S> coriolis_force(const Model<S>& model, const State<S>& x) {
  const VectorX<S> zero = VectorX<S>::Zero(model.nv());
  return inverse_dynamics(model, x, zero, Vector6<S>(Vector6<S>::Zero()));
}

/// The mass matrix M(s) (nv × nv, base first, armature on the diagonal) by RBDA Table 6.2,
/// composite inertias; a moving base is the 6-DoF joint S_0 = 1₆ (§9.3). The twin of crba.
template <class S>
MatrixX<S> crba(const Model<S>& model, const VectorX<S>& s) {
  LIEDYN_CHECK_SIZE("textbook::crba", "s", s, model.nq_joints());
  const int nb = model.num_bodies(), off = model.offset();
  const std::vector<Matrix6<S>> X = parent_transforms(model, s);
  std::vector<Matrix6<S>> Ic(nb);
  for (int i = 0; i < nb; ++i) Ic[i] = model.inertia(i).matrix();  // I^c_i = I_i
  MatrixX<S> H = MatrixX<S>::Zero(model.nv(), model.nv());         // H = 0
  for (int i = nb - 1; i >= 1; --i) {
    const int vi = model.v_index(i);
    // if λ(i) ≠ 0 (a moving base is a body too): I^c_λ = I^c_λ + ^λX*_i I^c_i ^iX_λ
    Ic[model.parent(i)] += X[i].transpose() * Ic[i] * X[i];
    const Vector6<S> Si = model.joint(i).screw.vector();
    Vector6<S> F = Ic[i] * Si;                        // F = I^c_i S_i
    H(vi, vi) = Si.dot(F) + model.joint(i).armature;  // H_ii = S_iᵀ F
    for (int j = i; j != 0;) {                        // while λ(j) ≠ 0
      F = X[j].transpose() * F;                       //   F = ^λ(j)X*_j F
      j = model.parent(j);                            //   j = λ(j)
      if (j > 0) {
        const int vj = model.v_index(j);
        H(vi, vj) = F.dot(model.joint(j).screw.vector());  //   H_ij = Fᵀ S_j
        H(vj, vi) = H(vi, vj);                             //   H_ji = H_ijᵀ
      } else if (off > 0) {
        H.block(0, vi, 6, 1) = F;              //   H_0i = S_0ᵀ F, S_0 = 1
        H.block(vi, 0, 1, 6) = F.transpose();  //   H_i0 = H_0iᵀ
      }
    }
  }
  if (off > 0) H.template topLeftCorner<6, 6>() = Ic[0];  // H_00 = S_0ᵀ I^c_0 S_0
  return H;
}

/// M(s)⁻¹ as the inverse of this crba's M (dense Cholesky); the twin of immamb.
template <class S>
MatrixX<S> inverse_mass_matrix(const Model<S>& model, const VectorX<S>& s) {
  const MatrixX<S> M = crba(model, s);
  return M.llt().solve(MatrixX<S>::Identity(M.rows(), M.cols()));
}

/// Forward dynamics ddq = M⁻¹ (τ̄ + Σ J_iᵀ f_ext,i − h(x)) by RBDA Table 7.1 (ABA), with the
/// floating base of §9.3 (Table 9.5) for a moving base. The twin of aba.
template <class S>
VectorX<S> aba(const Model<S>& model, const State<S>& x, const VectorX<S>& tau,
               const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("textbook::aba", model, x);
  LIEDYN_CHECK_SIZE("textbook::aba", "tau", tau, model.nv());
  detail::check_wrenches("textbook::aba", model, fext);
  const int nb = model.num_bodies();
  // Branches kept: an oracle of §9.3 verbatim, independent of the joint layer it checks.
  const bool moving = model.has_moving_base();
  const std::vector<Matrix6<S>> X = parent_transforms(model, x.s);
  std::vector<Vector6<S>> v(nb), c(nb), pA(nb), U(nb), a(nb);
  std::vector<Matrix6<S>> IA(nb);
  std::vector<S> D(nb), u(nb);
  v[0] = moving ? x.nu : Vector6<S>(Vector6<S>::Zero());  // v_0 = 0 (§9.3: the base twist)
  c[0].setZero();
  for (int i = 0; i < nb; ++i) {
    if (i > 0) {
      const Vector6<S> vJ = model.joint(i).screw.vector() * x.r(model.r_index(i));
      v[i] = X[i] * v[model.parent(i)] + vJ;  // v_i = ^iX_λ v_λ + v_J
      c[i] = crm(v[i]) * vJ;                  // c_i = c_J + v_i × v_J
    }
    IA[i] = model.inertia(i).matrix();  // I^A_i = I_i
    pA[i] = crf(v[i]) * IA[i] * v[i];   // p^A_i = v_i ×* I_i v_i − ^iX*_0 f^x_i
    if (fext) pA[i] -= (*fext)[i].vector();
  }
  for (int i = nb - 1; i >= 1; --i) {
    const Joint<S>& joint = model.joint(i);
    const Vector6<S> Si = joint.screw.vector();
    U[i] = IA[i] * Si;                             // U_i = I^A_i S_i
    D[i] = Si.dot(U[i]) + joint.armature;          // D_i = S_iᵀ U_i
    u[i] = tau(model.v_index(i)) - Si.dot(pA[i]);  // u_i = τ_i − S_iᵀ p^A_i
    // if λ(i) ≠ 0 (a moving base is a body too):
    // I^a = I^A_i − U_i D_i⁻¹ U_iᵀ,  p^a = p^A_i + I^a c_i + U_i D_i⁻¹ u_i
    const Matrix6<S> Ia = IA[i] - U[i] * U[i].transpose() / D[i];
    const Vector6<S> pa = pA[i] + Ia * c[i] + U[i] * (u[i] / D[i]);
    IA[model.parent(i)] += X[i].transpose() * Ia * X[i];  // I^A_λ += ^λX*_i I^a ^iX_λ
    pA[model.parent(i)] += X[i].transpose() * pa;         // p^A_λ += ^λX*_i p^a
  }
  VectorX<S> ddq(model.nv());
  const Vector6<S> minus_ag = minus_gravity(model, x.H);
  if (moving) {
    // §9.3: a'_0 = (I^A_0)⁻¹ (τ̄_b − p^A_0), the base's acceleration with −a_g included.
    a[0] = IA[0].inverse() * (Vector6<S>(tau.template head<6>()) - pA[0]);
    ddq.template head<6>() = a[0] - minus_ag;  // a_0 = a'_0 + a_g
  } else {
    a[0] = minus_ag;  // a_0 = −a_g
  }
  for (int i = 1; i < nb; ++i) {
    const Vector6<S> ai = X[i] * a[model.parent(i)] + c[i];  // a'_i = ^iX_λ a_λ + c_i
    const int vi = model.v_index(i);
    ddq(vi) = (u[i] - U[i].dot(ai)) / D[i];               // q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i)
    a[i] = ai + model.joint(i).screw.vector() * ddq(vi);  // a_i = a'_i + S_i q̈_i
  }
  return ddq;
}

}  // namespace textbook
}  // namespace liedyn
