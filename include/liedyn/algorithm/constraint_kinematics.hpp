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

/// The bias accelerations (q̈ = 0, no gravity) of the bodies on `body`'s support chain, root
/// first, into cd.bias_acceleration: only the constraints' chains are read.
template <class S>
void support_bias_accelerations(const Model<S>& model, const Data<S>& data, const State<S>& x,
                                ConstraintData<S>& cd, int body) {
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
}

/// A constraint's six candidate rows before its components are picked: velocity, acceleration
/// at q̈ = 0 and position error (the full_dimension(type) leading entries are used; J's rows are
/// kept beside them, on the support's columns).
template <class S>
struct CandidateRows {
  Vector6<S> vel, acc, err;
};

/// A coupling's row: r_j − ratio r_i, on the support's columns `rows`.
template <class S, class Rows>
void coupling_rows(const Model<S>& model, const Constraint<S>& c, const State<S>& x, Rows& rows,
                   CandidateRows<S>& out) {
  const int j = model.v_index(c.joint), i = model.v_index(c.master);
  rows.row(0).setZero();
  rows(0, support_column(c.support, j)) = S(1);
  rows(0, support_column(c.support, i)) = -c.ratio;
  out.vel(0) = x.r[model.r_index(c.joint)] - c.ratio * x.r[model.r_index(c.master)];
  out.acc(0) = S(0);
  out.err(0) = x.s[model.q_index(c.joint)] - c.ratio * x.s[model.q_index(c.master)] - c.offset;
}

/// Frame 1's pose, frame 2's motion, and the relative twist u = v_2 − ^2X_1 v_1 and its rate u̇
/// at q̈ = 0 (frame 2 body coordinates; u̇ only with the drift).
template <class S>
struct RelativeFrameMotion {
  SE3<S> H1;
  ConstraintFrameMotion<S> frame2;
  Motion<S> u, ud;
};

template <class S>
RelativeFrameMotion<S> relative_frame_motion(const Data<S>& data, const ConstraintData<S>& cd,
                                             const Constraint<S>& c, ConstraintDrift drift) {
  const ConstraintFrameMotion<S> f1 = constraint_frame_motion(data, cd, c.body1, c.placement1);
  RelativeFrameMotion<S> m{f1.H, constraint_frame_motion(data, cd, c.body2, c.placement2), {}, {}};
  const ConstraintFrameMotion<S>& f2 = m.frame2;
  const SE3<S> H12 = f1.H.inverse_times(f2.H);
  const Motion<S> Xv1 = H12.act_inverse(f1.v);
  m.u = f2.v - Xv1;
  if (drift == ConstraintDrift::Included)
    m.ud = Motion<S>(f2.a - H12.act_inverse(f1.a) + f2.v.cross(Xv1));
  return m;
}

/// Relative columns ^2X_A (J_2^A − J_1^A) into R (6 × |support|), frame-2 body coordinates, from
/// the inertial columns ^A X_j Γ_j (base: ^A X_0) of the two chains.
template <class S, class Columns>
void relative_support_columns(const Model<S>& model, const Data<S>& data, const Constraint<S>& c,
                              const State<S>& x, const SE3<S>& H2, Columns& R) {
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
  H2.act_inverse_motions(R, R);
}

