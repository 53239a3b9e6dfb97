// liedyn — model: building and validating a Model from C++.
//
// Bodies may be added in any order, by parent name or by id (ids are the builder's: the base is
// 0, then one per added body in the order of the calls). Each call validates what it can at
// once (names, axis, inertia, finiteness) and throws ModelError naming the body or joint and
// the rule; build() resolves parents, rejects unknown parents and cycles, merges fixed joints
// into their moving parent (inertias combined exactly, the merged body kept as a frame) and
// numbers the bodies depth-first (see model.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "liedyn/arithmetic/cholesky6.hpp"
#include "liedyn/model/model.hpp"

namespace liedyn {

/// A movable joint as the builder takes it. Axis (and a universal joint's second axis): any
/// non-zero vector in the joint frame (it is normalized). Placement: ^{parent}H_{joint frame} at
/// the joint's neutral configuration. Limits bound each angle or length coordinate (a screw's,
/// a universal joint's two angles, a free joint's position, a planar joint's x and y); a
/// spherical joint has none. Armature: the same rotor inertia on each velocity coordinate.
template <class S>
struct JointSpec {
  std::string name;
  JointType type = JointType::Revolute;
  Vector3<S> axis = Vector3<S>::UnitZ();
  Vector3<S> axis2 = Vector3<S>::UnitY();  ///< a universal joint's second axis a2
  S pitch = S(0);
  SE3<S> placement;
  S armature = S(0);
  S lower = -std::numeric_limits<S>::infinity();
  S upper = std::numeric_limits<S>::infinity();
  S velocity_limit = std::numeric_limits<S>::infinity();
  S effort_limit = std::numeric_limits<S>::infinity();

  /// A revolute joint about `axis` (Γ = [0; e], e = axis normalized by add_body), placed at
  /// ^{parent}H_{joint frame} = placement.
  static JointSpec revolute(std::string name, const Vector3<S>& axis,
                            const SE3<S>& placement = SE3<S>()) {
    return make(std::move(name), JointType::Revolute, axis, S(0), placement);
  }
  /// A prismatic joint along `axis` (Γ = [e; 0], e = axis normalized), placed at `placement`.
  static JointSpec prismatic(std::string name, const Vector3<S>& axis,
                             const SE3<S>& placement = SE3<S>()) {
    return make(std::move(name), JointType::Prismatic, axis, S(0), placement);
  }
  /// A helical joint about `axis` with `pitch` in metres per radian (Γ = [p e; e]), placed at
  /// `placement`.
  static JointSpec helical(std::string name, const Vector3<S>& axis, const S& pitch,
                           const SE3<S>& placement = SE3<S>()) {
    return make(std::move(name), JointType::Helical, axis, pitch, placement);
  }
  /// A spherical joint (SO(3), quaternion coordinates), centred at the joint frame's origin.
  static JointSpec spherical(std::string name, const SE3<S>& placement = SE3<S>()) {
    return make(std::move(name), JointType::Spherical, Vector3<S>::UnitZ(), S(0), placement);
  }
  /// A free joint (SE(3): position and quaternion of the child in the joint frame), e.g. an
  /// object a robot holds, or a second free body in the same tree.
  static JointSpec free(std::string name, const SE3<S>& placement = SE3<S>()) {
    return make(std::move(name), JointType::Free, Vector3<S>::UnitZ(), S(0), placement);
  }
  /// A planar joint (SE(2) in the joint frame's xy-plane: x, y and a turn about z); orient the
  /// plane with the placement.
  static JointSpec planar(std::string name, const SE3<S>& placement = SE3<S>()) {
    return make(std::move(name), JointType::Planar, Vector3<S>::UnitZ(), S(0), placement);
  }
  /// A universal joint: a turn about `axis1` (joint frame), then about `axis2` (the frame after
  /// the first turn); the axes intersect at the joint frame's origin and must not be parallel.
  static JointSpec universal(std::string name, const Vector3<S>& axis1, const Vector3<S>& axis2,
                             const SE3<S>& placement = SE3<S>()) {
    JointSpec j = make(std::move(name), JointType::Universal, axis1, S(0), placement);
    j.axis2 = axis2;
    return j;
  }
  /// Sets the position limits [lo, hi] (add_body rejects lo > hi); returns *this for chaining.
  JointSpec& with_limits(const S& lo, const S& hi) {
    lower = lo;
    upper = hi;
    return *this;
  }
  /// Sets the armature a ≥ 0 (reflected rotor inertia, added to M_ii); returns *this.
  JointSpec& with_armature(const S& a) {
    armature = a;
    return *this;
  }
  /// The spec that builds `joint` again (a model's joint, to rebuild the model with changes).
  static JointSpec of(const Joint<S>& joint) {
    JointSpec j;
    j.name = joint.name;
    j.type = joint.type;
    j.axis = joint.axis;
    j.axis2 = joint.axis2;
    j.pitch = joint.pitch;
    j.placement = joint.placement;
    j.armature = joint.armature;
    j.lower = joint.lower;
    j.upper = joint.upper;
    j.velocity_limit = joint.velocity_limit;
    j.effort_limit = joint.effort_limit;
    return j;
  }

