// liedyn — algorithm: a time step with frictional unilateral point contacts — semi-implicit Euler
// on the Lie group at the velocity level, the contact impulses from the frictional contact solvers
// of arithmetic/frictional_contact.hpp (docs/frictional-contacts.md, "The time step with the
// tree").
//
// Contacts are points of the robot's bodies (a model frame, or a body and an offset; with a
// radius, the surface of a sphere around that point) against planes of the environment (a point
// and a unit normal in the inertial frame A: the free side is where the normal points). The step
// from x = (H, s, ν̄) with generalized forces τ̄ over Δt:
//     v_free = ν̄ + Δt M⁻¹ (τ̄ − h(x)),
//     c = G λ + g,   G = J M⁻¹ Jᵀ,   g = J v_free + b      (b: the gap terms, below),
//     λ from the frictional contact problem (ADMM or PGS),
//     ν̄⁺ = v_free + M⁻¹ Jᵀ λ,   x⁺ = (x ⊕ Δt ν̄⁺, ν̄⁺)      (the configuration on its group).
// J stacks three rows per active contact: the velocity of the body's material point at the
// contact point, in the contact frame — origin at the contact point, axes fixed in A, its third
// axis the plane's normal n, its first two (t1, t2) spanning the plane — tangential first, normal
// last, as frictional_contact.hpp orders them. λ is the impulse over the step that the plane
// applies on the robot at the contact, in that frame (docs/conventions.md §8: M (ν̄⁺ − v_free) =
// Jᵀ λ), so λ / Δt is the mean contact force.
//
// Gap φ = nᵀ(p − p_plane) − radius, p the contact frame's (or sphere's centre's) position; a
// contact is active when φ ≤ margin. The normal entry of b is φ/Δt for φ > 0 (the contact may
// close within the step, exactly, and no further: c_n = nᵀ(point's velocity) + φ/Δt ≥ 0) and
// β φ/Δt for φ ≤ 0 (β = penetration_recovery: a fraction β of a penetration is removed per step,
// Baumgarte-like). The tangential entries of b are zero.
//
// Restitution e (optional, default 0) adds e min(v_n, 0) to the normal entry of b at contacts
// with φ ≤ 0, v_n their normal velocity at the step's start. The step is first order in Δt, its
// velocity products explicit (docs/frictional-contacts.md says what that costs a rolling ball).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "liedyn/algorithm/common.hpp"
#include "liedyn/algorithm/crba.hpp"
#include "liedyn/algorithm/data.hpp"
#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/algorithm/ltdl.hpp"
#include "liedyn/algorithm/rnea.hpp"
#include "liedyn/arithmetic/frictional_contact.hpp"
#include "liedyn/config.hpp"
#include "liedyn/model/model.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {

/// A plane of the environment, in the inertial frame A: the points p with nᵀ(p − point) = 0; the
/// free side is nᵀ(p − point) > 0. The normal need not be unit (it is normalized when the
/// workspace is built) but must be non-zero and finite.
template <class S>
struct ContactPlane {
  Vector3<S> point = Vector3<S>::Zero();    ///< a point of the plane (A)
  Vector3<S> normal = Vector3<S>::UnitZ();  ///< its normal, towards the free side (A)

  /// The ground z = 0 of A, free side up (+z).
  static ContactPlane ground() { return ContactPlane(); }
  /// The plane through `point` with normal `normal` (both in A).
  static ContactPlane through(const Vector3<S>& point, const Vector3<S>& normal) {
    ContactPlane p;
    p.point = point;
    p.normal = normal;
    return p;
  }
};

/// A point contact as the user describes it: a point of the robot — the origin of model frame
/// `frame` moved by `offset` (in the frame's axes), or, with `frame` empty, the point `offset` of
/// body `body` (in the body's frame) — against `plane`, with Coulomb friction coefficient
/// `friction` ≥ 0. With radius r > 0 the point is the centre of a sphere of that radius, and the
/// contact point the sphere's point nearest the plane.
template <class S>
struct ContactPointSpec {
  std::string name;   ///< used in messages and results; empty: the frame's or body's name
  std::string frame;  ///< model frame holding the point (empty: `body` is used)
  std::string body;   ///< body holding the point, when `frame` is empty
  Vector3<S> offset = Vector3<S>::Zero();  ///< the point in the frame's (or body's) coordinates
  S radius = S(0);                         ///< sphere radius around the point (0: a point), ≥ 0
  ContactPlane<S> plane;                   ///< the environment's plane
  S friction = S(0);                       ///< Coulomb friction coefficient μ ≥ 0

