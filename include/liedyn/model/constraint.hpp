// liedyn — model: constraints on a robot — contacts with the environment, loop closures between
// two of its frames, and linear joint couplings — and their workspace.
//
// A ConstraintSet is built once against a Model from ConstraintSpecs (names resolved to frames
// and joints there, with errors naming what is unknown) and is immutable afterwards, like the
// Model; per-call results and scratch live in a ConstraintData sized once from both.
//
// Frames and signs (docs/constraints.md, docs/conventions.md):
//   * Every geometric constraint relates two frames: frame 1 and frame 2. For a contact, frame 1
//     is the environment (the inertial frame A, at rest) and frame 2 the robot's contact frame F;
//     for a loop closure both are robot frames on the two sides of the cut joint.
//   * The constrained velocity is the relative twist of frame 2 with respect to frame 1,
//     u = ^2 v_{1,2} = v_2 − ^2X_1 v_1 (body twists of the frames), in the constraint's SENSE
//     (TwistRepresentation):
//       Body      u itself: frame 2's axes, about frame 2's origin   (Pinocchio's LOCAL)
//       Mixed     blockdiag(R_2, R_2) u: A's axes, about frame 2's origin (LOCAL_WORLD_ALIGNED)
//       Inertial  ^A X_2 u: A's axes, about A's origin               (WORLD)
//     then restricted to the directions the constraint blocks:
//       RigidContact, RigidLoop    all 6 components [linear; angular]
//       PointContact, BallLoop     the 3 linear ones (a point has no moment: Inertial = Mixed)
//       RevoluteLoop               [linear (3); angular ⟂ axis (2)]
//       PrismaticLoop              [linear ⟂ axis (2); angular (3)]
//     The loop joint's axis a is a unit vector in frame 2's coordinates (ConstraintSpec::axis_frame
//     = 2), or in frame 1's (axis_frame = 1: converted once with the desired relative rotation,
//     exact on the constraint manifold). The two directions ⟂ a are the columns of B (3 × 2,
//     orthonormal, fixed at build); their components are the same in Body and Mixed sense (the
//     directions turn with frame 2), and a loop joint has no Inertial sense (its linear rows
//     would mix in the free rotation about a).
//   * Couplings s_j = a s_i + b give the single row r_j − a r_i (no sense).
//   * The multipliers λ (forces; impulses for impulse dynamics) are what frame 1's side — the
//     environment, or the other side of the cut — applies ON THE ROBOT at frame 2, in the same
//     sense and components as the rows: M q̈ + h − τ̄ = Jᵀ λ. For a loop the opposite wrench acts
//     on frame 1's body. For a coupling λ is the generalized force on joint j (−a λ on joint i).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "liedyn/arithmetic/constrained_solvers.hpp"
#include "liedyn/model/model.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {

/// Thrown when a constraint set is malformed (unknown frame or joint, inconsistent coupling) or
/// cannot be handled at a state by the chosen route (rank-deficient Jacobian for the exact
/// route). The message names the constraints involved.
class ConstraintError : public ModelError {
 public:
  using ModelError::ModelError;
};

/// The kinds of constraint (see the header for the rows each one blocks).
enum class ConstraintType {
  PointContact,
  RigidContact,
  RigidLoop,
  BallLoop,
  RevoluteLoop,
  PrismaticLoop,
  Coupling
};

/// "point contact", "rigid contact", "rigid loop", "ball loop", "revolute loop",
/// "prismatic loop", "coupling".
inline const char* to_string(ConstraintType t) {
  switch (t) {
    case ConstraintType::PointContact: return "point contact";
    case ConstraintType::RigidContact: return "rigid contact";
    case ConstraintType::RigidLoop: return "rigid loop";
    case ConstraintType::BallLoop: return "ball loop";
    case ConstraintType::RevoluteLoop: return "revolute loop";
    case ConstraintType::PrismaticLoop: return "prismatic loop";
    case ConstraintType::Coupling: return "coupling";
  }
  return "unknown";
}

/// Number of rows of a constraint of type t before any component mask: 3, 6, 6, 3, 5, 5, 1.
inline int full_dimension(ConstraintType t) {
  switch (t) {
    case ConstraintType::PointContact: return 3;
    case ConstraintType::RigidContact: return 6;
    case ConstraintType::RigidLoop: return 6;
    case ConstraintType::BallLoop: return 3;
    case ConstraintType::RevoluteLoop: return 5;
    case ConstraintType::PrismaticLoop: return 5;
    case ConstraintType::Coupling: return 1;
  }
  return 0;
}