 private:
  static JointSpec make(std::string name, JointType t, const Vector3<S>& axis, const S& pitch,
                        const SE3<S>& X) {
    JointSpec j;
    j.name = std::move(name);
    j.type = t;
    j.axis = axis;
    j.pitch = pitch;
    j.placement = X;
    return j;
  }
};

/// How strictly the builder checks inertias. Physical (the default): what a real rigid body can
/// have — m ≥ 0, I_c positive semi-definite, principal moments meeting the triangle
/// inequalities. PositiveDefinite: only what the dynamics need to be well posed (I_c symmetric
/// positive semi-definite); for synthetic test robots such as the paper's Figure-4 case, whose
/// random inertias violate the triangle inequalities.
enum class InertiaCheck { Physical, PositiveDefinite };

namespace detail {

/// The verdict on one rotational inertia I_c about the centre of mass, of mass m (see
/// InertiaPolicy): `error` non-empty for what no level accepts; otherwise the deviations, with
/// the principal moments λ1 ≤ λ2 ≤ λ3.
struct InertiaReview {
  std::string error;
  Vector3<double> moments = Vector3<double>::Zero();
  double triangle_excess = 0.0;    ///< λ3 − λ1 − λ2 when beyond round-off, else 0
  double placeholder_ratio = 1.0;  ///< trace(I_c) / (6/5 m R²) when below 1, else 1
};

/// Checks m and I_c as written about the centre of mass. `round_off_scale` is the size of what
/// the numbers went through (|I_c| + m|c|² when I_c was recovered from an inertia about another
/// point, |I_c| when read as written): the tolerances are 64 ε times it.
inline InertiaReview review_inertia(double m, const Matrix3<double>& Ic, double round_off_scale) {
  InertiaReview r;
  if (!std::isfinite(m) || !Ic.allFinite()) {
    r.error = "non-finite mass or inertia";
    return r;
  }
  if (m < 0.0) {
    r.error = "negative mass";
    return r;
  }
  const double scale = std::max(round_off_scale, Ic.cwiseAbs().maxCoeff());
  const double tol = 64.0 * std::numeric_limits<double>::epsilon() * (scale > 0.0 ? scale : 1.0);
  if (m == 0.0) {
    if (Ic.cwiseAbs().maxCoeff() > tol) r.error = "zero mass with a non-zero rotational inertia";
    return r;
  }
  if ((Ic - Ic.transpose()).cwiseAbs().maxCoeff() > tol) {
    r.error = "rotational inertia is not symmetric";
    return r;
  }
  const Eigen::SelfAdjointEigenSolver<Matrix3<double>> es(
      Matrix3<double>(0.5 * (Ic + Ic.transpose())), Eigen::EigenvaluesOnly);
  r.moments = es.eigenvalues();  // ascending
  if (r.moments(0) < -tol) {
    r.error = "rotational inertia is not positive semi-definite (smallest principal moment " +
              std::to_string(r.moments(0)) + " kg m^2)";
    return r;
  }
  const double excess = r.moments(2) - r.moments(0) - r.moments(1);
  if (excess > tol) r.triangle_excess = excess;
  // The smallest trace a rigid body of mass m can have: a ball of the densest element, osmium
  // (22 590 kg/m³), for which trace I_c = 2 ∫|r|² dm = 6/5 m R². An exactly zero I_c is a point
  // mass, a deliberate idealization, and is not reported.
  const double trace = Ic.trace();
  if (trace > tol) {
    const double kPi = 3.14159265358979323846;
    const double radius = std::cbrt(3.0 * m / (4.0 * kPi * 22590.0));
    const double least = 1.2 * m * radius * radius;
    if (trace < least) r.placeholder_ratio = trace / least;
  }
  return r;
}

/// A number for a diagnostic message (6 significant digits).
inline std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

/// The triangle-inequality sentence of a diagnostic or error ("principal moments (a, b, c)
/// violate ... by x kg m^2 (p % of c)").
inline std::string triangle_text(const InertiaReview& r) {
  return "principal moments (" + number_text(r.moments(0)) + ", " + number_text(r.moments(1)) +
         ", " + number_text(r.moments(2)) +
         ") kg m^2 violate the triangle inequality l1 + l2 >= l3 by " +
         number_text(r.triangle_excess) + " kg m^2 (" +
         number_text(100.0 * r.triangle_excess / r.moments(2)) + " % of l3)";
}

/// Applies `policy` to a reviewed inertia of link `link`: throws ModelError(prefix + why) for an
/// error or (strict, with InertiaCheck::Physical) a triangle violation; appends the diagnostics;
/// returns δ ≥ 0, the isotropic inertia balance adds about the centre of mass (0 otherwise).
inline double apply_inertia_policy(const InertiaReview& r, InertiaPolicy policy, InertiaCheck check,
                                   const std::string& link, const std::string& error_prefix,
                                   std::vector<ModelDiagnostic>& out) {
  if (!r.error.empty()) throw ModelError(error_prefix + r.error);
  double delta = 0.0;
  if (check == InertiaCheck::Physical && r.triangle_excess > 0.0) {
    if (policy == InertiaPolicy::strict)
      throw ModelError(error_prefix + triangle_text(r) +
                       " (inertia policy strict; lenient loads it as written, balance repairs it)");
    if (policy == InertiaPolicy::balance) {
      delta = r.triangle_excess;
      out.push_back(ModelDiagnostic{link, DiagnosticKind::balanced_inertia,
                                    "link '" + link + "': " + triangle_text(r) +
                                        "; balanced by adding " + number_text(delta) +
                                        " kg m^2 to each principal moment",
                                    delta});
    } else {
      out.push_back(ModelDiagnostic{
          link, DiagnosticKind::triangle_inequality,
          "link '" + link + "': " + triangle_text(r) + "; loaded as written", r.triangle_excess});
    }
  }
  if (r.placeholder_ratio < 1.0)
    out.push_back(ModelDiagnostic{link, DiagnosticKind::placeholder_inertia,
                                  "link '" + link + "': rotational inertia (trace " +
                                      number_text(r.moments.sum()) + " kg m^2) is " +
                                      number_text(r.placeholder_ratio) +
                                      " times the least a rigid body of its mass can have (an "
                                      "osmium ball); likely a placeholder",
                                  r.placeholder_ratio});
  return delta;
}

/// D⁻¹ for a symmetric k × k D (k ≤ 6, its lower triangle read) when every pivot of its
/// factorization D = Pᵀ L diag(d) Lᵀ P exceeds `tol`, else false. The factorization is Eigen's
/// LDLT (unblocked, the largest remaining diagonal entry as the next pivot), written out: Eigen's
/// on a Dynamic-size matrix instantiated its matrix triangular solves and GEMM kernels in every
/// translation unit that builds a model.
template <class S>
bool pivoted_ldlt_inverse(const JointTangentMap<S>& D, S tol, JointTangentMap<S>& Dinv) {
  using std::abs;
  const int k = int(D.rows());
  auto a = [&](int i, int j) { return i >= j ? D(i, j) : D(j, i); };
  int perm[6];
  S L[6][6], d[6];  // unit lower L (below the diagonal), pivots d, of the permuted D
  for (int i = 0; i < k; ++i) perm[i] = i;
  for (int j = 0; j < k; ++j) {
    int b = j;  // the first largest |diagonal entry| among the rows not yet factored
    for (int i = j + 1; i < k; ++i)
      if (abs(a(perm[i], perm[i])) > abs(a(perm[b], perm[b]))) b = i;
    if (b != j) {
      std::swap(perm[j], perm[b]);
      for (int m = 0; m < j; ++m) std::swap(L[j][m], L[b][m]);
    }
    S t[6];  // d_m L_jm, as Eigen forms it
    for (int m = 0; m < j; ++m) t[m] = d[m] * L[j][m];
    S dj = a(perm[j], perm[j]);
    for (int m = 0; m < j; ++m) dj -= L[j][m] * t[m];
    if (!(dj > tol)) return false;
    d[j] = dj;
    for (int i = j + 1; i < k; ++i) {
      S s = a(perm[i], perm[j]);
      for (int m = 0; m < j; ++m) s -= L[i][m] * t[m];
      L[i][j] = s / dj;
    }
  }
  // W = L⁻¹ (unit lower), then (P D Pᵀ)⁻¹ = Wᵀ diag(d)⁻¹ W, written back through P.
  S W[6][6];
  for (int j = 0; j < k; ++j) {
    W[j][j] = S(1);
    for (int i = j + 1; i < k; ++i) {
      S s = -L[i][j];
      for (int m = j + 1; m < i; ++m) s -= L[i][m] * W[m][j];
      W[i][j] = s;
    }
  }
  Dinv.resize(k, k);
  for (int j = 0; j < k; ++j)
    for (int i = j; i < k; ++i) {
      S s = S(0);
      for (int m = i; m < k; ++m) s += W[m][i] * W[m][j] / d[m];
      Dinv(perm[i], perm[j]) = s;
      Dinv(perm[j], perm[i]) = s;
    }
  return true;
}

}  // namespace detail

/// Builds and validates a Model: bodies, fixed bodies, frames and mimic relations in any
/// order (by parent name or builder id), then build().
template <class S>
class ModelBuilder {
 public:
  using BodyRef = std::variant<int, std::string>;

