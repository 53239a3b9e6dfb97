// liedyn — algorithm: the kinematics of a ConstraintSet at a state — the stacked Jacobian J, the
// drift J̇ ν̄, the Baumgarte-stabilized right-hand side γ, the position and velocity errors.
//
// Frames, senses and signs: model/constraint.hpp and docs/constraints.md. In short, with u the
// relative body twist of frame 2 with respect to frame 1 (frame 1 = the environment for a
// contact), every row is a fixed or pose-dependent combination P(x) u, so
//   J = P ^2X_A (J_2^A − J_1^A)     (J_i^A: the inertial Jacobian of frame i's body; the
//                                    columns of their common ancestors cancel exactly)
//   J̇ ν̄ = P u̇|_{q̈=0} + Ṗ u,   u̇|_{q̈=0} = a_2 − ^2X_1 a_1 + v_2 × (^2X_1 v_1)
// with v_i, a_i frame i's body twist and its acceleration at q̈ = 0 (no gravity). The drift is
// the time derivative of the rows' velocity J ν̄ (so d/dt (J ν̄) = J q̈ + J̇ ν̄ along any motion),
// with two exceptions, both Pinocchio's conventions and both differing from d/dt (J ν̄) only by
// terms that vanish where the constraint velocity J ν̄ is zero:
//   * a point contact in body sense takes the classical acceleration of the contact point in the
//     contact frame's axes, R_Fᵀ p̈ = u̇_lin + ω_F × u_lin (so body and mixed are the same
//     constraint p̈ = 0 at any state);
//   * rigid rows (contacts and loops, every sense) take the intrinsic relative acceleration
//     ^X X_A (ẇ_2 − ẇ_1) = T (u̇ + v_2 × u) (w_i: inertial twists; T = I, blockdiag(R_2, R_2),
//     ^A X_2 for body, mixed, inertial), so the three senses are exact changes of frame of one
//     another at any state, and λ transforms as a wrench.
// The rows enforce J q̈ + γ = 0 with γ = J̇ ν̄ + Kd (J ν̄ − v*) + Kp e − a*.
//
// Position error e (zero where the constraint holds; its derivative is J ν̄ there), with o_2 and
// R_2 frame 2's origin and attitude in A, and o_2*, R_2* where the desired placement puts it:
//   linear   R_2ᵀ (o_2 − o_2*) (body), o_2 − o_2* (mixed), o_2 − o_2* + o_2 × R_2 φ (inertial)
//   angular  φ = log(R_2*ᵀ R_2) (body), R_2 φ (mixed, inertial)
// restricted to the same components as the rows (B ᵀ for the directions ⟂ a loop joint's axis).
// Couplings: e = s_j − a s_i − b, J ν̄ = r_j − a r_i, J̇ ν̄ = 0.
//
// Data fields used: data's kinematics (H_parent, H_world, v, vJ: forward_kinematics at x);
// ConstraintData's J, drift, gamma, position_error, velocity_error and its scratch. Nothing
// allocates.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "liedyn/algorithm/common.hpp"
#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/model/constraint.hpp"