/// How a block of a constraint's rows reads a 3-vector of frame 2's relative motion (or
/// multipliers' wrench): Whole, its three coordinates; Complement, the two across the constraint's
/// free axis, Constraint::complement ᵀ times it (always in frame 2's own axes).
enum class RowBlockForm { Whole, Complement };

/// A block of a constraint's rows: which part of the 6-vector it reads (`part`, 0 for the linear
/// part, 3 for the angular part), how, and its first row among the full_dimension() rows.
struct RowBlock {
  int part = 0;
  RowBlockForm form = RowBlockForm::Whole;
  int row = 0;
  /// Rows the block takes: 3 (Whole) or 2 (Complement).
  int size() const { return form == RowBlockForm::Whole ? 3 : 2; }
};

/// The row blocks of a constraint type, in row order (docs/conventions.md §8): the one statement
/// of which rows a point, rigid, ball, revolute or prismatic constraint keeps, read by the
/// constraint kinematics, their derivatives and the constraint wrench. A coupling has none (its
/// one row reads the joints).
struct RowLayout {
  int count = 0;
  RowBlock blocks[2];
  /// The blocks, for range-for.
  const RowBlock* begin() const { return blocks; }
  /// One past the last block.
  const RowBlock* end() const { return blocks + count; }
};

/// The row layout of type t: rigid [linear; angular], point and ball [linear], revolute [linear;
/// angular ⟂ axis], prismatic [linear ⟂ axis; angular], coupling none.
inline RowLayout row_layout(ConstraintType t) {
  using F = RowBlockForm;
  switch (t) {
    case ConstraintType::RigidContact:
    case ConstraintType::RigidLoop: return {2, {{0, F::Whole, 0}, {3, F::Whole, 3}}};
    case ConstraintType::PointContact:
    case ConstraintType::BallLoop: return {1, {{0, F::Whole, 0}, {}}};
    case ConstraintType::RevoluteLoop: return {2, {{0, F::Whole, 0}, {3, F::Complement, 3}}};
    case ConstraintType::PrismaticLoop: return {2, {{0, F::Complement, 0}, {3, F::Whole, 2}}};
    case ConstraintType::Coupling: break;
  }
  return {};
}

/// True for the rigid contact and the rigid loop (six rows, the whole relative motion).
inline bool is_rigid(ConstraintType t) {
  return t == ConstraintType::RigidContact || t == ConstraintType::RigidLoop;
}

/// True for the two contact types (frame 1 is the environment).
inline bool is_contact(ConstraintType t) {
  return t == ConstraintType::PointContact || t == ConstraintType::RigidContact;
}

/// A constraint as the user describes it, by names. Fields a type does not use are ignored.
template <class S>
struct ConstraintSpec {
  ConstraintType type = ConstraintType::PointContact;
  /// Used in messages; empty: built from the frame (or joint) names.
  std::string name;
  /// Contacts: the robot's contact frame (frame 2 of the header). Loops: frame 1.
  std::string frame;
  /// Loops: frame 2 (the other side of the cut).
  std::string frame2;
  /// Sense of the rows and of λ (header). Ignored by couplings.
  TwistRepresentation sense = TwistRepresentation::Body;
  /// Loop joints: the free axis (any non-zero vector, normalized at build), in frame
  /// `axis_frame`'s coordinates (1 or 2).
  Vector3<S> axis = Vector3<S>::UnitZ();
  int axis_frame = 2;
  /// Desired placement: contacts ^A H_F (none: the position error is reported as zero, and Kp
  /// must be zero); loops ^1 H_2 (none: identity, the frames coincide).
  std::optional<SE3<S>> placement;
  /// Desired constraint velocity v* and acceleration a* (size = dimension(); empty: zero), in
  /// the rows' components.
  VectorX<S> velocity, acceleration;
  /// Baumgarte gains: the rows enforce J q̈ + J̇ ν̄ + Kd (J ν̄ − v*) + Kp e = a*.
  S Kp = S(0), Kd = S(0);
  /// Which of the type's full_dimension() rows to keep, by index (empty: all), e.g. {0, 1} for
  /// a planar loop whose other rows vanish identically.
  std::vector<int> components;
  /// Couplings: s_joint = ratio · s_master + offset.
  std::string joint, master;
  S ratio = S(1), offset = S(0);