  /// Starts with the base body alone (moving or welded), named `base_name`, with `base_inertia`
  /// (massless by default). Throws ModelError on an empty name or invalid inertia.
  explicit ModelBuilder(BaseType base = BaseType::Moving, std::string base_name = "base",
                        const SpatialInertia<S>& base_inertia = SpatialInertia<S>())
      : base_type_(base) {
    check_name(base_name, "base body");
    Entry e;
    e.inertia = reviewed_inertia(base_name, base_inertia);
    e.name = std::move(base_name);
    push(std::move(e));
  }

  /// Replaces the base body's inertia (validated, then symmetrized). Throws ModelError if invalid.
  void set_base_inertia(const SpatialInertia<S>& I) {
    entries_[0].inertia = reviewed_inertia(entries_[0].name, I);
  }
  /// Must be called before adding bodies to take effect on them (each body is checked when added).
  /// PositiveDefinite accepts triangle-inequality violations silently (synthetic robots).
  void set_inertia_check(InertiaCheck check) { inertia_check_ = check; }
  /// What to do with inertias that violate the triangle inequality (InertiaPolicy; strict by
  /// default here, where inertias come from code; the loaders default to lenient). Must be called
  /// before adding bodies to take effect on them.
  void set_inertia_policy(InertiaPolicy policy) { inertia_policy_ = policy; }
  /// The policy set_inertia_policy chose.
  InertiaPolicy inertia_policy() const { return inertia_policy_; }
  /// Records a diagnostic found by a loader (which checks inertias as its file writes them); the
  /// built model lists it in Model::diagnostics(), before the builder's own.
  void add_diagnostic(ModelDiagnostic d) { loader_diagnostics_.push_back(std::move(d)); }
  /// Physical gravity g in the inertial frame (default (0, 0, −9.81)); must be finite.
  void set_gravity(const Vector3<S>& g) {
    if (!g.allFinite()) throw ModelError("liedyn: gravity must be finite");
    gravity_ = g;
  }
  /// ^A H_0 of a welded base (unused for a moving base); its rotation must be a rotation matrix.
  void set_welded_base_pose(const SE3<S>& H) {
    check_placement("base", H);
    welded_pose_ = H;
  }