  /// The origin of model frame `frame` (moved by `offset`, in the frame's axes) against `plane`.
  static ContactPointSpec on_frame(const std::string& frame, const ContactPlane<S>& plane,
                                   const S& friction, const Vector3<S>& offset = Vector3<S>::Zero(),
                                   const S& radius = S(0)) {
    ContactPointSpec c;
    c.frame = frame;
    c.plane = plane;
    c.friction = friction;
    c.offset = offset;
    c.radius = radius;
    return c;
  }
  /// The point `offset` of body `body` (body frame) against `plane`.
  static ContactPointSpec on_body(const std::string& body, const Vector3<S>& offset,
                                  const ContactPlane<S>& plane, const S& friction,
                                  const S& radius = S(0)) {
    ContactPointSpec c;
    c.body = body;
    c.offset = offset;
    c.plane = plane;
    c.friction = friction;
    c.radius = radius;
    return c;
  }
};

/// A point contact resolved against a model (built by ContactStepWorkspace).
template <class S>
struct ContactPoint {
  std::string name;                             ///< for messages
  int body = 0;                                 ///< body holding the point
  Vector3<S> point = Vector3<S>::Zero();        ///< the point (sphere centre), body frame
  S radius = S(0);                              ///< sphere radius (0: a point)
  Vector3<S> plane_point = Vector3<S>::Zero();  ///< a point of the plane (A)
  /// The contact frame's axes in A, columns (t1, t2, n): n the plane's unit normal, t1 the
  /// component of A's x axis orthogonal to n (A's y axis when n is within 25° of x), normalized,
  /// t2 = n × t1.
  Matrix3<S> axes = Matrix3<S>::Identity();
  S friction = S(0);  ///< μ
};

/// Which frictional contact solver contact_step runs.
enum class ContactSolver {
  Admm,  ///< frictional_contact_admm (the default)
  Pgs,   ///< frictional_contact_pgs
};

/// "admm" or "pgs" ("unknown" for an out-of-range value).
inline const char* to_string(ContactSolver s) {
  switch (s) {
    case ContactSolver::Admm: return "admm";
    case ContactSolver::Pgs: return "pgs";
  }
  return "unknown";
}

/// Settings of contact_step (docs/frictional-contacts.md, "The time step with the tree").
template <class S>
struct ContactStepSettings {
  /// The solver of the contact problem.
  ContactSolver solver = ContactSolver::Admm;
  /// The solver's settings. warm_start (true here) starts each solve from the impulses the
  /// workspace kept from the previous step, per contact (zero for a contact inactive then).
  FrictionalContactSettings<S> solver_settings = default_solver_settings();
  /// A contact enters the problem when its gap φ ≤ margin (metres). A contact with 0 < φ ≤ margin
  /// is closed exactly if it would cross the plane within the step, so a margin above the largest
  /// approach speed times Δt keeps a point from ever penetrating; the default, 1 cm, covers 10 m/s
  /// at 1 ms. Must be ≥ 0 (infinity: every contact is always in the problem).
  S margin = S(0.01);
  /// β in [0, 1]: a penetration φ < 0 adds β φ/Δt to the normal free velocity, so that the step
  /// removes the fraction β of it. 0 keeps a penetration as it is; β > 0 does work on the robot
  /// (the push-out velocity), so energy may rise by about ½ m (β φ/Δt)².
  S penetration_recovery = S(0.2);
  /// Newton's restitution e in [0, 1] at touching or penetrating contacts (φ ≤ 0): their normal
  /// free velocity gains e min(v_n, 0), v_n the contact's normal velocity at the step's start, so
  /// that an approach at v_n < 0 leaves at −e v_n or faster. 0: inelastic impacts. A contact closed
  /// within the margin (φ > 0) is caught at the closing speed φ/Δt, below the approach speed: for
  /// bounces at the right speed use margin 0 (the impact is then seen one step after the crossing,
  /// at a penetration of up to the approach speed times Δt).
  S restitution = S(0);