  /// A point contact on `frame_name`, rows in `sense`.
  static ConstraintSpec point_contact(const std::string& frame_name,
                                      TwistRepresentation sense = TwistRepresentation::Body) {
    ConstraintSpec c;
    c.type = ConstraintType::PointContact;
    c.frame = frame_name;
    c.sense = sense;
    return c;
  }
  /// A rigid (6D) contact on `frame_name`.
  static ConstraintSpec rigid_contact(const std::string& frame_name,
                                      TwistRepresentation sense = TwistRepresentation::Body) {
    ConstraintSpec c = point_contact(frame_name, sense);
    c.type = ConstraintType::RigidContact;
    return c;
  }
  /// A loop closure of type `t` (RigidLoop, BallLoop, RevoluteLoop, PrismaticLoop) between
  /// frame1 and frame2; `axis` in frame 2's coordinates for the loop joints.
  static ConstraintSpec loop(ConstraintType t, const std::string& frame1,
                             const std::string& frame2_name,
                             TwistRepresentation sense = TwistRepresentation::Body,
                             const Vector3<S>& axis_in_frame2 = Vector3<S>::UnitZ()) {
    ConstraintSpec c;
    c.type = t;
    c.frame = frame1;
    c.frame2 = frame2_name;
    c.sense = sense;
    c.axis = axis_in_frame2;
    return c;
  }
  /// The coupling s_joint = ratio · s_master + offset.
  static ConstraintSpec coupling(const std::string& joint_name, const std::string& master_name,
                                 const S& ratio_, const S& offset_ = S(0)) {
    ConstraintSpec c;
    c.type = ConstraintType::Coupling;
    c.joint = joint_name;
    c.master = master_name;
    c.ratio = ratio_;
    c.offset = offset_;
    return c;
  }
};

/// A constraint resolved against a model (built by ConstraintSet).
template <class S>
struct Constraint {
  ConstraintType type = ConstraintType::PointContact;
  std::string name;
  TwistRepresentation sense = TwistRepresentation::Body;
  int body1 = -1;              ///< body of frame 1; −1: the environment (contacts)
  SE3<S> placement1;           ///< ^{body1} H_1 (identity for the environment)
  int body2 = -1;              ///< body of frame 2 (the contact frame for contacts)
  SE3<S> placement2;           ///< ^{body2} H_2
  bool has_placement = false;  ///< whether `placement` was given (contacts; loops always have one)
  SE3<S> placement;            ///< desired ^1 H_2 (contacts: ^A H_F)
  Vector3<S> axis = Vector3<S>::UnitZ();  ///< loop joint axis, frame 2's coordinates
  Eigen::Matrix<S, 3, 2> complement;      ///< B: orthonormal directions ⟂ axis (frame 2)
  VectorX<S> velocity, acceleration;      ///< v*, a* (size dim)
  S Kp = S(0), Kd = S(0);
  std::vector<int> components;  ///< kept rows of the full_dimension(type) ones, increasing
  int joint = -1, master = -1;  ///< couplings: body indices of joint j and master i
  S ratio = S(1), offset = S(0);
  int row = 0;  ///< first row in the stacked J
  int dim = 0;  ///< number of rows (components.size())
  /// The coordinates whose columns of J may be nonzero in this constraint's rows, closed under
  /// the coordinate tree's ancestors (Model::dof_parent), increasing (so J L⁻¹, M = Lᵀ D L, is
  /// zero off it too): the constraint kinematics form only these columns.
  std::vector<int> support;
  /// The end of the columns [0, end) that hold the support (ancestors come first in the
  /// coordinate order, so a product over the support can stop there).
  int support_end() const { return support.empty() ? 0 : support.back() + 1; }

  /// The same constraint in scalar type T.
  template <class T>
  Constraint<T> cast() const {
    Constraint<T> c;
    c.type = type;
    c.name = name;
    c.sense = sense;
    c.body1 = body1;
    c.placement1 = placement1.template cast<T>();
    c.body2 = body2;
    c.placement2 = placement2.template cast<T>();
    c.has_placement = has_placement;
    c.placement = placement.template cast<T>();
    c.axis = axis.template cast<T>();
    c.complement = complement.template cast<T>();
    c.velocity = velocity.template cast<T>();
    c.acceleration = acceleration.template cast<T>();
    c.Kp = T(Kp);
    c.Kd = T(Kd);
    c.components = components;
    c.joint = joint;
    c.master = master;
    c.ratio = T(ratio);
    c.offset = T(offset);
    c.row = row;
    c.dim = dim;
    c.support = support;
    return c;
  }
};

