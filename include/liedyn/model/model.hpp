// liedyn — model: the kinematic tree of a moving-base robot.
//
// Bodies 0..n, body 0 the base; every body i ≥ 1 has one parent λ(i) < i and is attached by
// joint i (of any type of joint.hpp). Bodies are numbered depth-first (children in the
// order they were added), so the order is regular (parents before children) and every subtree
// is a contiguous index range [i, subtree_end(i)).
//
// The base is either moving (6 DoF: a floating humanoid, or an arm on a ship whose base motion
// is prescribed) or welded to the inertial frame. Velocity/force vectors and matrices are
// ordered BASE FIRST (docs/conventions.md §2): index 0..5 the base (moving base only), then the
// joints' coordinates in body order, joint i's from v_index(i) = offset() + r_index(i), where
// offset() is 6 for a moving base and 0 for a welded one.
//
// A Model is immutable once built (by ModelBuilder or a loader) and can be shared between
// threads; per-call scratch lives in Data (data.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "liedyn/config.hpp"
#include "liedyn/model/base_joint.hpp"
#include "liedyn/model/joint.hpp"

namespace liedyn {

/// Thrown for a malformed model (builder, loaders) and for requests a model can't satisfy
/// (e.g. forward dynamics with a singular mass matrix). The message names the body or joint.
class ModelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A named frame rigidly attached to a body: ^{body}H_{frame} = placement.
template <class S>
struct Frame {
  std::string name;
  int body = 0;
  SE3<S> placement;
  /// The same frame in scalar type T.
  template <class T>
  Frame<T> cast() const {
    return Frame<T>{name, body, placement.template cast<T>()};
  }
};

/// q_joint = multiplier · q_leader + offset (URDF <mimic>). Recorded, not enforced: the joint
/// stays an independent degree of freedom, as in Pinocchio.
struct MimicRelation {
  int joint = 0;   ///< the mimicking joint (body index)
  int leader = 0;  ///< the joint it follows (body index)
  double multiplier = 1.0;
  double offset = 0.0;
};

/// What a loader or the builder does with a link inertia that a real rigid body cannot have
/// or is unlikely to have (docs/loading.md). Errors at every level: negative, zero-with-inertia
/// or non-finite mass, NaN or infinity, an asymmetric rotational inertia, an eigenvalue clearly
/// below zero (beyond the round-off of the transform).
/// * strict: refuse principal moments that violate the triangle inequality (naming the link and,
///   for a file, its line).
/// * lenient: keep every inertia as written; each deviation becomes a ModelDiagnostic.
/// * balance: add the smallest isotropic inertia δ·1 (about the centre of mass) that makes the
///   principal moments meet the triangle inequality; each change is a ModelDiagnostic.
enum class InertiaPolicy { strict, lenient, balance };

/// "strict", "lenient" or "balance".
inline const char* to_string(InertiaPolicy p) {
  switch (p) {
    case InertiaPolicy::strict: return "strict";
    case InertiaPolicy::lenient: return "lenient";
    case InertiaPolicy::balance: return "balance";
  }
  return "?";
}

/// The kinds of ModelDiagnostic.
enum class DiagnosticKind {
  /// Principal moments λ1 ≤ λ2 ≤ λ3 with λ1 + λ2 < λ3 (loaded as written under lenient).
  /// magnitude: λ3 − λ1 − λ2 in kg·m².
  triangle_inequality,
  /// A rotational inertia smaller than any rigid body of that mass can have: its trace is below
  /// that of a ball of the densest element (osmium, 22 590 kg/m³), 6/5 m R². Typically a
  /// placeholder (every diagonal entry 1e-6). magnitude: the ratio trace(I_c) / (6/5 m R²) < 1.
  placeholder_inertia,
  /// A movable joint whose whole subtree has no mass. magnitude: 0.
  massless_subtree,
  /// balance changed the inertia: δ·1 added about the centre of mass. magnitude: δ in kg·m².
  balanced_inertia,
  /// lock_joints welded this joint (link: the joint's child body). magnitude: the position.
  locked_joint,
  /// A loader skipped an element it cannot represent (MjcfOptions::unsupported = skip), or one
  /// that is not part of the model (a moving-base model's world-fixed bodies). magnitude: 0.
  ignored_element,
};

/// "triangle_inequality", "placeholder_inertia", "massless_subtree", "balanced_inertia",
/// "locked_joint" or "ignored_element".
inline const char* to_string(DiagnosticKind k) {
  switch (k) {
    case DiagnosticKind::triangle_inequality: return "triangle_inequality";
    case DiagnosticKind::placeholder_inertia: return "placeholder_inertia";
    case DiagnosticKind::massless_subtree: return "massless_subtree";
    case DiagnosticKind::balanced_inertia: return "balanced_inertia";
    case DiagnosticKind::locked_joint: return "locked_joint";
    case DiagnosticKind::ignored_element: return "ignored_element";
  }
  return "?";
}

/// A deviation a loader or the builder accepted (or repaired under InertiaPolicy::balance):
/// which link, what, by how much. Frame-free: magnitudes are scalars (see DiagnosticKind).
struct ModelDiagnostic {
  std::string link;  ///< the link (body or merged fixed body) concerned
  DiagnosticKind kind = DiagnosticKind::triangle_inequality;
  std::string message;     ///< a sentence naming the link and the numbers
  double magnitude = 0.0;  ///< see DiagnosticKind
};

template <class S>
class ModelBuilder;

namespace detail {
/// A process-wide counter: every Model object built from scratch (builder, loader, cast) takes
/// the next value as its identity, which a Data records so that kernels refuse a Data sized for
/// another model.
inline std::uint64_t next_model_id() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}
}  // namespace detail

