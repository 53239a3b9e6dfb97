// liedyn — algorithm: forward kinematics, frame poses, frame Jacobians and the Jacobian's
// acceleration bias J̇ q̇, for a moving-base (or welded-base) tree.
//
// Frames and conventions (docs/conventions.md §1–§3):
//   * A is the inertial frame; body 0 is the base with ^A H_0 = x.H (moving base) or
//     model.welded_base_pose() (welded base: x.H is then ignored).
//   * ^{λ(i)}H_i(q_i) = model.joint(i).transform(q_i), q_i joint i's coordinates in s;
//     ^A H_i = ^A H_{λ(i)} ^{λ(i)}H_i. Every joint type (joint.hpp) is handled.
//   * A frame F is rigidly attached to a body b at ^b H_F = model.frame(f).placement. Every body
//     is also a frame: the builder creates frames 0..num_bodies()−1 for the bodies, with identity
//     placement (so frame id == body id for those); fixed (merged) URDF links and user frames
//     follow.
//   * Twists are linear first, [v_lin; ω]. The generalized velocity is q̇ = [ν; r] (BASE FIRST,
//     size model.nv()), ν = ^0 v_{A,0} the body twist of the base (Ḣ = H ν^); for a welded base
//     q̇ = r. Joint i's columns are model.joint_nv(i) from model.v_index(i).
//   * A frame twist comes in the same three representations as the base twist (state.hpp):
//       Body      ^F v_{A,F}                       (Ḣ_F = H_F (^F v)^)
//       Inertial  ^A v_{A,F} = ^A X_F ^F v_{A,F}      (Ḣ_F = (^A v)^ H_F)
//       Mixed     [^A ȯ_F; ^A ω_{A,F}]  = blockdiag(R_F, R_F) ^F v_{A,F}, R_F = ^A R_F
//     The frame Jacobian J (6 × nv) maps q̇ to the frame twist in the chosen representation:
//     v_F^rep = J(x) q̇. Its base columns (0..5) are for the base's body twist ν — whatever
//     representation the frame twist is asked in.
//   * The acceleration bias J̇ q̇ is the time derivative of v_F^rep = J q̇ along the motion when
//     q̈ = [ν̇; ṙ] = 0, so that d/dt v_F^rep = J q̈ + J̇ q̇ (the "apparent" acceleration of the
//     representation's coordinates). For Body and Inertial this equals the intrinsic
//     (spatial) acceleration of the frame expressed in F resp. A; for Mixed it is
//     [R_F (a_lin + ω × v_lin); R_F a_ang] (a = ^F a, v = ^F v), i.e. the ordinary derivative
//     of the origin velocity ^A ȯ_F and of ^A ω — what operational-space controllers use.
//
// Data fields used (data.hpp, "kinematics"): H_parent, H_world, v (^i v_{A,i}, body frame),
// vJ (Γ_i r_i); the full passes also joint_q, joint_sin, joint_cos. forward_kinematics fills
// them for every body; the frame_* functions that take the state x recompute and overwrite
// them only for the bodies of the frame's support chain (the path base → frame body), with the
// values forward_kinematics would give to rounding (the chain takes each joint's sine and cosine
// on its own, the full pass all of them at once), so they need no prior call. None of these
// functions allocates (outputs are fixed-size or preallocated by the caller).
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

#include "liedyn/algorithm/common.hpp"
#include "liedyn/algorithm/data.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {

/// ^A H_0 as the kinematics use it: x.H for a moving base, model.welded_base_pose() otherwise.
template <class S>
const SE3<S>& base_pose(const Model<S>& model, const State<S>& x) {
  return model.base_joint().pose(x);
}