/// An immutable set of constraints on one model, rows stacked in the order given (header for
/// frames and signs). Building it resolves every name and throws ConstraintError naming the
/// constraint and the unknown frame or joint, or what is inconsistent.
template <class S>
class ConstraintSet {
 public:
  ConstraintSet() = default;

  /// Resolves `specs` against `model`.
  ConstraintSet(const Model<S>& model, const std::vector<ConstraintSpec<S>>& specs)
      : nv_(model.nv()), num_bodies_(model.num_bodies()) {
    for (const ConstraintSpec<S>& spec : specs) add(model, spec);
    // Rows of the constraints whose support holds coordinate d: [first, end).
    coordinate_rows_.assign(nv_, {rows_, 0});
    for (const Constraint<S>& c : constraints_)
      for (const int d : c.support) {
        coordinate_rows_[d].first = std::min(coordinate_rows_[d].first, c.row);
        coordinate_rows_[d].second = std::max(coordinate_rows_[d].second, c.row + c.dim);
      }
    for (const Constraint<S>& c : constraints_)
      support_end_ = std::max(support_end_, c.support_end());
    for (int d = 0; d < nv_; ++d) {
      if (coordinate_rows_[d].second <= coordinate_rows_[d].first) continue;
      if (!supported_runs_.empty() && supported_runs_.back().second == d)
        supported_runs_.back().second = d + 1;
      else supported_runs_.push_back({d, d + 1});
    }
  }

  /// Number of constraints.
  int size() const { return static_cast<int>(constraints_.size()); }
  /// Number of rows m of the stacked Jacobian.
  int dimension() const { return rows_; }
  /// The nv of the model the set was built for.
  int nv() const { return nv_; }
  /// Constraint k (in the order given).
  const Constraint<S>& constraint(int k) const { return constraints_[k]; }
  /// Every constraint.
  const std::vector<Constraint<S>>& constraints() const { return constraints_; }
  /// The constraint owning row r of J.
  int constraint_of_row(int r) const {
    for (int k = 0; k < size(); ++k)
      if (r >= constraints_[k].row && r < constraints_[k].row + constraints_[k].dim) return k;
    return -1;
  }
  /// The rows of J (and of J L⁻¹, J M⁻¹) that may be nonzero in column d: first row and count,
  /// the span of the constraints whose support holds d (rows between them are zero there).
  std::pair<int, int> rows_of_coordinate(int d) const {
    const auto& [first, end] = coordinate_rows_[d];
    return {first, end > first ? end - first : 0};
  }
  /// The end of the columns [0, end) that hold every constraint's support: J and J L⁻¹ are zero
  /// from there on.
  int support_end() const { return support_end_; }
  /// Calls f(first, length) for each run of consecutive coordinates in [begin, end) that lie on
  /// some constraint's support, increasing: J and J L⁻¹ are zero in every other column (a
  /// humanoid's feet: the base's and the legs' coordinates, not the arms').
  template <class F>
  void for_each_supported_run(int begin, int end, F&& f) const {
    for (const auto& [first, stop] : supported_runs_) {
      const int a = std::max(first, begin), b = std::min(stop, end);
      if (a < b) f(a, b - a);
    }
  }
  /// "'NAME' (type)" for messages.
  std::string describe(int k) const {
    return "'" + constraints_[k].name + "' (" + to_string(constraints_[k].type) + ")";
  }
  /// Whether the set was built for this model (same nv and body count).
  bool fits(const Model<S>& model) const {
    return model.nv() == nv_ && model.num_bodies() == num_bodies_;
  }

  /// The same set in scalar type T (for a Model cast to T).
  template <class T>
  ConstraintSet<T> cast() const {
    ConstraintSet<T> out;
    out.nv_ = nv_;
    out.num_bodies_ = num_bodies_;
    out.rows_ = rows_;
    for (const auto& c : constraints_) out.constraints_.push_back(c.template cast<T>());
    out.coordinate_rows_ = coordinate_rows_;
    out.support_end_ = support_end_;
    out.supported_runs_ = supported_runs_;
    return out;
  }

 private:
  template <class>
  friend class ConstraintSet;

  [[noreturn]] static void fail(const std::string& name, const std::string& what) {
    throw ConstraintError("liedyn: ConstraintSet: constraint '" + name + "': " + what);
  }