  /// FrictionalContactSettings' defaults with warm_start on.
  static FrictionalContactSettings<S> default_solver_settings() {
    FrictionalContactSettings<S> s;
    s.warm_start = true;
    return s;
  }
};

/// What contact_step did: the contact solver's report and the number of active contacts.
template <class S>
struct ContactStepResult {
  /// The contact solver's report (iterations, residuals, converged; frictional_contact.hpp).
  FrictionalContactResult<S> solver;
  int active_contacts = 0;  ///< contacts with φ ≤ margin in this step (those in the problem)
  /// solver.converged: the impulses meet the solver's tolerances (true when no contact is active).
  /// False: the step was still taken with the last iterate, which is not a solution.
  bool converged = false;
};

/// Workspace, and per-contact results, of contact_step for one model and one list of contacts:
/// every buffer is sized when it is built, and contact_step allocates nothing afterwards. Building
/// it resolves the contacts' frames and bodies and checks them: an unknown frame or body, μ < 0 or
/// not finite, a zero or non-finite normal, a negative radius throw InvalidArgument naming the
/// contact ("liedyn: ContactStepWorkspace: contact 'NAME': …").
template <class S>
struct ContactStepWorkspace {
  /// Resolves `contacts` against `model` and sizes every buffer for all of them.
  ContactStepWorkspace(const Model<S>& model, const std::vector<ContactPointSpec<S>>& contacts)
      : data(model), solver(static_cast<int>(contacts.size())) {
    const char* who = "ContactStepWorkspace";
    const int nc = static_cast<int>(contacts.size()), nv = model.nv();
    for (int k = 0; k < nc; ++k) points.push_back(resolve(model, contacts[k], k, who));
    gap = VectorX<S>::Zero(nc);
    impulse = VectorX<S>::Zero(3 * nc);
    contact_velocity = VectorX<S>::Zero(3 * nc);
    warm_start_impulse = VectorX<S>::Zero(3 * nc);
    active.reserve(nc);
    velocity_after = VectorX<S>::Zero(nv);
    velocity = VectorX<S>::Zero(nv);
    free_velocity = VectorX<S>::Zero(nv);
    response = VectorX<S>::Zero(nv);
    point_jacobian = Matrix6X<S>::Zero(6, nv);
    J = MatrixX<S>::Zero(3 * nc, nv);
    JT_solved = MatrixX<S>::Zero(nv, 3 * nc);
    delassus = MatrixX<S>::Zero(3 * nc, 3 * nc);
    free_contact_velocity = VectorX<S>::Zero(3 * nc);
    friction = VectorX<S>::Zero(nc);
    lambda = VectorX<S>::Zero(3 * nc);
    solved_velocity = VectorX<S>::Zero(3 * nc);
    model_id = model.id();
  }

  /// The resolved contacts, in the order given.
  std::vector<ContactPoint<S>> points;

  // ---- per-contact results of the last step (contact k at entries k, or 3k … 3k + 2) ----
  /// The gap φ_k at the step's start state (metres; negative: penetration).
  VectorX<S> gap;
  /// The impulse λ_k on the robot over the step, in contact k's frame [t1, t2, n] (N s); zero for
  /// an inactive contact.
  VectorX<S> impulse;
  /// c_k = G λ + g at the end of the step, contact k's frame: the contact point's velocity
  /// relative to the plane plus the gap and restitution terms b_k (zero for an inactive contact).
  VectorX<S> contact_velocity;
  /// The indices of the active contacts, increasing (capacity reserved: no allocation).
  std::vector<int> active;
  /// The generalized velocity after the step, [ν⁺; r⁺].
  VectorX<S> velocity_after;

  /// The impulses the next step's solve starts from, per contact (3 per contact, contact frames):
  /// contact_step writes the step's impulses here; set it to zero for a cold start.
  VectorX<S> warm_start_impulse;