namespace detail {

template <class S>
void check_body_index(const Model<S>& model, int body, const char* who) {
  LIEDYN_CHECK(body >= 0 && body < model.num_bodies(),
               std::string(who) + ": body index " + std::to_string(body) + " out of range [0, " +
                   std::to_string(model.num_bodies()) + ")");
}

template <class S>
void check_frame_index(const Model<S>& model, int frame, const char* who) {
  LIEDYN_CHECK(frame >= 0 && frame < static_cast<int>(model.frames().size()),
               std::string(who) + ": frame index " + std::to_string(frame) + " out of range [0, " +
                   std::to_string(model.frames().size()) + ")");
}

/// Calls visit(j) for every body j on the path base → body (base first, `body` last), in
/// O(depth + skipped siblings), without allocating: with depth-first numbering the ancestor of
/// `body` among the children of j is the child c with c ≤ body < subtree_end(c), and the next
/// sibling of c is subtree_end(c).
template <class S, class Visit>
void for_each_support_body(const Model<S>& model, int body, Visit&& visit) {
  int j = 0;
  visit(0);
  while (j != body) {
    int c = j + 1;
    while (model.subtree_end(c) <= body) c = model.subtree_end(c);
    visit(c);
    j = c;
  }
}

/// What support_chain_kinematics updates: the poses (H_parent, H_world), or the twists (vJ, v)
/// too.
enum class ChainQuantities { Poses, PosesAndTwists };

/// Updates the chosen quantities of the support chain of `body`.
template <class S>
void support_chain_kinematics(const Model<S>& model, Data<S>& data, const State<S>& x, int body,
                              ChainQuantities quantities) {
  const bool velocities = quantities == ChainQuantities::PosesAndTwists;
  for_each_support_body(model, body, [&](int j) {
    if (j == 0) {
      data.kinematics.H_world[0] = base_pose(model, x);
      if (velocities) {
        data.kinematics.v[0] = model.base_joint().twist(x);
        data.kinematics.vJ[0] = Motion<S>();
      }
      return;
    }
    const Joint<S>& jt = model.joint(j);
    const auto q = x.s.segment(model.q_index(j), model.joint_nq(j));
    data.kinematics.H_parent[j] = jt.transform(q);
    jt.child_pose(data.kinematics.H_world[model.parent(j)], data.kinematics.H_parent[j],
                  data.kinematics.H_world[j]);
    if (velocities) {
      data.kinematics.vJ[j] =
          jt.subspace_times(q, x.r.segment(model.r_index(j), model.joint_nv(j)));
      jt.motion_to_child(data.kinematics.H_parent[j], data.kinematics.v[model.parent(j)],
                         data.kinematics.v[j]);
      data.kinematics.v[j] += data.kinematics.vJ[j];
    }
  });
}

/// Converts, in place, a 6×k block of inertial twists ^A v to representation `rep` for the
/// frame with pose H_F = ^A H_F.
template <class S, class Derived>
void inertial_twists_to(const SE3<S>& H_F, TwistRepresentation rep,
                        const Eigen::MatrixBase<Derived>& cols_) {
  auto& cols = const_cast<Eigen::MatrixBase<Derived>&>(cols_);
  switch (rep) {
    case TwistRepresentation::Inertial: return;
    case TwistRepresentation::Body: H_F.act_inverse_motions(cols, cols); return;
    case TwistRepresentation::Mixed: {
      // ^{F[A]}X_A = [I, −o^; 0, I]: the linear part becomes the velocity of F's origin.
      const Vector3<S>& o = H_F.translation();
      for (Eigen::Index k = 0; k < cols.cols(); ++k) {
        const Vector3<S> w = cols.col(k).template tail<3>();
        cols.col(k).template head<3>() -= o.cross(w);
      }
      return;
    }
  }
}

/// What frame_motion_in converts: a twist, or an acceleration (which takes the mixed
/// representation's [R (ω × v_lin); 0] term).
enum class FrameMotion { Twist, Acceleration };

/// A frame twist or apparent acceleration m_F (as `kind` says) in `rep`, from the body-frame
/// twist v_F = ^F v_{A,F} and m_F, the body-frame twist or acceleration a_F = d/dt ^F v_{A,F}.
template <class S>
Vector6<S> frame_motion_in(const SE3<S>& H_F, const Motion<S>& v_F, const Motion<S>& m_F,
                           TwistRepresentation rep, FrameMotion kind) {
  const bool is_acceleration = kind == FrameMotion::Acceleration;
  switch (rep) {
    case TwistRepresentation::Body: return m_F.vector();
    case TwistRepresentation::Inertial: return H_F.act(m_F).vector();
    case TwistRepresentation::Mixed: {
      const Matrix3<S>& R = H_F.rotation();
      Vector3<S> lin = m_F.linear();
      if (is_acceleration) lin += v_F.angular().cross(v_F.linear());
      Vector6<S> out;
      out << R * lin, R * m_F.angular();
      return out;
    }
  }
  return m_F.vector();
}

}  // namespace detail

// ------------------------------------------------------------------------------------------
// Forward kinematics
// ------------------------------------------------------------------------------------------