  static void resolve_frame(const Model<S>& model, const std::string& cname,
                            const std::string& frame, int& body, SE3<S>& placement) {
    if (frame.empty()) fail(cname, "no frame given");
    const int f = model.frame_id(frame);
    if (f < 0) fail(cname, "the model has no frame named '" + frame + "'");
    body = model.frame(f).body;
    placement = model.frame(f).placement;
  }

  // NaN and ±inf give NaN here (works for every scalar type, AutoDiffScalar included).
  static bool finite(const S& v) { return v - v == S(0); }

  void add(const Model<S>& model, const ConstraintSpec<S>& spec) {
    Constraint<S> c;
    c.type = spec.type;
    c.sense = spec.sense;
    c.Kp = spec.Kp;
    c.Kd = spec.Kd;
    if (spec.type == ConstraintType::Coupling) add_coupling(model, spec, c);
    else if (is_contact(spec.type)) add_contact_frames(model, spec, c);
    else add_loop_frames(model, spec, c);
    c.components = components_of(spec, c.name);
    c.dim = static_cast<int>(c.components.size());
    auto vector_or_zero = [&](const VectorX<S>& v, const char* what) {
      if (v.size() == 0) return VectorX<S>(VectorX<S>::Zero(c.dim));
      if (v.size() != c.dim)
        fail(c.name, std::string(what) + " has size " + std::to_string(v.size()) + ", expected " +
                         std::to_string(c.dim));
      return v;
    };
    c.velocity = vector_or_zero(spec.velocity, "the desired velocity");
    c.acceleration = vector_or_zero(spec.acceleration, "the desired acceleration");
    c.row = rows_;
    rows_ += c.dim;
    c.support = support_of(model, c);
    constraints_.push_back(std::move(c));
  }

  // A coupling's name, joints, ratio and offset.
  void add_coupling(const Model<S>& model, const ConstraintSpec<S>& spec, Constraint<S>& c) const {
    c.name = spec.name.empty() ? spec.joint + " = coupling(" + spec.master + ")" : spec.name;
    c.joint = model.joint_id(spec.joint);
    c.master = model.joint_id(spec.master);
    if (spec.joint.empty() || c.joint < 1)
      fail(c.name, "the model has no joint named '" + spec.joint + "'");
    if (spec.master.empty() || c.master < 1)
      fail(c.name, "the model has no joint named '" + spec.master + "'");
    if (c.joint == c.master) fail(c.name, "joint '" + spec.joint + "' is coupled to itself");
    for (const int j : {c.joint, c.master})
      if (!model.joint(j).one_dof())
        fail(c.name, "joint '" + model.joint_name(j) + "' is " + to_string(model.joint(j).type) +
                         ": a coupling relates two 1-DoF joints");
    if (!finite(spec.ratio) || !finite(spec.offset))
      fail(c.name, "ratio and offset must be finite");
    for (const Constraint<S>& o : constraints_)
      if (o.type == ConstraintType::Coupling && o.joint == c.joint)
        fail(c.name,
             "joint '" + spec.joint + "' is already coupled by constraint '" + o.name + "'");
    c.ratio = spec.ratio;
    c.offset = spec.offset;
  }

  // A contact's name, frame (frame 2; frame 1 the environment) and desired placement.
  void add_contact_frames(const Model<S>& model, const ConstraintSpec<S>& spec,
                          Constraint<S>& c) const {
    c.name = spec.name.empty() ? spec.frame : spec.name;
    resolve_frame(model, c.name, spec.frame, c.body2, c.placement2);
    c.body1 = -1;
    c.has_placement = spec.placement.has_value();
    if (c.has_placement) c.placement = *spec.placement;
    if (!c.has_placement && !(spec.Kp == S(0)))
      fail(c.name, "a position gain Kp needs a desired placement of the contact frame");
  }

  // A loop's name, two frames, placement of frame 2 in frame 1 and, for a revolute or prismatic
  // loop, its axis.
  void add_loop_frames(const Model<S>& model, const ConstraintSpec<S>& spec,
                       Constraint<S>& c) const {
    c.name = spec.name.empty() ? spec.frame + "~" + spec.frame2 : spec.name;
    resolve_frame(model, c.name, spec.frame, c.body1, c.placement1);
    resolve_frame(model, c.name, spec.frame2, c.body2, c.placement2);
    if (c.body1 == c.body2)
      fail(c.name, "both frames are on body '" + model.body_name(c.body1) + "'");
    c.has_placement = true;
    if (spec.placement) c.placement = *spec.placement;
    if (spec.type == ConstraintType::RevoluteLoop || spec.type == ConstraintType::PrismaticLoop)
      set_loop_axis(spec, c);
  }