/// The kinematic tree of a moving-base (or welded-base) robot: bodies 0..n, body 0 the base,
/// regular numbering λ(i) < i, base-first generalized order. Immutable once built (by
/// ModelBuilder or a loader).
template <class S>
class Model {
 public:
  using Scalar = S;

  /// Number of joints n (bodies are 0..n).
  int num_joints() const { return static_cast<int>(parent_.size()) - 1; }
  /// Number of bodies n + 1, the base included.
  int num_bodies() const { return static_cast<int>(parent_.size()); }
  /// Whether the base is moving (6 DoF) or welded to the inertial frame.
  BaseType base_type() const { return base_.type(); }
  /// True for a moving base: velocity-sized vectors then start with its 6 coordinates.
  bool has_moving_base() const { return base_.moving(); }
  /// The base as the tree's root joint (free or fixed), which the kernels ask for the base's
  /// pose, twist, acceleration and wrench (base_joint.hpp).
  const BaseJoint<S>& base_joint() const { return base_; }
  /// Index of joint 1 in velocity-sized vectors: 6 for a moving base, 0 when welded.
  int offset() const { return base_.nv(); }
  /// Size of velocity-like vectors ν̄ = [ν; r]: 6 + nv_joints() (moving) or nv_joints() (welded).
  int nv() const { return offset() + nv_joints(); }

  // Where each joint's coordinates lie. Joint i (body index ≥ 1) owns joint_nq(i) consecutive
  // entries of the configuration s, from q_index(i), and joint_nv(i) consecutive entries of its
  // velocity r and of the tangent δs, from r_index(i); in velocity-sized vectors ν̄ = [ν; r] they
  // start at v_index(i). Joints are laid out in body order, so a subtree's coordinates are one
  // contiguous range: [r_index(i), r_index(subtree_end(i))). Body 0 (the base) owns no joint
  // coordinates, and index num_bodies() is the end of the last joint's range.

  /// Size of s: the joints' configuration coordinates.
  int nq_joints() const { return q_index_.back(); }
  /// Size of r and of the tangent δs: the joints' velocity coordinates.
  int nv_joints() const { return r_index_.back(); }
  /// First entry of joint i in s (0 ≤ i ≤ num_bodies(); see above).
  int q_index(int i) const { return q_index_[i]; }
  /// First entry of joint i in r and δs (0 ≤ i ≤ num_bodies(); see above).
  int r_index(int i) const { return r_index_[i]; }
  /// First entry of joint i in velocity-sized vectors ν̄ = [ν; r]: offset() + r_index(i).
  int v_index(int i) const { return offset() + r_index_[i]; }
  /// Number of configuration coordinates of joint i (0 for the base, i = 0).
  int joint_nq(int i) const { return q_index_[i + 1] - q_index_[i]; }
  /// Number of velocity coordinates of joint i (0 for the base, i = 0).
  int joint_nv(int i) const { return r_index_[i + 1] - r_index_[i]; }
  /// True when every joint is a 1-DoF screw (revolute, prismatic, helical): nq = nv = 1 each.
  bool one_dof_joints_only() const {
    return nq_joints() == num_bodies() - 1 && nv_joints() == num_bodies() - 1;
  }