namespace liedyn {

namespace detail {

/// A constraint's kernels work on the columns of its support only (Constraint::support,
/// increasing): in a support block column l stands for coordinate support[l], the others being
/// zero. A 6 × 2nv block becomes [q part | ν̄ part], |support| columns each.
template <class S>
using SupportColumns = Eigen::Ref<Matrix6X<S>>;
template <class S>
using ConstSupportColumns = Eigen::Ref<const Matrix6X<S>>;

/// The column of coordinate d in a support block (d must be in the support).
inline int support_column(const std::vector<int>& support, int d) {
  return static_cast<int>(std::lower_bound(support.begin(), support.end(), d) - support.begin());
}

/// The columns of a support block: one part (|support| columns, against ν̄ or q) or two
/// ([q | ν̄], 2 |support| columns, against the state).
enum class SupportParts { One, Two };

/// Row `from` of a support block into row `to` of a full matrix (nv columns, or 2nv for two
/// parts): the support's entries only. The caller clears the rest, usually the whole matrix at
/// once (contiguous, where a row of it is strided).
template <class DF, class DT>
void scatter_support_row(const std::vector<int>& support, const Eigen::MatrixBase<DF>& from,
                         SupportParts parts, const Eigen::MatrixBase<DT>& to_) {
  const bool two_parts = parts == SupportParts::Two;
  auto& to = const_cast<Eigen::MatrixBase<DT>&>(to_);
  const int ns = static_cast<int>(support.size());
  const int nv = static_cast<int>(two_parts ? to.size() / 2 : to.size());
  for (int l = 0; l < ns; ++l) {
    to(support[l]) = from(l);
    if (two_parts) to(nv + support[l]) = from(ns + l);
  }
}

/// Pose, body twist and acceleration at q̈ = 0 of a constraint frame (body −1: the environment).
template <class S>
struct ConstraintFrameMotion {
  SE3<S> H;
  Motion<S> v, a;
};

template <class S>
ConstraintFrameMotion<S> constraint_frame_motion(const Data<S>& data, const ConstraintData<S>& cd,
                                                 int body, const SE3<S>& placement) {
  ConstraintFrameMotion<S> f;
  if (body < 0) return f;
  f.H = data.kinematics.H_world[body] * placement;
  f.v = placement.act_inverse(data.kinematics.v[body]);
  f.a = placement.act_inverse(cd.bias_acceleration[body]);
  return f;
}

template <class S>
void check_constraint_call(const char* who, const Model<S>& model, const Data<S>& data,
                           const ConstraintSet<S>& set, const ConstraintData<S>& cd,
                           const State<S>& x) {
  check_data_pairing(who, model, data);
  LIEDYN_CHECK(set.fits(model),
               std::string(who) + ": the constraint set was built for another model");
  LIEDYN_CHECK(
      cd.J.rows() == set.dimension() && cd.J.cols() == model.nv(),
      std::string(who) + ": the ConstraintData was sized for another model or constraint set");
  check_state(who, model, x);
}

/// What constraint_rows writes beside J: the accelerations at q̈ = 0 too (drift, gamma: one
/// more pass along the constraints' support chains), or not.
enum class ConstraintDrift { Omitted, Included };

/// Whether a pass computes the forward kinematics at x or finds data's H_parent, H_world, vJ
/// and v already there (computed earlier in the same call).
enum class BodyKinematics { Compute, AlreadyCurrent };

/// Writes the rows of every constraint, and their drift when asked.
template <class S>
void constraint_rows(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                     ConstraintData<S>& cd, const State<S>& x, ConstraintDrift drift,
                     BodyKinematics kinematics = BodyKinematics::Compute) {
  const bool with_drift = drift == ConstraintDrift::Included;
  if (kinematics == BodyKinematics::Compute) forward_kinematics(model, data, x);
  // The bias accelerations (q̈ = 0, no gravity) of the bodies on `body`'s support chain, root
  // first: only the constraints' chains are read.
  auto bias_chain = [&](int body) {
    if (body < 0) return;
    detail::for_each_support_body(model, body, [&](int j) {
      Motion<S>& a = cd.bias_acceleration[j];
      if (j == 0) {
        a = Motion<S>();
        return;
      }
      const Joint<S>& joint = model.joint(j);
      joint.motion_to_child(data.kinematics.H_parent[j], cd.bias_acceleration[model.parent(j)], a);
      a += data.kinematics.v[j].cross(data.kinematics.vJ[j]);
      joint.add_bias(x.s.segment(model.q_index(j), model.joint_nq(j)),
                     x.r.segment(model.r_index(j), model.joint_nv(j)), a);  // c_J
    });
  };

  cd.J.setZero();
  for (const Constraint<S>& c : set.constraints()) {
    // The columns of the constraint's support only (column l: coordinate c.support[l]); J is
    // zero elsewhere.
    const int ns = static_cast<int>(c.support.size());
    auto R = cd.relative_columns.leftCols(ns);
    auto rows = cd.rows_full.leftCols(ns);
    Vector6<S> vel, acc, err;  // the full_dimension(type) leading entries are used
    if (c.type == ConstraintType::Coupling) {
      const int j = model.v_index(c.joint), i = model.v_index(c.master);
      rows.row(0).setZero();
      rows(0, support_column(c.support, j)) = S(1);
      rows(0, support_column(c.support, i)) = -c.ratio;
      vel(0) = x.r[model.r_index(c.joint)] - c.ratio * x.r[model.r_index(c.master)];
      acc(0) = S(0);
      err(0) = x.s[model.q_index(c.joint)] - c.ratio * x.s[model.q_index(c.master)] - c.offset;
    } else {
      if (with_drift) {
        bias_chain(c.body1);
        bias_chain(c.body2);
      }
      const ConstraintFrameMotion<S> f1 = constraint_frame_motion(data, cd, c.body1, c.placement1);
      const ConstraintFrameMotion<S> f2 = constraint_frame_motion(data, cd, c.body2, c.placement2);
      const SE3<S> H12 = f1.H.inverse_times(f2.H);
      const Motion<S> Xv1 = H12.act_inverse(f1.v);
      const Motion<S> u = f2.v - Xv1;
      const Motion<S> ud =
          with_drift ? Motion<S>(f2.a - H12.act_inverse(f1.a) + f2.v.cross(Xv1)) : Motion<S>();
      // Relative columns ^2X_A (J_2^A − J_1^A), frame-2 body coordinates, from the inertial
      // columns ^A X_j Γ_j (base: ^A X_0) of the two chains.
      R.setZero();
      auto add_chain = [&](int body, const S& sign) {
        if (body < 0) return;
        detail::for_each_support_body(model, body, [&](int j) {
          if (j == 0) {
            model.base_joint().add_inertial_columns(data.kinematics.H_world[0], sign, R);
            return;
          }
          // A joint's coordinates are consecutive in the support, as in ν̄.
          const int first = support_column(c.support, model.v_index(j)), k = model.joint_nv(j);
          if (k == 1) {
            R.col(first) += sign * model.joint(j).subspace_in(data.kinematics.H_world[j]).vector();
            return;
          }
          Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> columns(6, k);
          model.joint(j).subspace_in(data.kinematics.H_world[j],
                                     x.s.segment(model.q_index(j), model.joint_nq(j)), columns);
          R.middleCols(first, k) += sign * columns;
        });
      };
      add_chain(c.body2, S(1));
      add_chain(c.body1, S(-1));
      f2.H.act_inverse_motions(R, R);

      const Matrix3<S>& R2 = f2.H.rotation();
      const Vector3<S>& o2 = f2.H.translation();
      const Vector3<S> w2 = f2.v.angular();
      Vector3<S> e_lin = Vector3<S>::Zero(), phi = Vector3<S>::Zero();
      if (c.has_placement) {
        const SE3<S> target = f1.H * c.placement;
        e_lin = o2 - target.translation();
        phi = SO3<S>(Matrix3<S>(target.rotation().transpose() * R2)).log();
      }
      const Vector3<S> ul = u.linear(), ua = u.angular(), udl = ud.linear(), uda = ud.angular();
      const bool body_sense = c.sense == TwistRepresentation::Body;
      // Linear block of the rigid, point, ball and revolute rows; angular block of the rigid and
      // prismatic ones (Body: as is; Mixed, and Inertial for points: rotated to A's axes).
      auto linear_rows = [&](int r0) {
        if (body_sense) {
          rows.template middleRows<3>(r0) = R.template topRows<3>();
          vel.template segment<3>(r0) = ul;
          acc.template segment<3>(r0) = udl;
          if (c.type == ConstraintType::PointContact) acc.template segment<3>(r0) += w2.cross(ul);
          err.template segment<3>(r0) = R2.transpose() * e_lin;
        } else {
          rows.template middleRows<3>(r0).noalias() = R2 * R.template topRows<3>();
          vel.template segment<3>(r0) = R2 * ul;
          acc.template segment<3>(r0) = R2 * (udl + w2.cross(ul));
          err.template segment<3>(r0) = e_lin;
        }
      };
      auto angular_rows = [&](int r0) {
        if (body_sense) {
          rows.template middleRows<3>(r0) = R.template bottomRows<3>();
          vel.template segment<3>(r0) = ua;
          acc.template segment<3>(r0) = uda;
          err.template segment<3>(r0) = phi;
        } else {
          rows.template middleRows<3>(r0).noalias() = R2 * R.template bottomRows<3>();
          vel.template segment<3>(r0) = R2 * ua;
          acc.template segment<3>(r0) = R2 * (uda + w2.cross(ua));
          err.template segment<3>(r0) = R2 * phi;
        }
      };
      // Two rows of frame 2's own coordinates across the free axis: the revolute loop's angular
      // rows, the prismatic loop's linear rows.
      auto complement_rows = [&](const RowBlock& b) {
        const auto Bt = c.complement.transpose();
        const bool linear = b.part == 0;
        rows.template middleRows<2>(b.row).noalias() = Bt * R.template middleRows<3>(b.part);
        vel.template segment<2>(b.row) = Bt * (linear ? ul : ua);
        acc.template segment<2>(b.row) = Bt * (linear ? udl : uda);
        err.template segment<2>(b.row) = Bt * (linear ? Vector3<S>(R2.transpose() * e_lin) : phi);
      };
      if (is_rigid(c.type) && c.sense == TwistRepresentation::Inertial) {
        f2.H.act_motions(R, rows);
        vel = f2.H.act(u).vector();
        acc = f2.H.act(ud + f2.v.cross(u)).vector();
        err.template tail<3>() = R2 * phi;
        err.template head<3>() = e_lin + o2.cross(Vector3<S>(err.template tail<3>()));
      } else {
        for (const RowBlock& b : row_layout(c.type)) {
          if (b.form == RowBlockForm::Complement) complement_rows(b);
          else if (b.part == 0) linear_rows(b.row);
          else angular_rows(b.row);
        }
        if (is_rigid(c.type)) {
          // The intrinsic relative acceleration ^2X_A (ẇ_2 − ẇ_1) = u̇ + v_2 × u, in the sense.
          const Motion<S> intrinsic = ud + f2.v.cross(u);
          if (body_sense) {
            acc = intrinsic.vector();
          } else {
            acc.template head<3>() = R2 * intrinsic.linear();
            acc.template tail<3>() = R2 * intrinsic.angular();
          }
        }
      }
      if (!c.has_placement) err.setZero();
    }
    for (int k = 0; k < c.dim; ++k) {
      const int r = c.row + k, src = c.components[k];
      scatter_support_row(c.support, rows.row(src), SupportParts::One, cd.J.row(r));
      cd.velocity_error(r) = vel(src) - c.velocity(k);
      cd.position_error(r) = err(src);
      if (with_drift) {
        cd.drift(r) = acc(src);
        cd.gamma(r) = acc(src) + c.Kd * cd.velocity_error(r) + c.Kp * err(src) - c.acceleration(k);
      }
    }
  }
}

}  // namespace detail

/// The constraint kinematics at x into cd: J (m × nv, rows in each constraint's sense, columns
/// for ν̄ = [ν; r] base first), drift J̇ ν̄, γ (J q̈ + γ = 0 with the Baumgarte terms and a*),
/// position_error e and velocity_error J ν̄ − v* (see the header for frames and definitions).
/// Also leaves forward kinematics at x in data. O(n + m nv).
template <class S>
void constraint_kinematics(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                           ConstraintData<S>& cd, const State<S>& x) {
  detail::check_constraint_call("constraint_kinematics", model, data, set, cd, x);
  detail::constraint_rows(model, data, set, cd, x, detail::ConstraintDrift::Included);
}

/// J, position_error and velocity_error only (no drift, no γ: cd.drift and cd.gamma are left
/// stale), one O(n) pass cheaper than constraint_kinematics.
template <class S>
void constraint_jacobian(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                         ConstraintData<S>& cd, const State<S>& x) {
  detail::check_constraint_call("constraint_jacobian", model, data, set, cd, x);
  detail::constraint_rows(model, data, set, cd, x, detail::ConstraintDrift::Omitted);
}

}  // namespace liedyn