  // The free axis a (frame 2) and the complement B, two unit axes orthogonal to it.
  void set_loop_axis(const ConstraintSpec<S>& spec, Constraint<S>& c) const {
    if (spec.sense == TwistRepresentation::Inertial)
      fail(c.name, std::string("a ") + to_string(spec.type) +
                       " has no inertial sense (its rows would mix in the free motion): use "
                       "body or mixed");
    const S norm = spec.axis.norm();
    if (!(norm > S(0)) || !finite(norm)) fail(c.name, "the axis must be a finite non-zero vector");
    if (spec.axis_frame != 1 && spec.axis_frame != 2) fail(c.name, "axis_frame must be 1 or 2");
    Vector3<S> a = spec.axis / norm;
    // On the manifold ^1R_2 = R* exp(θ a^), which leaves a fixed: a_2 = R*ᵀ a_1.
    if (spec.axis_frame == 1) a = c.placement.rotation().transpose() * a;
    c.axis = a;
    // B: the coordinate axis least aligned with a, orthogonalized, then a × b1.
    int k = 0;
    for (int i = 1; i < 3; ++i)
      if (a(i) * a(i) < a(k) * a(k)) k = i;
    Vector3<S> b1 = Vector3<S>::Unit(k) - a * a(k);
    b1 /= b1.norm();
    c.complement.col(0) = b1;
    c.complement.col(1) = a.cross(b1);
  }

  // The rows of the full_dimension(type) candidates the spec keeps: all, or its increasing list.
  std::vector<int> components_of(const ConstraintSpec<S>& spec, const std::string& name) const {
    const int full = full_dimension(spec.type);
    std::vector<int> components;
    if (spec.components.empty()) {
      for (int i = 0; i < full; ++i) components.push_back(i);
    } else {
      for (std::size_t i = 0; i < spec.components.size(); ++i) {
        const int k = spec.components[i];
        if (k < 0 || k >= full)
          fail(name, "component " + std::to_string(k) + " out of range [0, " +
                         std::to_string(full) + ")");
        if (i > 0 && k <= spec.components[i - 1]) fail(name, "components must be increasing");
        components.push_back(k);
      }
    }
    return components;
  }

  // The ancestor closure, in the coordinate tree, of the coordinates c's rows touch.
  static std::vector<int> support_of(const Model<S>& model, const Constraint<S>& c) {
    std::vector<char> in(model.nv(), 0);
    auto close = [&](int d) {
      for (; d >= 0 && !in[d]; d = model.dof_parent(d)) in[d] = 1;
    };
    auto chain = [&](int body) {  // from the last coordinate of the body's joint
      if (body >= 1) close(model.v_index(body) + model.joint_nv(body) - 1);
      else if (body == 0 && model.has_moving_base()) close(5);
    };
    if (c.type == ConstraintType::Coupling) {
      chain(c.joint);
      chain(c.master);
    } else {
      chain(c.body1);
      chain(c.body2);
    }
    std::vector<int> support;
    for (int d = 0; d < model.nv(); ++d)
      if (in[d]) support.push_back(d);
    return support;
  }

  int nv_ = 0;
  int num_bodies_ = 0;
  int rows_ = 0;
  std::vector<Constraint<S>> constraints_;
  std::vector<std::pair<int, int>> coordinate_rows_;  ///< per coordinate: [first row, end row)
  int support_end_ = 0;                               ///< max of the constraints' support_end()
  std::vector<std::pair<int, int>> supported_runs_;  ///< [first, end) runs of supported coordinates
};

/// The model's recorded mimic relations (URDF <mimic>, ModelBuilder::add_mimic) as couplings
/// s_joint = multiplier · s_leader + offset, to enforce them (Model itself only records them).
template <class S>
std::vector<ConstraintSpec<S>> mimic_couplings(const Model<S>& model) {
  std::vector<ConstraintSpec<S>> specs;
  for (const MimicRelation& r : model.mimic_relations())
    specs.push_back(ConstraintSpec<S>::coupling(
        model.joint_name(r.joint), model.joint_name(r.leader), S(r.multiplier), S(r.offset)));
  return specs;
}