  /// Adds body `name` attached to `parent` (a name, or an id returned earlier) by a movable
  /// joint. Returns the new body's builder id.
  int add_body(const BodyRef& parent, const std::string& name, const JointSpec<S>& joint,
               const SpatialInertia<S>& inertia) {
    const std::string who = "body '" + name + "'";
    check_new_body(name, parent);
    const SpatialInertia<S> reviewed = reviewed_inertia(name, inertia);
    if (joint.name.empty()) throw ModelError("liedyn: " + who + ": its joint has no name");
    if (joint_names_.count(joint.name))
      throw ModelError("liedyn: duplicate joint name '" + joint.name + "'");
    const std::string jwho = "joint '" + joint.name + "' (of body '" + name + "')";
    const Vector3<S> axis = unit_axis(jwho, "axis", joint.axis);
    const Vector3<S> axis2 = joint.type == JointType::Universal
                                 ? unit_axis(jwho, "second axis", joint.axis2)
                                 : Vector3<S>(Vector3<S>::UnitY());
    if (joint.type == JointType::Universal &&
        !(axis.cross(axis2).norm() > S(1e3) * Eigen::NumTraits<S>::epsilon()))
      throw ModelError("liedyn: " + jwho + ": the universal joint's axes are parallel");
    if (!is_finite(joint.pitch)) throw ModelError("liedyn: " + jwho + ": pitch is not finite");
    if (!is_finite(joint.armature) || joint.armature < S(0))
      throw ModelError("liedyn: " + jwho + ": armature must be finite and non-negative");
    if (joint.lower != joint.lower || joint.upper != joint.upper || joint.lower > joint.upper)
      throw ModelError("liedyn: " + jwho + ": invalid position limits (lower > upper or NaN)");
    check_placement(jwho, joint.placement);
    Entry e;
    e.name = name;
    e.parent = parent;
    e.movable = true;
    e.joint = joint;
    e.joint.axis = axis;
    e.joint.axis2 = axis2;
    if (joint.type != JointType::Helical) e.joint.pitch = S(0);
    e.inertia = reviewed;
    joint_names_[joint.name] = static_cast<int>(entries_.size());
    return push(std::move(e));
  }

  /// Adds body `name` rigidly attached to `parent` at `placement` (a URDF fixed joint). It is
  /// merged into its nearest moving ancestor and survives as a frame of that name.
  int add_fixed_body(const BodyRef& parent, const std::string& name, const SE3<S>& placement,
                     const SpatialInertia<S>& inertia = SpatialInertia<S>()) {
    check_new_body(name, parent);
    const SpatialInertia<S> reviewed = reviewed_inertia(name, inertia);
    check_placement("fixed body '" + name + "'", placement);
    Entry e;
    e.name = name;
    e.parent = parent;
    e.movable = false;
    e.joint.placement = placement;
    e.inertia = reviewed;
    return push(std::move(e));
  }

  /// A named frame on a body (given by name or id; the body may be a fixed one).
  void add_frame(const std::string& name, const BodyRef& body, const SE3<S>& placement) {
    check_name(name, "frame");
    if (names_.count(name)) throw ModelError("liedyn: duplicate frame name '" + name + "'");
    check_ref(body, "frame '" + name + "'");
    check_placement("frame '" + name + "'", placement);
    names_[name] = -1;
    user_frames_.push_back(UserFrame{name, body, placement});
  }