  /// The parent λ(i) < i of body i; −1 for the base (i = 0).
  int parent(int i) const { return parent_[i]; }
  /// λ(i) for every body i (entry 0, the base, is −1).
  const std::vector<int>& parents() const { return parent_; }
  /// One past the last body of i's subtree: subtree(i) = [i, subtree_end(i)).
  int subtree_end(int i) const { return subtree_end_[i]; }
  /// Number of joints between body i and the base.
  int depth(int i) const { return depth_[i]; }
  /// The largest depth(i) over all bodies (0 for a base alone).
  int max_depth() const { return max_depth_; }
  /// Σ_i depth(i): the steps of a walk from every body to the base (crba picks its route by it).
  int total_depth() const { return total_depth_; }
  /// The tree of the velocity coordinates (nv of them): the parent of coordinate d, −1 at the
  /// root. A moving base's six coordinates form the chain 0 ← 1 ← … ← 5 and joint i's coordinate
  /// hangs from its parent body's last one, so the mass matrix is nonzero only between a
  /// coordinate and its ancestors (ltdl.hpp factors it without fill-in).
  int dof_parent(int d) const { return dof_parent_[d]; }
  /// One past the last coordinate of d's subtree in that tree (a contiguous range, like bodies).
  int dof_subtree_end(int d) const { return dof_subtree_end_[d]; }
  /// The bodies whose parent is i, in increasing index order.
  const std::vector<int>& children(int i) const { return children_[i]; }

  /// Joint i, attaching body i to λ(i) (i ≥ 1; joint(0) is an unused placeholder).
  const Joint<S>& joint(int i) const { return joints_[i]; }
  /// The spatial inertia of body i in its own frame (fixed bodies merged in).
  const SpatialInertia<S>& inertia(int i) const { return inertia_[i]; }
  /// The name of body i (0: the base).
  const std::string& body_name(int i) const { return body_names_[i]; }
  /// The name of joint i (i ≥ 1; empty for i = 0).
  const std::string& joint_name(int i) const { return joints_[i].name; }
  /// Physical gravity g in the inertial frame, e.g. (0, 0, −9.81). The kernels use it as the
  /// fictitious base acceleration −[g; 0] (docs/conventions.md §2).
  const Vector3<S>& gravity() const { return gravity_; }
  /// The welded base's fixed pose ^A H_0 (identity unless set); unused for a moving base, whose
  /// pose is part of the state.
  const SE3<S>& welded_base_pose() const { return base_.welded_pose(); }

  /// Every named frame: one per body (identity placement, in body order), then the merged
  /// fixed bodies, then the frames added with ModelBuilder::add_frame.
  const std::vector<Frame<S>>& frames() const { return frames_; }
  /// Frame f, an index into frames().
  const Frame<S>& frame(int f) const { return frames_[f]; }
  /// The mimic relations recorded by the builder or URDF loader (not enforced).
  const std::vector<MimicRelation>& mimic_relations() const { return mimic_; }
  /// Joints whose moving subtree has no inertia along their axis (and no armature): the mass
  /// matrix is singular while they are present. Kinematics and inverse dynamics still work;
  /// forward dynamics, the inverse mass matrix and the linearization refuse.
  const std::vector<int>& singular_joints() const { return singular_joints_; }
  /// Throws ModelError naming the singular joints, if any.
  void require_invertible_mass_matrix(const char* who) const {
    if (singular_joints_.empty()) return;
    std::string names;
    for (int j : singular_joints_)  // index 0: the moving base, whose joint has no name
      names += (names.empty() ? "" : ", ") +
               (j == 0 ? std::string("the floating base") : "'" + joints_[j].name + "'");
    throw ModelError(std::string(who) +
                     ": the mass matrix is singular because these joints move no inertia " +
                     "along their motion: " + names + " (add armature or inertia to them)");
  }

  /// The model's identity: fresh for every model built (builder, loader, cast, lock_joints),
  /// kept by copies (which are the same model). Data::resize records it; every kernel checks it.
  std::uint64_t id() const { return id_; }

  /// body_id(name), throwing InvalidArgument "liedyn: <who>: no body named '<name>'" when absent.
  int require_body_id(const std::string& name, const char* who) const {
    const int i = body_id(name);
    if (i < 0) detail::throw_invalid_argument(std::string(who) + ": no body named '" + name + "'");
    return i;
  }
  /// joint_id(name), throwing InvalidArgument "liedyn: <who>: no joint named '<name>'" when absent.
  int require_joint_id(const std::string& name, const char* who) const {
    const int i = joint_id(name);
    if (i < 0) detail::throw_invalid_argument(std::string(who) + ": no joint named '" + name + "'");
    return i;
  }
  /// frame_id(name), throwing InvalidArgument "liedyn: <who>: no frame named '<name>'" when absent.
  int require_frame_id(const std::string& name, const char* who) const {
    const int f = frame_id(name);
    if (f < 0) detail::throw_invalid_argument(std::string(who) + ": no frame named '" + name + "'");
    return f;
  }