/// The rows of a frame constraint from its relative columns R and motion m, in its sense: the
/// linear block of the rigid, point, ball and revolute rows; the angular block of the rigid and
/// prismatic ones (Body: as is; Mixed, and Inertial for points: rotated to A's axes); two rows
/// across the free axis for the revolute and prismatic loops.
template <class S, class Columns, class Rows>
void frame_rows(const Constraint<S>& c, const Columns& R, const RelativeFrameMotion<S>& m,
                Rows& rows, CandidateRows<S>& out) {
  const SE3<S>& H2 = m.frame2.H;
  const Matrix3<S>& R2 = H2.rotation();
  const Vector3<S> w2 = m.frame2.v.angular();
  Vector3<S> e_lin = Vector3<S>::Zero(), phi = Vector3<S>::Zero();
  if (c.has_placement) {
    const SE3<S> target = m.H1 * c.placement;
    e_lin = H2.translation() - target.translation();
    phi = SO3<S>(Matrix3<S>(target.rotation().transpose() * R2)).log();
  }
  const Motion<S>& u = m.u;
  const Motion<S>& ud = m.ud;
  if (is_rigid(c.type) && c.sense == TwistRepresentation::Inertial) {
    H2.act_motions(R, rows);
    out.vel = H2.act(u).vector();
    out.acc = H2.act(ud + m.frame2.v.cross(u)).vector();
    out.err.template tail<3>() = R2 * phi;
    out.err.template head<3>() =
        e_lin + H2.translation().cross(Vector3<S>(out.err.template tail<3>()));
    return;
  }
  const Vector3<S> ul = u.linear(), ua = u.angular(), udl = ud.linear(), uda = ud.angular();
  const bool body_sense = c.sense == TwistRepresentation::Body;
  // One block of three rows: `part` 0 linear, 3 angular; a point's acceleration adds ω_2 × u.
  // error_body: the error in frame 2's axes; error_rotated: in A's.
  auto block_rows = [&](int r0, int part, const Vector3<S>& ub, const Vector3<S>& udb,
                        const Vector3<S>& error_body, const Vector3<S>& error_rotated) {
    if (body_sense) {
      rows.template middleRows<3>(r0) = R.template middleRows<3>(part);
      out.vel.template segment<3>(r0) = ub;
      out.acc.template segment<3>(r0) = udb;
      if (part == 0 && c.type == ConstraintType::PointContact)
        out.acc.template segment<3>(r0) += w2.cross(ub);
      out.err.template segment<3>(r0) = error_body;
    } else {
      rows.template middleRows<3>(r0).noalias() = R2 * R.template middleRows<3>(part);
      out.vel.template segment<3>(r0) = R2 * ub;
      out.acc.template segment<3>(r0) = R2 * (udb + w2.cross(ub));
      out.err.template segment<3>(r0) = error_rotated;
    }
  };
  const Vector3<S> e_lin_in_frame2 = R2.transpose() * e_lin;
  for (const RowBlock& b : row_layout(c.type)) {
    const bool linear = b.part == 0;
    if (b.form == RowBlockForm::Complement) {
      const auto Bt = c.complement.transpose();
      rows.template middleRows<2>(b.row).noalias() = Bt * R.template middleRows<3>(b.part);
      out.vel.template segment<2>(b.row) = Bt * (linear ? ul : ua);
      out.acc.template segment<2>(b.row) = Bt * (linear ? udl : uda);
      out.err.template segment<2>(b.row) = Bt * (linear ? e_lin_in_frame2 : phi);
    } else if (linear) {
      block_rows(b.row, 0, ul, udl, e_lin_in_frame2, e_lin);
    } else {
      block_rows(b.row, 3, ua, uda, phi, Vector3<S>(R2 * phi));
    }
  }
  if (!is_rigid(c.type)) return;
  // The intrinsic relative acceleration ^2X_A (ẇ_2 − ẇ_1) = u̇ + v_2 × u, in the sense.
  const Motion<S> intrinsic = ud + m.frame2.v.cross(u);
  if (body_sense) {
    out.acc = intrinsic.vector();
  } else {
    out.acc.template head<3>() = R2 * intrinsic.linear();
    out.acc.template tail<3>() = R2 * intrinsic.angular();
  }
}

/// The constraint's components picked from its candidate rows into J, the errors and, with the
/// drift, drift and γ.
template <class S, class Rows>
void store_constraint_rows(const Constraint<S>& c, const Rows& rows, const CandidateRows<S>& v,
                           ConstraintDrift drift, ConstraintData<S>& cd) {
  for (int k = 0; k < c.dim; ++k) {
    const int r = c.row + k, src = c.components[k];
    scatter_support_row(c.support, rows.row(src), SupportParts::One, cd.J.row(r));
    cd.velocity_error(r) = v.vel(src) - c.velocity(k);
    cd.position_error(r) = v.err(src);
    if (drift == ConstraintDrift::Included) {
      cd.drift(r) = v.acc(src);
      cd.gamma(r) =
          v.acc(src) + c.Kd * cd.velocity_error(r) + c.Kp * v.err(src) - c.acceleration(k);
    }
  }
}

/// Writes the rows of every constraint, and their drift when asked.
template <class S>
void constraint_rows(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                     ConstraintData<S>& cd, const State<S>& x, ConstraintDrift drift,
                     BodyKinematics kinematics = BodyKinematics::Compute) {
  if (kinematics == BodyKinematics::Compute) forward_kinematics(model, data, x);
  cd.J.setZero();
  for (const Constraint<S>& c : set.constraints()) {
    // The columns of the constraint's support only (column l: coordinate c.support[l]); J is
    // zero elsewhere.
    const int ns = static_cast<int>(c.support.size());
    auto R = cd.relative_columns.leftCols(ns);
    auto rows = cd.rows_full.leftCols(ns);
    CandidateRows<S> candidates;
    if (c.type == ConstraintType::Coupling) {
      coupling_rows(model, c, x, rows, candidates);
    } else {
      if (drift == ConstraintDrift::Included) {
        support_bias_accelerations(model, data, x, cd, c.body1);
        support_bias_accelerations(model, data, x, cd, c.body2);
      }
      const RelativeFrameMotion<S> m = relative_frame_motion(data, cd, c, drift);
      relative_support_columns(model, data, c, x, m.frame2.H, R);
      frame_rows(c, R, m, rows, candidates);
      if (!c.has_placement) candidates.err.setZero();
    }
    store_constraint_rows(c, rows, candidates, drift, cd);
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