  /// Records q_joint = multiplier q_leader + offset (joints by name).
  void add_mimic(const std::string& joint, const std::string& leader, double multiplier,
                 double offset) {
    if (!std::isfinite(multiplier) || !std::isfinite(offset))
      throw ModelError("liedyn: mimic relation of joint '" + joint +
                       "': non-finite multiplier or offset");
    mimics_.push_back(PendingMimic{joint, leader, multiplier, offset});
  }

  /// Resolves parents, rejects cycles, merges fixed bodies, numbers bodies depth-first and
  /// returns the Model. Throws ModelError on an unknown parent, a cycle, an unknown mimic joint or
  /// a merged inertia that overflows.
  Model<S> build() const {
    const Resolution tree = resolve_tree();
    Model<S> m;
    m.base_ = BaseJoint<S>(base_type_, welded_pose_);
    m.gravity_ = gravity_;
    add_movable_bodies(tree, m);
    index_coordinates(m);
    add_frames(tree, m);
    add_mimics(m);
    check_merged_inertias(m);
    m.singular_joints_ = find_singular_joints(m);
    m.diagnostics_ = loader_diagnostics_;
    m.diagnostics_.insert(m.diagnostics_.end(), diagnostics_.begin(), diagnostics_.end());
    add_massless_subtrees(m);
    return m;
  }

 private:
  /// The entries' tree resolved: each entry's parent entry, the movable entry a fixed one
  /// collapses onto (its anchor, itself for a movable one) with ^{anchor}H_{entry}, and the
  /// depth-first numbering of the movable ones (order: new index → entry; index: entry → new).
  struct Resolution {
    std::vector<int> parent, anchor, order, index;
    std::vector<SE3<S>> anchor_H;
  };

  Resolution resolve_tree() const {
    const int N = static_cast<int>(entries_.size());
    Resolution t;
    t.parent.assign(N, -1);
    for (int e = 1; e < N; ++e)
      t.parent[e] = resolve(entries_[e].parent, "body '" + entries_[e].name + "'");
    check_no_cycle(t.parent);
    // Fixed bodies collapse onto their nearest movable ancestor (anchor).
    t.anchor.assign(N, -1);
    t.anchor_H.assign(N, SE3<S>());
    std::function<void(int)> settle = [&](int e) {
      if (t.anchor[e] >= 0) return;
      if (e == 0 || entries_[e].movable) {
        t.anchor[e] = e;
        return;
      }
      settle(t.parent[e]);
      t.anchor[e] = t.anchor[t.parent[e]];
      t.anchor_H[e] = t.anchor_H[t.parent[e]] * entries_[e].joint.placement;
    };
    for (int e = 0; e < N; ++e) settle(e);
    // Movable children in insertion order, then depth-first numbering.
    std::vector<std::vector<int>> kids(N);
    for (int e = 1; e < N; ++e)
      if (entries_[e].movable) kids[t.anchor[t.parent[e]]].push_back(e);
    t.index.assign(N, -1);
    std::function<void(int)> visit = [&](int e) {
      t.index[e] = static_cast<int>(t.order.size());
      t.order.push_back(e);
      for (int c : kids[e]) visit(c);
    };
    visit(0);
    return t;
  }

  /// Every chain of parents must end at the base; one that doesn't is a cycle.
  void check_no_cycle(const std::vector<int>& parent) const {
    const int N = static_cast<int>(parent.size());
    std::vector<int> state(N, 0);  // 0 unvisited, 1 on the current path, 2 reaches the base
    state[0] = 2;
    for (int e = 1; e < N; ++e) {
      std::vector<int> path;
      int k = e;
      while (state[k] == 0) {
        state[k] = 1;
        path.push_back(k);
        k = parent[k];
      }
      if (state[k] == 1) {
        std::string names;
        auto it = std::find(path.begin(), path.end(), k);
        for (; it != path.end(); ++it) names += "'" + entries_[*it].name + "' -> ";
        throw ModelError("liedyn: the bodies form a cycle: " + names + "'" + entries_[k].name +
                         "'");
      }
      for (int p : path) state[p] = 2;
    }
  }

  /// The movable bodies in depth-first order: names, inertias, parents, depths and joints (a
  /// joint's placement carried through the fixed bodies above it).
  void add_movable_bodies(const Resolution& t, Model<S>& m) const {
    const int nb = static_cast<int>(t.order.size());
    m.parent_.assign(nb, -1);
    m.subtree_end_.assign(nb, 0);
    m.depth_.assign(nb, 0);
    m.children_.assign(nb, {});
    m.joints_.assign(nb, Joint<S>{});
    m.inertia_.assign(nb, SpatialInertia<S>{});
    m.body_names_.assign(nb, "");
    for (int i = 0; i < nb; ++i) {
      const Entry& en = entries_[t.order[i]];
      m.body_names_[i] = en.name;
      m.inertia_[i] = en.inertia;
      if (i == 0) continue;
      const int above = t.parent[t.order[i]];
      const int p = t.index[t.anchor[above]];
      m.parent_[i] = p;
      m.children_[p].push_back(i);
      m.depth_[i] = m.depth_[p] + 1;
      m.max_depth_ = std::max(m.max_depth_, m.depth_[i]);
      m.total_depth_ += m.depth_[i];
      m.joints_[i] = joint_of(en.joint, t.anchor_H[above]);
    }
    for (int i = nb - 1; i >= 0; --i) {
      m.subtree_end_[i] = i + 1;
      for (int c : m.children_[i])
        m.subtree_end_[i] = std::max(m.subtree_end_[i], m.subtree_end_[c]);
    }
  }