  // ---- scratch (overwritten by every step) ----
  Data<S> data;                          ///< the kernels' workspace: M, its factors, h, kinematics
  FrictionalContactWorkspace<S> solver;  ///< the contact solver's workspace
  VectorX<S> velocity;                   ///< ν̄ at the start of the step
  VectorX<S> free_velocity;              ///< v_free = ν̄ + Δt M⁻¹ (τ̄ − h)
  VectorX<S> response;                   ///< M⁻¹ Jᵀ λ
  Matrix6X<S> point_jacobian;            ///< one contact point's Jacobian, mixed sense (6 × nv)
  MatrixX<S> J;                          ///< active rows' Jacobian (leading 3 n_active rows)
  MatrixX<S> JT_solved;              ///< L⁻ᵀ Jᵀ, M = Lᵀ D L (leading 3 n_active columns)
  MatrixX<S> delassus;               ///< G = J M⁻¹ Jᵀ (leading block)
  VectorX<S> free_contact_velocity;  ///< g = J v_free + b (leading entries)
  VectorX<S> friction;               ///< μ of the active contacts (leading entries)
  VectorX<S> lambda;                 ///< the active contacts' impulses (leading entries)
  VectorX<S> solved_velocity;        ///< their c (leading entries)
  std::uint64_t model_id = 0;        ///< the model the workspace was built for

  /// Number of contacts (active or not).
  int num_contacts() const { return static_cast<int>(points.size()); }

 private:
  static ContactPoint<S> resolve(const Model<S>& model, const ContactPointSpec<S>& spec, int k,
                                 const char* who) {
    using std::abs;
    using std::sqrt;
    ContactPoint<S> c;
    c.name = !spec.name.empty()    ? spec.name
             : !spec.frame.empty() ? spec.frame
             : !spec.body.empty()  ? spec.body
                                   : "#" + std::to_string(k);
    const std::string prefix = std::string(who) + ": contact '" + c.name + "': ";
    if (!spec.frame.empty()) {
      const int f = model.frame_id(spec.frame);
      LIEDYN_CHECK(f >= 0, prefix + "no frame named '" + spec.frame + "'");
      c.body = model.frame(f).body;
      c.point = model.frame(f).placement.act_point(spec.offset);
    } else {
      LIEDYN_CHECK(!spec.body.empty(), prefix + "names neither a frame nor a body");
      c.body = model.body_id(spec.body);
      LIEDYN_CHECK(c.body >= 0, prefix + "no body named '" + spec.body + "'");
      c.point = spec.offset;
    }
    LIEDYN_CHECK(c.point.allFinite(), prefix + "the offset is not finite");
    LIEDYN_CHECK(spec.radius >= S(0) && spec.radius - spec.radius == S(0),
                 prefix + "the radius must be finite and >= 0");
    LIEDYN_CHECK(spec.friction >= S(0) && spec.friction - spec.friction == S(0),
                 prefix + "the friction coefficient must be finite and >= 0, got " +
                     std::to_string(static_cast<double>(spec.friction)));
    LIEDYN_CHECK(spec.plane.point.allFinite(), prefix + "the plane's point is not finite");
    const S norm = spec.plane.normal.norm();
    LIEDYN_CHECK(norm > S(0) && norm - norm == S(0),
                 prefix + "the plane's normal must be non-zero and finite");
    const Vector3<S> n = spec.plane.normal / norm;
    // t1: A's x axis, or y when n is close to x (|n_x| > cos 25°), made orthogonal to n.
    Vector3<S> t1 = abs(n(0)) < S(0.9) ? Vector3<S>::UnitX() : Vector3<S>::UnitY();
    t1 -= t1.dot(n) * n;
    t1 /= t1.norm();
    c.axes.col(0) = t1;
    c.axes.col(1) = n.cross(t1);
    c.axes.col(2) = n;
    c.radius = spec.radius;
    c.plane_point = spec.plane.point;
    c.friction = spec.friction;
    return c;
  }
};