/// Poses only: data.kinematics.H_parent[i] = ^{λ(i)}H_i(s_i) (i ≥ 1; H_parent[0] is left as is) and
/// data.kinematics.H_world[i] = ^A H_i, with ^A H_0 = base_pose(model, x). O(n).
template <class S>
void forward_poses(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("forward_poses", model, x);
  detail::check_data_pairing("forward_poses", model, data);
  data.kinematics.H_world[0] = base_pose(model, x);
  detail::update_joint_transforms(model, data, x.s);
  for (int i = 1; i < model.num_bodies(); ++i)
    model.joint(i).child_pose(data.kinematics.H_world[model.parent(i)], data.kinematics.H_parent[i],
                              data.kinematics.H_world[i]);
}

/// Body twists, given data.kinematics.H_parent from forward_poses at the same x:
/// data.kinematics.vJ[i] = Γ_i r_i and data.kinematics.v[i] = ^i v_{A,i} = ^iX_{λ(i)} v_{λ(i)} +
/// Γ_i r_i (body frame), with v[0] = ν (zero for a welded base). O(n).
template <class S>
void forward_velocity(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("forward_velocity", model, x);
  detail::check_data_pairing("forward_velocity", model, data);
  data.kinematics.v[0] = model.base_joint().twist(x);
  data.kinematics.vJ[0] = Motion<S>();
  for (int i = 1; i < model.num_bodies(); ++i) {
    const Joint<S>& j = model.joint(i);
    data.kinematics.vJ[i] = j.subspace_times(x.s.segment(model.q_index(i), model.joint_nq(i)),
                                             x.r.segment(model.r_index(i), model.joint_nv(i)));
    j.motion_to_child(data.kinematics.H_parent[i], data.kinematics.v[model.parent(i)],
                      data.kinematics.v[i]);
    data.kinematics.v[i] += data.kinematics.vJ[i];
  }
}

/// Forward kinematics of positions and velocities: forward_poses then forward_velocity
/// (fills H_parent, H_world, vJ, v for every body).
template <class S>
void forward_kinematics(const Model<S>& model, Data<S>& data, const State<S>& x) {
  forward_poses(model, data, x);
  forward_velocity(model, data, x);
}

// ------------------------------------------------------------------------------------------
// Frame poses
// ------------------------------------------------------------------------------------------

/// ^A H_F of the frame attached to `body` at ^{body}H_F = placement, from data.kinematics.H_world
/// (after forward_poses / forward_kinematics).
template <class S>
SE3<S> frame_pose(const Model<S>& model, const Data<S>& data, int body, const SE3<S>& placement) {
  detail::check_data_pairing("frame_pose", model, data);
  detail::check_body_index(model, body, "frame_pose");
  return data.kinematics.H_world[body] * placement;
}

/// ^A H_F of model frame `frame_id` (after forward_poses / forward_kinematics).
template <class S>
SE3<S> frame_pose(const Model<S>& model, const Data<S>& data, int frame_id) {
  detail::check_data_pairing("frame_pose", model, data);
  detail::check_frame_index(model, frame_id, "frame_pose");
  const Frame<S>& f = model.frame(frame_id);
  return data.kinematics.H_world[f.body] * f.placement;
}

/// ^A H_F of the model frame named `frame` (after forward_poses); throws InvalidArgument naming
/// it if the model has no such frame.
template <class S>
SE3<S> frame_pose(const Model<S>& model, const Data<S>& data, const std::string& frame) {
  return frame_pose(model, data, model.require_frame_id(frame, "frame_pose"));
}

// ------------------------------------------------------------------------------------------
// Frame Jacobians
// ------------------------------------------------------------------------------------------