  /// The model's joint from its spec, placed by ^{anchor}H_{parent} from the movable body it
  /// hangs from.
  static Joint<S> joint_of(const JointSpec<S>& js, const SE3<S>& anchor_H_parent) {
    Joint<S> j;
    j.name = js.name;
    j.type = js.type;
    j.axis = js.axis;
    j.axis2 = js.axis2;
    j.pitch = js.pitch;
    j.screw = joint_screw(js.type, js.axis, js.pitch);
    j.placement = anchor_H_parent * js.placement;
    // The screws' fast cases key on the alignment: none for the other types.
    j.alignment = j.one_dof() ? alignment_of(js.axis) : AxisAlignment::General;
    j.placement_unrotated = j.placement.rotation() == Matrix3<S>::Identity();
    j.armature = js.armature;
    j.lower = js.lower;
    j.upper = js.upper;
    j.velocity_limit = js.velocity_limit;
    j.effort_limit = js.effort_limit;
    return j;
  }

  /// Where each joint's coordinates start (q_index, r_index) and the coordinates' own tree
  /// (dof_parent, dof_subtree_end).
  static void index_coordinates(Model<S>& m) {
    const int nb = m.num_bodies();
    m.q_index_.assign(nb + 1, 0);
    m.r_index_.assign(nb + 1, 0);
    for (int i = 1; i < nb; ++i) {
      m.q_index_[i + 1] = m.q_index_[i] + m.joints_[i].nq();
      m.r_index_[i + 1] = m.r_index_[i] + m.joints_[i].nv();
    }
    const int off = m.offset(), nv = m.nv();
    m.dof_parent_.assign(nv, -1);
    m.dof_subtree_end_.assign(nv, nv);
    for (int d = 1; d < off; ++d) m.dof_parent_[d] = d - 1;
    // A joint's coordinates form a chain, the first hanging from its parent body's last one.
    for (int i = 1; i < nb; ++i) {
      const int p = m.parent_[i], first = m.v_index(i);
      for (int d = first; d < first + m.joint_nv(i); ++d) {
        m.dof_parent_[d] = d > first ? d - 1 : (p > 0 ? m.v_index(p) + m.joint_nv(p) - 1 : off - 1);
        m.dof_subtree_end_[d] = m.v_index(m.subtree_end_[i]);
      }
    }
  }

  /// Frames: every movable body, then fixed bodies (inertia merged), then the user's.
  void add_frames(const Resolution& t, Model<S>& m) const {
    const int N = static_cast<int>(entries_.size());
    for (int i = 0; i < m.num_bodies(); ++i)
      m.frames_.push_back(Frame<S>{m.body_names_[i], i, SE3<S>()});
    for (int e = 1; e < N; ++e) {
      if (entries_[e].movable) continue;
      const int i = t.index[t.anchor[e]];
      m.inertia_[i] += entries_[e].inertia.transformed(t.anchor_H[e]);
      m.frames_.push_back(Frame<S>{entries_[e].name, i, t.anchor_H[e]});
    }
    for (const UserFrame& f : user_frames_) {
      const int e = resolve(f.body, "frame '" + f.name + "'");
      m.frames_.push_back(Frame<S>{f.name, t.index[t.anchor[e]], t.anchor_H[e] * f.placement});
    }
  }

  void add_mimics(Model<S>& m) const {
    for (const PendingMimic& pm : mimics_) {
      const int j = m.joint_id(pm.joint), l = m.joint_id(pm.leader);
      if (j < 0)
        throw ModelError("liedyn: mimic relation names an unknown joint '" + pm.joint + "'");
      if (l < 0)
        throw ModelError("liedyn: joint '" + pm.joint + "' mimics an unknown joint '" + pm.leader +
                         "'");
      if (!m.joint(j).one_dof() || !m.joint(l).one_dof())
        throw ModelError("liedyn: mimic relation of joint '" + pm.joint + "' on '" + pm.leader +
                         "': both joints must be 1-DoF");
      m.mimic_.push_back(MimicRelation{j, l, pm.multiplier, pm.offset});
    }
  }