/// Scratch of constrained_forward_dynamics_derivatives (constrained_dynamics_derivatives.hpp):
/// the motion derivatives of the two frames of one constraint (ground frame then frame 2), the
/// relative twist's and its acceleration's — on the constraint's support columns, the leading
/// |support| (or 2 |support|) columns of these 6 × nv (6 × 2nv) buffers — and the KKT
/// right-hand sides.
template <class S>
struct ConstrainedDerivativesWorkspace {
  /// Allocates every buffer for a model of nv velocities and num_bodies bodies, m constraint rows.
  ConstrainedDerivativesWorkspace(int nv, int m, int num_bodies)
      : theta1(6, nv),
        dv1(6, nv),
        daq1(6, nv),
        dav1(6, nv),
        theta2(6, nv),
        dv2(6, nv),
        daq2(6, nv),
        dav2(6, nv),
        dw(6, nv),
        star(6, nv),
        de(6, nv),
        gdot(6, nv),
        axis_rate1(6, nv),
        du(6, 2 * nv),
        dud(6, 2 * nv),
        dv2_full(6, 2 * nv),
        dy(6, 2 * nv),
        rows(6, 2 * nv),
        column_dy(6, 2),
        column_theta(6, 1),
        column_rows(6, 2),
        support_block(nv, nv),
        minv_columns(nv, 6),
        minv_jt(nv, m),
        w_inverse(m, m),
        constraint_rhs(m, 3 * nv),
        rhs_t(3 * nv, nv),
        lambda_t(3 * nv, m),
        ddq_t(3 * nv, nv),
        velocity(nv),
        wrenches(num_bodies, Force<S>()) {}
  Matrix6X<S> theta1, dv1, daq1, dav1, theta2, dv2, daq2, dav2, dw, star, de, gdot, axis_rate1;
  Matrix6X<S> du, dud, dv2_full, dy, rows;
  Matrix6X<S> column_dy, column_theta, column_rows;  ///< one column of J̇ at a time
  MatrixX<S> support_block;  ///< one constraint's block of K on its support (ns × ns)
  Eigen::Matrix<S, Eigen::Dynamic, 6> minv_columns;  ///< M⁻¹ on a support times 6 columns
  MatrixX<S> minv_jt;                                ///< M⁻¹ Jᵀ (nv × m)
  MatrixX<S> w_inverse;                              ///< W⁻¹ (m × m)
  MatrixX<S> constraint_rhs;  ///< Q − J U of the block elimination (m × 3nv)
  /// The KKT solves' transposed right-hand sides and results (3nv rows: x, then τ̄ columns)
  MatrixX<S> rhs_t, lambda_t, ddq_t;
  VectorX<S> velocity;    ///< impulse derivatives: the velocity the rows are differentiated at
  State<S> motion_state;  ///< impulse derivatives: x with that velocity (sized by ConstraintData)
  std::vector<Force<S>> wrenches;  ///< the constraint forces as external wrenches, body frames
};

/// Workspace and results of the constraint kernels for one (Model, ConstraintSet): sized once,
/// nothing allocates afterwards. m = set.dimension(), generalized vectors base first.
template <class S>
struct ConstraintData {
  /// Allocates every buffer (see resize).
  ConstraintData(const Model<S>& model, const ConstraintSet<S>& set) { resize(model, set); }

  /// (Re)sizes every buffer, zero-filled (this allocates).
  void resize(const Model<S>& model, const ConstraintSet<S>& set) {
    const int m = set.dimension(), nv = model.nv(), nb = model.num_bodies();
    J.setZero(m, nv);
    gamma.setZero(m);
    drift.setZero(m);
    position_error.setZero(m);
    velocity_error.setZero(m);
    lambda.setZero(m);
    ddq.setZero(nv);
    impulse.setZero(m);
    v_after.setZero(nv);
    delassus.setZero(m, m);
    delassus_factor.setZero(m, m);
    bias_acceleration.assign(nb, Motion<S>());
    relative_columns.setZero(6, nv);
    rows_full.setZero(6, nv);
    Y.setZero(m, nv);
    Z.setZero(m, nv);
    rhs.setZero(m);
    tmp_nv.setZero(nv);
    tmp_q.setZero(nv);
    ddq_dx.setZero(nv, 2 * nv);
    lambda_dx.setZero(m, 2 * nv);
    ddq_dtau.setZero(nv, nv);
    lambda_dtau.setZero(m, nv);
    velocity_dx.setZero(m, 2 * nv);
    acceleration_dx.setZero(m, 2 * nv);
    position_error_dx.setZero(m, nv);
    Jdot.setZero(m, nv);
    v_after_dx.setZero(nv, 2 * nv);
    impulse_dx.setZero(m, 2 * nv);
    derivatives = ConstrainedDerivativesWorkspace<S>(nv, m, nb);
    derivatives.motion_state = State<S>(model);
    proximal = ProximalWorkspace<S>(nv, m);
    projector = ProjectorWorkspace<S>(nv, m);
    minimal = MinimalCoordinatesWorkspace<S>(nv, m < nv ? m : nv);
  }