  /// What the loader or builder accepted or changed (inertias, massless subtrees, locked joints),
  /// in the order found. Empty for a model whose every link is a plausible rigid body.
  const std::vector<ModelDiagnostic>& diagnostics() const { return diagnostics_; }

  /// Total mass of the robot.
  S total_mass() const {
    S m(0);
    for (const auto& I : inertia_) m += I.mass();
    return m;
  }

  /// Index lookups by name; −1 when absent.
  int body_id(const std::string& name) const { return find(body_names_, name); }
  /// Body index i (≥ 1) of the joint named `name`; −1 when absent.
  int joint_id(const std::string& name) const {
    for (int i = 1; i < num_bodies(); ++i)
      if (joints_[i].name == name) return i;
    return -1;
  }
  /// Index into frames() of the first frame named `name`; −1 when absent.
  int frame_id(const std::string& name) const {
    for (int f = 0; f < static_cast<int>(frames_.size()); ++f)
      if (frames_[f].name == name) return f;
    return -1;
  }

  /// The same model in another scalar type (e.g. long double or an autodiff scalar).
  template <class T>
  Model<T> cast() const {
    Model<T> m;
    m.base_ = base_.template cast<T>();
    m.parent_ = parent_;
    m.subtree_end_ = subtree_end_;
    m.depth_ = depth_;
    m.max_depth_ = max_depth_;
    m.total_depth_ = total_depth_;
    m.q_index_ = q_index_;
    m.r_index_ = r_index_;
    m.dof_parent_ = dof_parent_;
    m.dof_subtree_end_ = dof_subtree_end_;
    m.children_ = children_;
    m.body_names_ = body_names_;
    m.mimic_ = mimic_;
    m.singular_joints_ = singular_joints_;
    m.diagnostics_ = diagnostics_;
    m.gravity_ = gravity_.template cast<T>();
    m.joints_.clear();
    m.inertia_.clear();
    m.frames_.clear();
    for (const auto& j : joints_) m.joints_.push_back(j.template cast<T>());
    for (const auto& I : inertia_) m.inertia_.push_back(I.template cast<T>());
    for (const auto& f : frames_) m.frames_.push_back(f.template cast<T>());
    return m;
  }

 private:
  template <class>
  friend class Model;
  friend class ModelBuilder<S>;

  static int find(const std::vector<std::string>& v, const std::string& name) {
    for (int i = 0; i < static_cast<int>(v.size()); ++i)
      if (v[i] == name) return i;
    return -1;
  }

  BaseJoint<S> base_;  // the root joint: its kind and a welded base's pose
  std::vector<int> parent_{-1};
  std::vector<int> subtree_end_{1};
  std::vector<int> depth_{0};
  int max_depth_ = 0;
  int total_depth_ = 0;
  std::vector<int> q_index_{0, 0};  // q_index_[i]: joint i's first entry in s; back(): size of s
  std::vector<int> r_index_{0, 0};  // r_index_[i]: joint i's first entry in r; back(): size of r
  std::vector<int> dof_parent_ = {-1, 0, 1, 2, 3, 4};
  std::vector<int> dof_subtree_end_ = {6, 6, 6, 6, 6, 6};
  std::vector<std::vector<int>> children_{{}};
  std::vector<Joint<S>> joints_{Joint<S>{}};  // joints_[0] unused (the base has no joint)
  std::vector<SpatialInertia<S>> inertia_{SpatialInertia<S>{}};
  std::vector<std::string> body_names_{"base"};
  std::vector<Frame<S>> frames_;
  std::vector<MimicRelation> mimic_;
  std::vector<int> singular_joints_;
  std::vector<ModelDiagnostic> diagnostics_;
  Vector3<S> gravity_ = Vector3<S>(S(0), S(0), S(-9.81));
  std::uint64_t id_ = detail::next_model_id();
};

namespace detail {
/// Refuses a model with a multi-DoF joint (spherical, free, planar, universal) in a function
/// that maps one coordinate per joint and so takes 1-DoF joints only (iDynTree's state
/// converters; docs/design/joint-types.md §5 lists every such function). Always on, release
/// builds included: such a function would return a wrong answer.
template <class S>
void require_one_dof_joints(const char* who, const Model<S>& model) {
  if (model.one_dof_joints_only()) return;
  for (int i = 1; i < model.num_bodies(); ++i)
    if (model.joint_nv(i) != 1 || model.joint_nq(i) != 1)
      throw_invalid_argument(std::string(who) + ": joint '" + model.joint(i).name + "' is " +
                             to_string(model.joint(i).type) +
                             "; this function takes 1-DoF joints only "
                             "(docs/design/joint-types.md §5)");
}

}  // namespace detail

}  // namespace liedyn