  /// Carrying fixed bodies to their anchor can overflow although every input was finite. (A
  /// placement through fixed bodies can only overflow where a fixed body's transformed inertia,
  /// massless or not, already did, so this check covers the joints and frames too.)
  static void check_merged_inertias(const Model<S>& m) {
    for (int i = 0; i < m.num_bodies(); ++i) {
      const SpatialInertia<S>& I = m.inertia_[i];
      if (!is_finite(I.mass()) || !I.first_moment().allFinite() || !I.inertia_origin().allFinite())
        throw ModelError("liedyn: body '" + m.body_names_[i] +
                         "': the inertia merged from its fixed bodies is not finite (overflow)");
    }
  }

  struct Entry {
    std::string name;
    BodyRef parent = 0;
    bool movable = false;
    JointSpec<S> joint;  // for a fixed body only `placement` is used
    SpatialInertia<S> inertia;
  };
  struct UserFrame {
    std::string name;
    BodyRef body;
    SE3<S> placement;
  };
  struct PendingMimic {
    std::string joint, leader;
    double multiplier, offset;
  };

  static bool is_finite(const S& x) { return x == x && x - x == S(0); }

  // `a` normalized; a non-finite or zero axis is refused, naming the joint and which axis.
  static Vector3<S> unit_axis(const std::string& jwho, const char* what, const Vector3<S>& a) {
    if (!a.allFinite()) throw ModelError("liedyn: " + jwho + ": " + what + " is not finite");
    Vector3<S> axis = a;
    S norm = axis.norm();
    if (!is_finite(norm)) {  // |axis| overflowed although its components are finite
      axis /= axis.cwiseAbs().maxCoeff();
      norm = axis.norm();
    }
    if (!(norm > S(1e3) * Eigen::NumTraits<S>::epsilon()))
      throw ModelError("liedyn: " + jwho + ": zero " + what);
    // A unit axis to round-off is kept as given: dividing it by its norm again would move a
    // third of them by an ulp, and a model rebuilt from its own joints (a pickled one) would
    // then differ from the original.
    using std::abs;
    if (abs(norm - S(1)) <= S(4) * Eigen::NumTraits<S>::epsilon()) return axis;
    return axis / norm;
  }

  static AxisAlignment alignment_of(const Vector3<S>& e) {
    for (int k = 0; k < 3; ++k)
      if ((e(k) == S(1) || e(k) == S(-1)) && e((k + 1) % 3) == S(0) && e((k + 2) % 3) == S(0))
        return static_cast<AxisAlignment>(k);
    return AxisAlignment::General;
  }

  int push(Entry e) {
    names_[e.name] = static_cast<int>(entries_.size());
    entries_.push_back(std::move(e));
    return static_cast<int>(entries_.size()) - 1;
  }

  void check_name(const std::string& name, const char* what) const {
    if (name.empty()) throw ModelError(std::string("liedyn: a ") + what + " has an empty name");
  }
  void check_ref(const BodyRef& ref, const std::string& who) const {
    if (const int* id = std::get_if<int>(&ref)) {
      if (*id < 0 || *id >= static_cast<int>(entries_.size()))
        throw ModelError("liedyn: " + who + ": bad parent id " + std::to_string(*id) +
                         " (ids are 0.." + std::to_string(entries_.size() - 1) + ")");
    }
  }
  void check_new_body(const std::string& name, const BodyRef& parent) const {
    check_name(name, "body");
    if (names_.count(name)) throw ModelError("liedyn: duplicate body name '" + name + "'");
    if (const std::string* p = std::get_if<std::string>(&parent))
      if (*p == name) throw ModelError("liedyn: body '" + name + "' is its own parent (cycle)");
    check_ref(parent, "body '" + name + "'");
  }
  // Validates I (errors throw at every level), applies the policy (diagnostics, balance) and
  // returns the inertia to store, symmetrized.
  SpatialInertia<S> reviewed_inertia(const std::string& body, const SpatialInertia<S>& I) {
    const std::string prefix = "liedyn: body '" + body + "': ";
    const double m = static_cast<double>(I.mass());
    const Vector3<double> h = I.first_moment().template cast<double>();
    const Matrix3<double> Io = I.inertia_origin().template cast<double>();
    if (!std::isfinite(m) || !h.allFinite() || !Io.allFinite())
      throw ModelError(prefix + "non-finite mass or inertia");
    if (m == 0.0 && h.cwiseAbs().maxCoeff() > 0.0)
      throw ModelError(prefix + "massless body with a non-zero first moment");
    const Matrix3<double> Ic = m > 0.0 ? Matrix3<double>(Io + hat(h) * hat(h) / m) : Io;
    const detail::InertiaReview r = detail::review_inertia(m, Ic, Io.cwiseAbs().maxCoeff());
    std::vector<ModelDiagnostic> ignored;
    const bool physical = inertia_check_ == InertiaCheck::Physical;
    const double delta = detail::apply_inertia_policy(r, inertia_policy_, inertia_check_, body,
                                                      prefix, physical ? diagnostics_ : ignored);
    if (delta == 0.0) return I.symmetrized();
    return SpatialInertia<S>::from_moments(
               I.mass(), I.first_moment(),
               Matrix3<S>(I.inertia_origin() + S(delta) * Matrix3<S>::Identity()))
        .symmetrized();
  }