namespace detail {
namespace contact_step {
// y ← L⁻ᵀ y for M = Lᵀ D L (ltdl_factorize): the first half of ltdl_solve, so that
// G = (L⁻ᵀ Jᵀ)ᵀ D⁻¹ (L⁻ᵀ Jᵀ) is formed as a symmetric product.
template <class S, class Derived>
void ltdl_transpose_solve(const Model<S>& model, const Data<S>& data,
                          const Eigen::MatrixBase<Derived>& y_out) {
  Eigen::MatrixBase<Derived>& y = const_cast<Eigen::MatrixBase<Derived>&>(y_out);
  const MatrixX<S>& F = data.ltdl.factors;
  for (int j = model.nv() - 1; j >= 0; --j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    y(j) -= F.col(j).segment(first, len).dot(y.segment(first, len));
  }
}

template <class S>
bool is_finite(const S& x) {
  return x - x == S(0);
}

// The arguments contact_step refuses (see it).
template <class S, class Derived>
void check_arguments(const char* who, const Model<S>& model, const ContactStepWorkspace<S>& ws,
                     const State<S>& x, const Eigen::MatrixBase<Derived>& tau, const S& dt,
                     const ContactStepSettings<S>& settings) {
  (void)who, (void)ws, (void)tau, (void)dt, (void)settings;
  detail::check_state(who, model, x);
  LIEDYN_CHECK(ws.model_id == model.id() && ws.velocity.size() == model.nv(),
               std::string(who) + ": the workspace was built for another model");
  LIEDYN_CHECK_SIZE(who, "tau", tau, model.nv());
  LIEDYN_CHECK(is_finite(dt) && dt > S(0), std::string(who) + ": dt must be finite and > 0, got " +
                                               std::to_string(static_cast<double>(dt)));
  LIEDYN_CHECK(x.H.rotation().allFinite() && x.H.translation().allFinite() && x.s.allFinite() &&
                   x.nu.allFinite() && x.r.allFinite(),
               std::string(who) + ": the state has a non-finite entry");
  LIEDYN_CHECK(tau.allFinite(), std::string(who) + ": tau has a non-finite entry");
  LIEDYN_CHECK(settings.margin >= S(0), std::string(who) + ": the margin must be >= 0");
  LIEDYN_CHECK(settings.penetration_recovery >= S(0) && settings.penetration_recovery <= S(1),
               std::string(who) + ": penetration_recovery must lie in [0, 1]");
  LIEDYN_CHECK(settings.restitution >= S(0) && settings.restitution <= S(1),
               std::string(who) + ": the restitution must lie in [0, 1]");
}

// M = Lᵀ D L (ws.data.ltdl) and h at x; v_free = ν̄ + dt M⁻¹ (τ̄ − h) into ws.free_velocity, ν̄
// into ws.velocity.
template <class S, class Derived>
void free_velocity(const Model<S>& model, ContactStepWorkspace<S>& ws, const State<S>& x,
                   const Eigen::MatrixBase<Derived>& tau, const S& dt) {
  Data<S>& data = ws.data;
  crba(model, data, x);
  ltdl_factorize(model, data);
  bias_force(model, data, x);
  model.base_joint().velocity(x, ws.velocity);
  ws.free_velocity = tau - data.h;
  ltdl_solve(model, data, ws.free_velocity);
  ws.free_velocity *= dt;
  ws.free_velocity += ws.velocity;
}

// Contact k's gap φ (into ws.gap); when φ ≤ margin, its three rows of J from row m, μ, warm
// start and free contact velocity g = J v_free + b (b: the gap's velocity φ/dt, or the
// penetration's recovery, and the restitution's bounce) into ws; returns whether it is active.
template <class S>
bool contact_row(const Model<S>& model, ContactStepWorkspace<S>& ws, const State<S>& x, int k,
                 int m, const S& dt, const ContactStepSettings<S>& settings) {
  Data<S>& data = ws.data;
  const ContactPoint<S>& c = ws.points[k];
  const SE3<S>& H_body = data.kinematics.H_world[c.body];
  const Vector3<S> centre = H_body.act_point(c.point);
  const Vector3<S> n = c.axes.col(2);
  const S phi = n.dot(centre - c.plane_point) - c.radius;
  ws.gap(k) = phi;
  if (!(phi <= settings.margin)) {
    ws.impulse.template segment<3>(3 * k).setZero();
    ws.contact_velocity.template segment<3>(3 * k).setZero();
    ws.warm_start_impulse.template segment<3>(3 * k).setZero();
    return false;
  }
  // The body's material point at the contact point, in the body frame.
  const Vector3<S> contact_point = centre - c.radius * n;
  const SE3<S> placement(Matrix3<S>::Identity(), H_body.act_inverse_point(contact_point));
  frame_jacobian(model, data, x, c.body, placement, TwistRepresentation::Mixed, ws.point_jacobian);
  ws.J.middleRows(m, 3).noalias() = c.axes.transpose() * ws.point_jacobian.topRows(3);
  ws.friction(m / 3) = c.friction;
  ws.lambda.template segment<3>(m) = ws.warm_start_impulse.template segment<3>(3 * k);
  S gap_term = phi > S(0) ? phi / dt : settings.penetration_recovery * phi / dt;
  ws.free_contact_velocity.template segment<3>(m).noalias() =
      ws.J.middleRows(m, 3) * ws.free_velocity;
  ws.free_contact_velocity(m + 2) += gap_term;
  if (phi <= S(0) && settings.restitution > S(0)) {
    using std::min;
    ws.free_contact_velocity(m + 2) +=
        settings.restitution * min(S(ws.J.row(m + 2).dot(ws.velocity)), S(0));
  }
  return true;
}

// The active contacts' rows (ws.active, ws.J, ...) at x, after forward_poses; returns m, three
// rows per active contact.
template <class S>
int active_contact_rows(const Model<S>& model, ContactStepWorkspace<S>& ws, const State<S>& x,
                        const S& dt, const ContactStepSettings<S>& settings) {
  forward_poses(model, ws.data, x);
  ws.active.clear();
  int m = 0;
  for (int k = 0; k < ws.num_contacts(); ++k) {
    if (!contact_row(model, ws, x, k, m, dt, settings)) continue;
    ws.active.push_back(k);
    m += 3;
  }
  return m;
}

// The Delassus matrix of the m active rows into ws.delassus.
template <class S>
void delassus_from_factors(const Model<S>& model, ContactStepWorkspace<S>& ws, int m) {
  const Data<S>& data = ws.data;
  const int nv = model.nv();
  // G = (L⁻ᵀ Jᵀ)ᵀ D⁻¹ (L⁻ᵀ Jᵀ), lower triangle then mirrored: exactly symmetric.
  for (int r = 0; r < m; ++r) {
    ws.JT_solved.col(r) = ws.J.row(r).transpose();
    detail::contact_step::ltdl_transpose_solve(model, data, ws.JT_solved.col(r));
  }
  for (int j = 0; j < m; ++j) {
    for (int i = j; i < m; ++i) {
      S sum(0);
      for (int d = 0; d < nv; ++d)
        sum += ws.JT_solved(d, i) * ws.JT_solved(d, j) / data.ltdl.factors(d, d);
      ws.delassus(i, j) = sum;
      ws.delassus(j, i) = sum;
    }
  }
}

// The per-contact results (impulse, warm start, contact velocity) of the na active contacts.
template <class S>
void scatter_contact_results(ContactStepWorkspace<S>& ws, int na) {
  for (int a = 0; a < na; ++a) {
    const int k = ws.active[a];
    ws.impulse.template segment<3>(3 * k) = ws.lambda.template segment<3>(3 * a);
    ws.warm_start_impulse.template segment<3>(3 * k) = ws.lambda.template segment<3>(3 * a);
    ws.contact_velocity.template segment<3>(3 * k) = ws.solved_velocity.template segment<3>(3 * a);
  }
}

// (H, s)⁺ = (H, s) ⊕ dt ν̄⁺ on the group and ν̄⁺ = ws.velocity_after into x_next.
template <class S>
void integrate_step(const Model<S>& model, ContactStepWorkspace<S>& ws, const State<S>& x,
                    const S& dt, State<S>& x_next) {
  // ws.response holds dt ν̄⁺.
  ws.response = dt * ws.velocity_after;
  const int off = model.offset(), n = model.nv_joints();
  if (&x_next != &x) {
    x_next.s.resize(x.s.size());
    x_next.r.resize(x.r.size());
    x_next.H = x.H;
  }
  detail::integrate_joints(model, x.s, ws.response.segment(off, n), x_next.s);
  if (model.has_moving_base()) {
    x_next.H = x.H * SE3<S>::exp(ws.response.template head<6>());
    x_next.nu = ws.velocity_after.template head<6>();
  } else {
    x_next.nu.setZero();
  }
  x_next.r = ws.velocity_after.segment(off, n);
}
}  // namespace contact_step
}  // namespace detail