  // --- results ------------------------------------------------------------------------------
  MatrixX<S> J;      ///< stacked constraint Jacobian (m × nv), rows in each constraint's sense
  VectorX<S> gamma;  ///< J q̈ + gamma = 0 is the constraint: drift + Baumgarte terms − a*
  VectorX<S> drift;  ///< J̇ ν̄ alone (the acceleration of the rows at q̈ = 0)
  VectorX<S> position_error;   ///< e (zero for contacts without a desired placement)
  VectorX<S> velocity_error;   ///< J ν̄ − v*
  VectorX<S> lambda;           ///< constraint forces on the robot (constrained_forward_dynamics)
  VectorX<S> ddq;              ///< constrained accelerations [ν̇; ṙ]
  VectorX<S> impulse;          ///< constraint impulses on the robot (impulse_dynamics)
  VectorX<S> v_after;          ///< generalized velocity after the impact [ν⁺; r⁺]
  MatrixX<S> delassus;         ///< J M⁻¹ Jᵀ (both triangles)
  MatrixX<S> delassus_factor;  ///< its Cholesky factor (lower triangle)
  /// constrained_forward_dynamics_derivatives: columns δx = (η, δs, δt, δr), rows q̈ = [ν̇; s̈]
  /// (ddq_dx, nv × 2nv) or λ (lambda_dx, m × 2nv); ∂/∂τ̄ (nv × nv, m × nv).
  MatrixX<S> ddq_dx, lambda_dx, ddq_dtau, lambda_dtau;
  /// constraint_kinematics_derivatives, constrained_forward_dynamics_derivatives: ∂(J ν̄)/∂x,
  /// the constraint velocity's derivative, and ∂(J q̈ + γ)/∂x at fixed q̈, the constraint
  /// acceleration's (m × 2nv, the columns of ddq_dx).
  MatrixX<S> velocity_dx, acceleration_dx;
  /// constraint_kinematics_derivatives: ∂e/∂q (m × nv, columns (η, δs)) and J̇, the time
  /// derivative of J (m × nv, J's columns).
  MatrixX<S> position_error_dx, Jdot;
  /// impulse_dynamics_derivatives: ∂v⁺/∂x (nv × 2nv, rows [ν⁺; r⁺]) and ∂Λ/∂x (m × 2nv),
  /// columns δx = (η, δs, δt, δr) of the pre-impact state.
  MatrixX<S> v_after_dx, impulse_dx;

  // --- scratch ------------------------------------------------------------------------------
  std::vector<Motion<S>>
      bias_acceleration;  ///< body accelerations at q̈ = 0, no gravity (body frames)
  /// One constraint's relative-twist Jacobian (frame 2, body) and its rows before the component
  /// mask, on the constraint's support columns (the leading |support| columns).
  Matrix6X<S> relative_columns, rows_full;
  MatrixX<S> Y;  ///< J L⁻¹ (m × nv; M = Lᵀ D L)
  MatrixX<S> Z;  ///< J L⁻¹ D⁻¹
  VectorX<S> rhs;
  VectorX<S> tmp_nv, tmp_q;

  ConstrainedDerivativesWorkspace<S> derivatives{0, 0,
                                                 0};  ///< constrained_forward_dynamics_derivatives

  // --- the other routes of constrained_forward_dynamics (constrained_solvers.hpp) -------------
  ProximalWorkspace<S> proximal{0, 0};  ///< damped route: scratch
  ProjectorWorkspace<S> projector{0,
                                  0};  ///< redundant-coordinates route: J⁺_M and N of the last call
  MinimalCoordinatesWorkspace<S> minimal{0, 0};  ///< minimal-coordinates route: keeps its partition
  ProximalReport<S> proximal_report;             ///< what the damped route did in the last call
  MinimalCoordinatesReport<S> minimal_report;    ///< what the minimal-coordinates route did
};

}  // namespace liedyn