  // One diagnostic per maximal massless subtree hanging from a movable joint.
  static void add_massless_subtrees(Model<S>& m) {
    const int nb = m.num_bodies();
    std::vector<double> sub(nb, 0.0);
    for (int i = nb - 1; i >= 0; --i) {
      sub[i] += static_cast<double>(m.inertia(i).mass());
      if (i > 0) sub[m.parent(i)] += sub[i];
    }
    for (int i = 1; i < nb; ++i) {
      const int p = m.parent(i);
      if (sub[i] != 0.0 || (p > 0 && sub[p] == 0.0)) continue;
      const int count = m.subtree_end(i) - i;
      m.diagnostics_.push_back(ModelDiagnostic{
          m.body_name(i), DiagnosticKind::massless_subtree,
          "link '" + m.body_name(i) + "': joint '" + m.joint_name(i) + "' moves " +
              std::to_string(count) + (count == 1 ? " body" : " bodies") +
              " with no mass (kinematics work; forward dynamics need inertia or armature there)",
          0.0});
    }
  }
  void check_placement(const std::string& who, const SE3<S>& X) const {
    if (!X.rotation().allFinite() || !X.translation().allFinite())
      throw ModelError("liedyn: " + who + ": placement is not finite");
    const S err =
        (X.rotation() * X.rotation().transpose() - Matrix3<S>::Identity()).cwiseAbs().maxCoeff();
    if (err > S(1e-6) || X.rotation().determinant() < S(0))
      throw ModelError("liedyn: " + who + ": placement rotation is not a rotation matrix");
  }
  int resolve(const BodyRef& ref, const std::string& who) const {
    if (const int* id = std::get_if<int>(&ref)) return *id;
    const std::string& name = std::get<std::string>(ref);
    auto it = names_.find(name);
    if (it == names_.end() || it->second < 0)
      throw ModelError("liedyn: " + who + ": unknown parent '" + name + "'");
    return it->second;
  }

  // A joint is singular when the articulated inertia of its subtree is singular along its
  // subspace (D_i = Γᵀ I^A_i Γ + armature·1 not positive definite at the neutral configuration);
  // for a moving base, also when the whole robot's articulated inertia is singular (index 0 in
  // the list).
  static std::vector<int> find_singular_joints(const Model<S>& m) {
    const int nb = m.num_bodies();
    std::vector<Matrix6<S>> IA(nb);
    std::vector<SE3<S>> X(nb);
    std::vector<Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6>> Gamma(nb);
    S scale(0);
    for (int i = 0; i < nb; ++i) {
      IA[i] = m.inertia(i).matrix();
      scale = std::max(scale, S(IA[i].cwiseAbs().maxCoeff()));
      if (i == 0) continue;
      const Joint<S>& j = m.joint(i);
      Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 7, 1> q0(j.nq());
      j.neutral(q0);
      X[i] = j.transform(q0);
      Gamma[i].resize(6, j.nv());
      j.subspace(q0, Gamma[i]);
    }
    const S tol = S(1e3) * Eigen::NumTraits<S>::epsilon() * (scale > S(0) ? scale : S(1));
    std::vector<int> singular;
    for (int i = nb - 1; i >= 1; --i) {
      const Joint<S>& j = m.joint(i);
      const Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> U = IA[i] * Gamma[i];
      JointTangentMap<S> D = Gamma[i].transpose() * U;
      D.diagonal().array() += j.armature;
      JointTangentMap<S> Dinv;
      Matrix6<S> Ia = IA[i];
      if (detail::pivoted_ldlt_inverse(D, tol, Dinv))
        Ia -= U * JointTangentMap<S>(Dinv * U.transpose());
      else singular.insert(singular.begin(), i);
      const Matrix6<S> Xw = X[i].wrench_transform();
      IA[m.parent(i)] += Xw * Ia * Xw.transpose();
    }
    if (m.has_moving_base()) {
      const detail::Cholesky6<S> chol(IA[0]);
      if (!chol.ok() || chol.min_pivot() <= tol) singular.insert(singular.begin(), 0);
    }
    return singular;
  }

  BaseType base_type_;
  InertiaCheck inertia_check_ = InertiaCheck::Physical;
  InertiaPolicy inertia_policy_ = InertiaPolicy::strict;
  std::vector<ModelDiagnostic> diagnostics_;         // found by reviewed_inertia, in call order
  std::vector<ModelDiagnostic> loader_diagnostics_;  // add_diagnostic
  std::vector<Entry> entries_;
  std::map<std::string, int> names_;        // body and frame names (-1 for frames)
  std::map<std::string, int> joint_names_;  // movable joint names
  std::vector<UserFrame> user_frames_;
  std::vector<PendingMimic> mimics_;
  Vector3<S> gravity_ = Vector3<S>(S(0), S(0), S(-9.81));
  SE3<S> welded_pose_;
};

}  // namespace liedyn