/// Jacobian of the frame attached to `body` at ^{body}H_F = placement, at state x:
/// v_F^rep = J [ν; r] (see the header for the three representations). J is 6 × model.nv():
/// a plain matrix is resized if needed (the only case that allocates); an expression (block,
/// Ref, Map) must have that size. Only the columns of the base (0..5, moving base) and of the
/// joints on the path base → body are non-zero; the others are set to zero.
/// Columns, inertial representation: base ^A X_0 (6 columns), joint j on the path ^A X_j Γ_j;
/// the other representations are these columns left-multiplied by ^F X_A (Body) or
/// ^{F[A]} X_A = [I, −o_F^; 0, I] (Mixed).
/// Recomputes the poses of the support chain into data (H_parent, H_world), O(depth); the
/// output costs O(6 nv) to clear plus O(depth) columns.
template <class S, class Derived>
void frame_jacobian(const Model<S>& model, Data<S>& data, const State<S>& x, int body,
                    const SE3<S>& placement, TwistRepresentation rep,
                    const Eigen::MatrixBase<Derived>& J_) {
  auto& J = const_cast<Eigen::MatrixBase<Derived>&>(J_);
  detail::check_body_index(model, body, "frame_jacobian");
  const int nv = model.nv();
  detail::check_state("frame_jacobian", model, x);
  detail::check_data_pairing("frame_jacobian", model, data);
  // A plain matrix is resized; an expression keeps its size (resize only asserts), so check first.
  if (J.rows() != 6 || J.cols() != nv) {
    if (std::is_same<typename Derived::PlainObject, Derived>::value) J.derived().resize(6, nv);
    LIEDYN_CHECK_DIMS("frame_jacobian", "J", J, 6, nv);
  }
  J.setZero();
  detail::support_chain_kinematics(model, data, x, body, detail::ChainQuantities::Poses);
  const SE3<S> H_F = data.kinematics.H_world[body] * placement;
  detail::for_each_support_body(model, body, [&](int j) {
    if (j == 0) {  // ^A X_0 Γ_0: none for a welded base
      const BaseJoint<S>& base = model.base_joint();
      base.add_inertial_columns(data.kinematics.H_world[0], S(1), J);
      detail::inertial_twists_to(H_F, rep, J.leftCols(base.nv()));
      return;
    }
    const int c = model.v_index(j), n = model.joint_nv(j);
    model.joint(j).subspace_in(data.kinematics.H_world[j],
                               x.s.segment(model.q_index(j), model.joint_nq(j)),
                               J.middleCols(c, n));
    detail::inertial_twists_to(H_F, rep, J.middleCols(c, n));
  });
}

/// Jacobian of model frame `frame_id` (see the body/placement overload).
template <class S, class Derived>
void frame_jacobian(const Model<S>& model, Data<S>& data, const State<S>& x, int frame_id,
                    TwistRepresentation rep, const Eigen::MatrixBase<Derived>& J) {
  detail::check_frame_index(model, frame_id, "frame_jacobian");
  const Frame<S>& f = model.frame(frame_id);
  frame_jacobian(model, data, x, f.body, f.placement, rep, J);
}

/// Jacobian of the model frame named `frame`; throws InvalidArgument naming it if absent.
template <class S, class Derived>
void frame_jacobian(const Model<S>& model, Data<S>& data, const State<S>& x,
                    const std::string& frame, TwistRepresentation rep,
                    const Eigen::MatrixBase<Derived>& J) {
  frame_jacobian(model, data, x, model.require_frame_id(frame, "frame_jacobian"), rep, J);
}

/// Jacobian of body `body`'s own frame (placement identity); the same as frame_jacobian with the
/// body's frame id, which equals the body id for models from ModelBuilder.
template <class S, class Derived>
void body_jacobian(const Model<S>& model, Data<S>& data, const State<S>& x, int body,
                   TwistRepresentation rep, const Eigen::MatrixBase<Derived>& J) {
  frame_jacobian(model, data, x, body, SE3<S>(), rep, J);
}

// ------------------------------------------------------------------------------------------
// Frame twist and acceleration bias
// ------------------------------------------------------------------------------------------

/// The twist of the frame attached to `body` at `placement`, in representation `rep`
/// (= J q̇ of frame_jacobian, computed in O(depth)). Recomputes the support chain's H_parent,
/// H_world, vJ, v into data.
template <class S>
Vector6<S> frame_velocity(const Model<S>& model, Data<S>& data, const State<S>& x, int body,
                          const SE3<S>& placement, TwistRepresentation rep) {
  detail::check_state("frame_velocity", model, x);
  detail::check_data_pairing("frame_velocity", model, data);
  detail::check_body_index(model, body, "frame_velocity");
  detail::support_chain_kinematics(model, data, x, body, detail::ChainQuantities::PosesAndTwists);
  const Motion<S> v_F = placement.act_inverse(data.kinematics.v[body]);
  return detail::frame_motion_in(data.kinematics.H_world[body] * placement, v_F, v_F, rep,
                                 detail::FrameMotion::Twist);
}