/// One time step of length dt from state x with generalized forces tau (size nv, base rows first:
/// zero there for an unactuated base) and the contacts of `ws`, into x_next (which may be x; when
/// it is another State, it is sized as x on first use, which allocates). Semi-implicit Euler on
/// the group at the velocity level (this header's comment):
///     v_free = ν̄ + dt M⁻¹ (τ̄ − h),   G = J M⁻¹ Jᵀ,   g = J v_free + b,
///     λ: the frictional contact problem (ws.points' μ) by settings.solver,
///     ν̄⁺ = v_free + M⁻¹ Jᵀ λ,   (H, s)⁺ = (H, s) ⊕ dt ν̄⁺.
/// J: three rows per active contact, the velocity of the body's point at the contact point in the
/// contact frame (origin there, axes ContactPoint::axes, fixed in A): tangential, tangential,
/// normal. λ: the impulses on the robot in those frames. M comes from crba and its tree-sparse
/// factorization M = Lᵀ D L (ltdl.hpp), G = (L⁻ᵀJᵀ)ᵀ D⁻¹ (L⁻ᵀJᵀ), exactly symmetric; no inverse is
/// formed. The solve starts from ws.warm_start_impulse when solver_settings.warm_start.
///
/// Writes the per-contact results into ws (gap, impulse, contact_velocity, active,
/// velocity_after, warm_start_impulse) and returns the solver's report: an unconverged solve is
/// reported (converged false), and the step still taken with its last iterate.
///
/// Throws InvalidArgument ("liedyn: contact_step: …") for dt not finite and > 0, a state or tau
/// with a non-finite entry, wrong sizes, a workspace built for another model, settings out of
/// range (margin < 0, penetration_recovery or restitution outside [0, 1]), and what the solver
/// refuses.
/// Cost: crba and the factorization (O(Σ depth²)), h (O(n)), per active contact a frame Jacobian
/// (O(6 nv)) and O(nv depth) for L⁻ᵀJᵀ, G in O(m² nv) (m = 3 n_active), the solve.
template <class S, class Derived>
ContactStepResult<S> contact_step(const Model<S>& model, ContactStepWorkspace<S>& ws,
                                  const State<S>& x, const Eigen::MatrixBase<Derived>& tau,
                                  const S& dt, State<S>& x_next,
                                  const ContactStepSettings<S>& settings = {}) {
  const char* who = "contact_step";
  detail::contact_step::check_arguments(who, model, ws, x, tau, dt, settings);
  Data<S>& data = ws.data;
  detail::contact_step::free_velocity(model, ws, x, tau, dt);
  const int m = detail::contact_step::active_contact_rows(model, ws, x, dt, settings);
  const int na = m / 3;
  detail::contact_step::delassus_from_factors(model, ws, m);

  ContactStepResult<S> result;
  result.active_contacts = na;
  FrictionalContactSettings<S> solver_settings = settings.solver_settings;
  const auto G = ws.delassus.topLeftCorner(m, m);
  if (settings.solver == ContactSolver::Pgs)
    result.solver = frictional_contact_pgs<S>(G, ws.free_contact_velocity.head(m),
                                              ws.friction.head(na), ws.solver, ws.lambda.head(m),
                                              ws.solved_velocity.head(m), solver_settings);
  else
    result.solver = frictional_contact_admm<S>(G, ws.free_contact_velocity.head(m),
                                               ws.friction.head(na), ws.solver, ws.lambda.head(m),
                                               ws.solved_velocity.head(m), solver_settings);
  result.converged = result.solver.converged;

  // ν̄⁺ = v_free + M⁻¹ Jᵀ λ.
  ws.response.noalias() = ws.J.topRows(m).transpose() * ws.lambda.head(m);
  ltdl_solve(model, data, ws.response);
  ws.velocity_after = ws.free_velocity + ws.response;
  detail::contact_step::scatter_contact_results(ws, na);
  detail::contact_step::integrate_step(model, ws, x, dt, x_next);
  return result;
}

}  // namespace liedyn