/// The twist of model frame `frame_id` in representation `rep`.
template <class S>
Vector6<S> frame_velocity(const Model<S>& model, Data<S>& data, const State<S>& x, int frame_id,
                          TwistRepresentation rep) {
  detail::check_frame_index(model, frame_id, "frame_velocity");
  const Frame<S>& f = model.frame(frame_id);
  return frame_velocity(model, data, x, f.body, f.placement, rep);
}

/// The twist of the model frame named `frame` (InvalidArgument naming it if absent).
template <class S>
Vector6<S> frame_velocity(const Model<S>& model, Data<S>& data, const State<S>& x,
                          const std::string& frame, TwistRepresentation rep) {
  return frame_velocity(model, data, x, model.require_frame_id(frame, "frame_velocity"), rep);
}

/// J̇ q̇ for the frame attached to `body` at `placement`, in representation `rep`: the time
/// derivative of the frame twist v_F^rep = J(x) q̇ along the motion through x with q̈ = 0
/// (ν̇ = 0, ṙ = 0), so that for any motion d/dt v_F^rep = J q̈ + J̇ q̇. Computed in the body
/// frame by the recursion a_0 = 0, a_i = ^iX_{λ(i)} a_{λ(i)} + v_i × (Γ_i r_i) + c_J,i along the
/// support chain (c_J the joint's bias, zero but for a universal joint), then a_F = ^F X_b a_b and
/// converted: Body a_F; Inertial ^A X_F a_F; Mixed [R_F (a_lin + ω_F × v_lin); R_F a_ang] with ^F v
/// = [v_lin; ω_F] (see the header). Recomputes the support chain's H_parent, H_world, vJ, v into
/// data. O(depth).
template <class S>
Vector6<S> frame_acceleration_bias(const Model<S>& model, Data<S>& data, const State<S>& x,
                                   int body, const SE3<S>& placement, TwistRepresentation rep) {
  detail::check_state("frame_acceleration_bias", model, x);
  detail::check_data_pairing("frame_acceleration_bias", model, data);
  detail::check_body_index(model, body, "frame_acceleration_bias");
  Motion<S> a;  // running ^j a (bias part) along the chain; a_0 = ν̇ = 0
  detail::for_each_support_body(model, body, [&](int j) {
    if (j == 0) {
      data.kinematics.H_world[0] = base_pose(model, x);
      data.kinematics.v[0] = model.base_joint().twist(x);
      data.kinematics.vJ[0] = Motion<S>();
      return;
    }
    const Joint<S>& jt = model.joint(j);
    const int p = model.parent(j);
    const auto q = x.s.segment(model.q_index(j), model.joint_nq(j));
    const auto v = x.r.segment(model.r_index(j), model.joint_nv(j));
    data.kinematics.H_parent[j] = jt.transform(q);
    jt.child_pose(data.kinematics.H_world[p], data.kinematics.H_parent[j],
                  data.kinematics.H_world[j]);
    data.kinematics.vJ[j] = jt.subspace_times(q, v);
    jt.motion_to_child(data.kinematics.H_parent[j], data.kinematics.v[p], data.kinematics.v[j]);
    data.kinematics.v[j] += data.kinematics.vJ[j];
    jt.motion_to_child(data.kinematics.H_parent[j], a, a);
    a += data.kinematics.v[j].cross(data.kinematics.vJ[j]);
    jt.add_bias(q, v, a);
  });
  const Motion<S> v_F = placement.act_inverse(data.kinematics.v[body]);
  const Motion<S> a_F = placement.act_inverse(a);
  return detail::frame_motion_in(data.kinematics.H_world[body] * placement, v_F, a_F, rep,
                                 detail::FrameMotion::Acceleration);
}

/// J̇ q̇ of model frame `frame_id` in representation `rep` (see the body/placement overload).
template <class S>
Vector6<S> frame_acceleration_bias(const Model<S>& model, Data<S>& data, const State<S>& x,
                                   int frame_id, TwistRepresentation rep) {
  detail::check_frame_index(model, frame_id, "frame_acceleration_bias");
  const Frame<S>& f = model.frame(frame_id);
  return frame_acceleration_bias(model, data, x, f.body, f.placement, rep);
}

/// J̇ q̇ of the model frame named `frame` (InvalidArgument naming it if absent).
template <class S>
Vector6<S> frame_acceleration_bias(const Model<S>& model, Data<S>& data, const State<S>& x,
                                   const std::string& frame, TwistRepresentation rep) {
  return frame_acceleration_bias(model, data, x,
                                 model.require_frame_id(frame, "frame_acceleration_bias"), rep);
}

}  // namespace liedyn
