// liedyn — arithmetic: the frictional contact problem on matrices — Coulomb friction at nc point
// contacts, as a nonlinear complementarity problem (NCP) on the Delassus matrix, solved by ADMM
// (the default) or by projected Gauss–Seidel (the baseline). Like constrained_solvers.hpp these
// solvers know nothing of the tree: they take G, g and the friction coefficients.
//
// The problem (docs/frictional-contacts.md). Contact i has a 3-block of every vector, in its
// contact frame, TANGENTIAL FIRST AND NORMAL LAST: λ_i = [λ_t1, λ_t2, λ_n] (the impulse, or force,
// the environment applies on the robot at the contact), c_i = [c_t1, c_t2, c_n] (the contact
// point's velocity relative to the environment; c_n > 0 separates). With
//     c = G λ + g,     G (3nc × 3nc, symmetric positive semidefinite: J M⁻¹ Jᵀ),
//                      g (3nc: the free velocity, J(v + Δt M⁻¹(τ − h)) in a time step),
// find λ in the product of friction cones K = Π K_i, K_i = {λ_n ≥ 0, ‖λ_t‖ ≤ μ_i λ_n}, with
//     K ∋ λ  ⊥  c + Γ(c) ∈ K*,     Γ(c)_i = [0, 0, μ_i ‖c_t,i‖]            (De Saxcé's correction)
// K* the dual cone, K*_i = {μ_i ‖σ_t‖ ≤ σ_n}. Per contact this is Coulomb's law with Signorini's
// condition: separating (λ_i = 0, c_n ≥ 0), sticking (λ_i inside the cone, c_i = 0) or sliding
// (λ_i on the cone's boundary, c_n = 0, λ_t = −μ_i λ_n c_t/‖c_t‖: maximal dissipation) — De Saxcé
// and Feng 1998; Acary and Brogliato 2008, ch. 13.
//
// Each solver writes λ and c = G λ + g into vectors the caller passes (as constrained_solvers.hpp
// does: the call allocates nothing once the workspace exists) and returns a FrictionalContactResult
// with the same three residuals of the returned (λ, c) for both solvers, and whether they met the
// tolerances. Every scalar type with std::sqrt works (float, double, long double).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Core>

#include "liedyn/arithmetic/dense.hpp"
#include "liedyn/arithmetic/types.hpp"
#include "liedyn/config.hpp"

namespace liedyn {

namespace detail {
namespace frictional {
/// The default tolerance of S: 0.01 √ε (1.5e-10 in double, 3.5e-6 in float), well above the
/// residuals' rounding floor (a few ε ‖G‖‖λ‖) and below what a simulation step notices.
template <class S>
S default_tolerance() {
  using std::sqrt;
  return S(0.01) * sqrt(dense::epsilon<S>());
}
/// √ε of S, FrictionalContactSettings::symmetry_tolerance's default.
template <class S>
S default_symmetry_tolerance() {
  using std::sqrt;
  return sqrt(dense::epsilon<S>());
}
}  // namespace frictional
}  // namespace detail

/// Settings of frictional_contact_admm and frictional_contact_pgs.
///
/// A solve has converged when the residuals of its (λ, c) (FrictionalContactResult) satisfy
///     primal ≤ absolute_tolerance + relative_tolerance ‖λ‖_∞,
///     dual, complementarity ≤ absolute_tolerance + relative_tolerance max(‖g‖_∞, ‖G λ‖_∞):
/// the absolute tolerance is in the units of each residual (force or impulse for the primal,
/// velocity for the other two).
template <class S>
struct FrictionalContactSettings {
  /// Absolute part of the stopping test (see above).
  S absolute_tolerance = detail::frictional::default_tolerance<S>();
  /// Relative part of the stopping test (see above).
  S relative_tolerance = detail::frictional::default_tolerance<S>();
  /// Iteration limit (ADMM iterations, or PGS sweeps over all contacts); at least 1.
  int max_iterations = 1000;
  /// Start from the λ passed in (projected on K) instead of zero: the previous time step's λ.
  bool warm_start = false;
  /// ADMM: the initial penalty ρ relative to the mean diagonal entry of G (scale-free). ρ weighs
  /// the consensus of the unconstrained and projected iterates against the dual residual.
  S rho_initial = S(1);
  /// ADMM: adapt ρ from the ratio of the relative primal and dual residuals (residual balancing).
  bool adaptive_rho = true;
  /// ADMM: ρ is rescaled by √ratio when the ratio of the relative primal to dual residual leaves
  /// [1/rho_update_ratio, rho_update_ratio]; each change costs a factorization of G + ρI.
  S rho_update_ratio = S(5);
  /// ADMM: fewest iterations between two changes of ρ (a change needs iterations to show; changed
  /// more often, ρ oscillates on ill-conditioned G).
  int rho_update_interval = 30;
  /// ADMM: the over-relaxation α in (0, 2) of the z and y steps (Boyd et al. 2011, §3.4.3):
  /// x̂ = α x + (1 − α) z replaces x there. 1 is plain ADMM; 1.6, within Boyd's advice of 1.5–1.8,
  /// takes fewer iterations on contact problems too (BENCHMARKS.md, "Design measurements").
  S over_relaxation = S(1.6);
  /// PGS: the over-relaxation ω of each block update, in (0, 2); 1 is plain Gauss–Seidel.
  S relaxation = S(1);
  /// Largest accepted |G_ij − G_ji| relative to max |G_kl|. A computed J M⁻¹ Jᵀ is symmetric to
  /// about κ(M) ε, below the default √ε for κ(M) below 1/√ε (7e7 in double).
  S symmetry_tolerance = detail::frictional::default_symmetry_tolerance<S>();
};

/// What frictional_contact_admm or frictional_contact_pgs did, and how well the returned (λ, c)
/// solve the problem. The three residuals are those of the returned λ and c = G λ + g, the same
/// for both solvers, with σ_i = c_i + Γ(c)_i:
///  * primal: max_i of the distance of λ_i from its cone K_i (0 for both solvers: they project);
///  * dual: max_i of the distance of σ_i from the dual cone K*_i (Signorini: c_n ≥ 0 where
///    λ_i = 0; Coulomb: c_i = 0 where λ_i is inside the cone);
///  * complementarity: max_i |λ_iᵀ σ_i| / ‖λ‖_∞ (0 when λ = 0), in velocity units: with both in
///    their cones it vanishes exactly when each contact separates, sticks, or slides against its
///    force (maximal dissipation).
template <class S>
struct FrictionalContactResult {
  int iterations = 0;                 ///< ADMM iterations or PGS sweeps taken
  S primal_residual = S(0);           ///< cone violation of λ (force units)
  S dual_residual = S(0);             ///< dual-cone violation of c + Γ(c) (velocity units)
  S complementarity_residual = S(0);  ///< max_i |λ_iᵀ σ_i| / ‖λ‖_∞ (velocity units)
  S rho = S(0);                       ///< ADMM: the absolute penalty ρ at the end (0 for PGS)
  int factorizations = 0;             ///< ADMM: factorizations of G + ρI (1 + ρ changes)
  /// The residuals met the settings' tolerances. False when max_iterations ran out first or the
  /// iterates diverged (NaN residuals): the returned λ is then the last iterate, not a solution.
  bool converged = false;
};

/// Workspace of frictional_contact_admm and frictional_contact_pgs for at most max_contacts
/// contacts (3 max_contacts rows). Its contents are scratch: nothing carries over between calls.
template <class S>
struct FrictionalContactWorkspace {
  /// Sizes everything for at most max_contacts contacts.
  explicit FrictionalContactWorkspace(int max_contacts)
      : max_contacts(max_contacts),
        factor(3 * max_contacts, 3 * max_contacts),
        unconstrained(3 * max_contacts),
        projected(3 * max_contacts),
        previous(3 * max_contacts),
        dual(3 * max_contacts),
        shift(3 * max_contacts),
        velocity(3 * max_contacts),
        rhs(3 * max_contacts) {}
  int max_contacts;          ///< largest number of contacts
  MatrixX<S> factor;         ///< ADMM: Cholesky factor of G + ρ I
  VectorX<S> unconstrained;  ///< ADMM: x, the iterate of the linear step
  VectorX<S> projected;      ///< ADMM: z, the iterate projected on K
  VectorX<S> previous;       ///< ADMM: z of the previous iteration
  VectorX<S> dual;           ///< ADMM: y, the multiplier of x = z (−y tends to c + Γ(c))
  VectorX<S> shift;     ///< ADMM: Γ(−y), De Saxcé's correction; PGS: the normal steps 1/G_nn
  VectorX<S> velocity;  ///< ADMM: c = G z + g of the current iterate; PGS: scratch
  VectorX<S> rhs;       ///< ADMM: scratch right-hand side; PGS: the tangential steps 1/ℓ_i
};

namespace detail {
namespace frictional {

template <class S>
bool is_finite(const S& x) {
  return x - x == S(0);  // NaN − NaN and ∞ − ∞ are NaN
}

// Projects the 3-block v = [t1, t2, n] (in place) on the circular cone {n ≥ 0, p ‖t‖ ≤ q n}
// (p, q ≥ 0, not both 0): K_μ is (p, q) = (1, μ), its dual K*_μ is (μ, 1). Its polar cone is
// {q ‖t‖ ≤ −p n}; between the two, v goes to the boundary ray along (q t/‖t‖, p)/√(p² + q²).
template <class S, class Block>
void project_on_cone(const S& p, const S& q, Block&& v) {
  using std::sqrt;
  const S t = sqrt(v(0) * v(0) + v(1) * v(1)), n = v(2);
  if (p * t <= q * n && n >= S(0)) return;
  if (q * t <= -p * n) {
    v.setZero();
    return;
  }
  // Here t > 0 (t = 0 falls in one of the two cases above).
  const S r2 = p * p + q * q;
  const S beta = (q * t + p * n) / r2;  // the length along the unnormalized ray (q dir, p)
  const S tangential_scale = beta * q / t;
  v(0) *= tangential_scale;
  v(1) *= tangential_scale;
  v(2) = beta * p;
}

// Distance of the 3-block v from the cone (p, q) (see project_on_cone).
template <class S, class Block>
S distance_to_cone(const S& p, const S& q, const Block& v) {
  Vector3<S> w = v;
  project_on_cone<S>(p, q, w);
  return (w - v).norm();
}

// The residuals of (λ, c) (FrictionalContactResult) and the stopping test, O(nc).
template <class S>
void measure(const Eigen::Ref<const VectorX<S>>& mu, const Eigen::Ref<const VectorX<S>>& lambda,
             const Eigen::Ref<const VectorX<S>>& velocity, const S& velocity_scale,
             const FrictionalContactSettings<S>& settings, FrictionalContactResult<S>& result) {
  using std::abs;
  using std::sqrt;
  const Eigen::Index nc = mu.size();
  S primal(0), dual(0), complementarity(0);
  // The largest so far, NaN sticking (std::max would drop it): a diverged solve is not converged.
  auto worst = [](S& largest, const S& value) {
    if (largest == largest && !(value <= largest)) largest = value;
  };
  S force_scale(0);
  for (Eigen::Index i = 0; i < lambda.size(); ++i) worst(force_scale, S(abs(lambda(i))));
  for (Eigen::Index i = 0; i < nc; ++i) {
    const auto l = lambda.template segment<3>(3 * i);
    const auto c = velocity.template segment<3>(3 * i);
    Vector3<S> sigma = c;
    sigma(2) += mu(i) * sqrt(c(0) * c(0) + c(1) * c(1));
    worst(primal, distance_to_cone<S>(S(1), mu(i), l));
    worst(dual, distance_to_cone<S>(mu(i), S(1), sigma));
    worst(complementarity, S(abs(l.dot(sigma))));
  }
  result.primal_residual = primal;
  result.dual_residual = dual;
  result.complementarity_residual =
      force_scale == S(0) ? S(0) : S(complementarity / force_scale);  // NaN stays NaN
  const S force_bound = settings.absolute_tolerance + settings.relative_tolerance * force_scale;
  const S velocity_bound =
      settings.absolute_tolerance + settings.relative_tolerance * velocity_scale;
  result.converged = result.primal_residual <= force_bound &&
                     result.dual_residual <= velocity_bound &&
                     result.complementarity_residual <= velocity_bound;
}

// Γ(c) of De Saxcé: [0, 0, μ_i ‖c_t,i‖] per contact.
template <class S, class Out>
void de_saxce_shift(const Eigen::Ref<const VectorX<S>>& mu, const Out& velocity, Out& shift) {
  using std::sqrt;
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    const S ct1 = velocity(3 * i), ct2 = velocity(3 * i + 1);
    shift(3 * i) = S(0);
    shift(3 * i + 1) = S(0);
    shift(3 * i + 2) = mu(i) * sqrt(ct1 * ct1 + ct2 * ct2);
  }
}

// The argument checks both solvers share.
template <class S>
void check_arguments(const char* who, const FrictionalContactWorkspace<S>& ws,
                     const Eigen::Ref<const MatrixX<S>>& G, const Eigen::Ref<const VectorX<S>>& g,
                     const Eigen::Ref<const VectorX<S>>& mu,
                     const Eigen::Ref<const VectorX<S>>& lambda,
                     const Eigen::Ref<const VectorX<S>>& velocity,
                     const FrictionalContactSettings<S>& settings) {
  using std::abs;
  const Eigen::Index nc = mu.size(), m = 3 * nc;
  LIEDYN_CHECK(nc <= ws.max_contacts, std::string(who) + ": mu has " + std::to_string(nc) +
                                          " contacts, more than the workspace's max_contacts = " +
                                          std::to_string(ws.max_contacts));
  LIEDYN_CHECK_DIMS(who, "G", G, m, m);
  LIEDYN_CHECK_SIZE(who, "g", g, m);
  LIEDYN_CHECK_SIZE(who, "lambda", lambda, m);
  LIEDYN_CHECK_SIZE(who, "velocity", velocity, m);
  LIEDYN_CHECK(settings.max_iterations >= 1,
               std::string(who) + ": max_iterations must be at least 1");
  LIEDYN_CHECK(settings.absolute_tolerance >= S(0) && settings.relative_tolerance >= S(0),
               std::string(who) + ": the tolerances must be non-negative");
  LIEDYN_CHECK(settings.rho_initial > S(0) && is_finite(settings.rho_initial),
               std::string(who) + ": rho_initial must be positive and finite");
  LIEDYN_CHECK(settings.rho_update_ratio > S(1),
               std::string(who) + ": rho_update_ratio must exceed 1");
  LIEDYN_CHECK(settings.relaxation > S(0) && settings.relaxation < S(2),
               std::string(who) + ": relaxation must lie in (0, 2)");
  LIEDYN_CHECK(settings.over_relaxation > S(0) && settings.over_relaxation < S(2),
               std::string(who) + ": over_relaxation must lie in (0, 2)");
  for (Eigen::Index i = 0; i < nc; ++i)
    LIEDYN_CHECK(mu(i) >= S(0) && is_finite(mu(i)),
                 std::string(who) + ": mu(" + std::to_string(i) + ") is negative or not finite");
  for (Eigen::Index i = 0; i < m; ++i)
    LIEDYN_CHECK(is_finite(g(i)),
                 std::string(who) + ": g(" + std::to_string(i) + ") is not finite");
  if (settings.warm_start)
    for (Eigen::Index i = 0; i < m; ++i)
      LIEDYN_CHECK(is_finite(lambda(i)), std::string(who) + ": the warm start lambda(" +
                                             std::to_string(i) + ") is not finite");
  // One pass over G (the cost of one iteration): a NaN would otherwise run to max_iterations, and
  // the solvers' convergence rests on G = Gᵀ.
  S largest(0);
  for (Eigen::Index j = 0; j < m; ++j)
    for (Eigen::Index i = 0; i < m; ++i) {
      LIEDYN_CHECK(is_finite(G(i, j)), std::string(who) + ": G(" + std::to_string(i) + ", " +
                                           std::to_string(j) + ") is not finite");
      largest = std::max(largest, S(abs(G(i, j))));
    }
  const S allowed = settings.symmetry_tolerance * largest;
  for (Eigen::Index j = 0; j < m; ++j)
    for (Eigen::Index i = j + 1; i < m; ++i)
      LIEDYN_CHECK(abs(G(i, j) - G(j, i)) <= allowed,
                   std::string(who) + ": G is not symmetric: G(" + std::to_string(i) + ", " +
                       std::to_string(j) + ") differs from G(" + std::to_string(j) + ", " +
                       std::to_string(i) + ") by more than symmetry_tolerance");
}

// λ ← Π_K(λ) (warm start) or 0.
template <class S, class Out>
void initial_impulse(const Eigen::Ref<const VectorX<S>>& mu,
                     const FrictionalContactSettings<S>& settings, Out& lambda) {
  if (!settings.warm_start) {
    lambda.setZero();
    return;
  }
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    project_on_cone<S>(S(1), mu(i), lambda.template segment<3>(3 * i));
}

// c = G z + g, its De Saxcé shift s = Γ(c) and the dual y = −Π_{K*}(c + Γ(c)) of an initial z,
// so that an exact initial z is ADMM's fixed point.
template <class S, class Z, class C, class Shift, class Y>
void admm_initial_dual(const Eigen::Ref<const MatrixX<S>>& G, const Eigen::Ref<const VectorX<S>>& g,
                       const Eigen::Ref<const VectorX<S>>& mu, const Z& z, C& c, Shift& s, Y& y) {
  c.noalias() = G * z;
  c += g;
  de_saxce_shift<S>(mu, c, s);
  y = c + s;
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    project_on_cone<S>(mu(i), S(1), y.template segment<3>(3 * i));
  y = -y;
}

// One ADMM iteration (see frictional_contact_admm) on the iterates in ws (3nc entries each):
// the x-step with the factor of G + ρI in ws.factor, the relaxed projection, the dual update,
// c = G z + g and the shift from the dual iterate; returns ‖G z‖∞.
template <class S>
S admm_iteration(const Eigen::Ref<const MatrixX<S>>& G, const Eigen::Ref<const VectorX<S>>& g,
                 const Eigen::Ref<const VectorX<S>>& mu, S rho, S alpha,
                 FrictionalContactWorkspace<S>& ws) {
  const Eigen::Index nc = mu.size(), m = 3 * nc;
  auto x = ws.unconstrained.head(m);
  auto z = ws.projected.head(m);
  auto z_previous = ws.previous.head(m);
  auto y = ws.dual.head(m);
  auto s = ws.shift.head(m);
  auto c = ws.velocity.head(m);
  auto rhs = ws.rhs.head(m);
  rhs = rho * z - y - g - s;
  dense::cholesky_solve_in_place<S>(ws.factor.topLeftCorner(m, m), rhs);
  x = rhs;
  // With the relaxed x̂ = α x + (1 − α) z_previous (Boyd et al. 2011, §3.4.3):
  // z = Π_K(x̂ + y/ρ), y ← ρ (x̂ + y/ρ − z) = y + ρ (x̂ − z).
  z_previous = z;
  z = alpha * x + (S(1) - alpha) * z_previous + y / rho;
  y = z;
  for (Eigen::Index i = 0; i < nc; ++i)
    project_on_cone<S>(S(1), mu(i), z.template segment<3>(3 * i));
  y = rho * (y - z);
  c.noalias() = G * z;
  const S gz_norm = dense::max_abs(c);
  c += g;
  // The shift from the dual iterate, −y → c + Γ(c) (whose tangential part is c_t): y moves by
  // ρ (x̂ − z) per iteration, so the shift follows the iterates smoothly. Taken from c = G z + g
  // instead, it jumps with z and fed back into the linear step made ADMM diverge for small ρ
  // and stall on ill-conditioned G.
  de_saxce_shift<S>(mu, y, s);
  return gz_norm;
}

// ρ rescaled by the square root of the ratio of the relative residuals (OSQP's scaling): the
// primal one of the consensus x = z (force units), the dual one ρ (z − z_previous) =
// −(G x + g + s + y) of the x-step's optimality (velocity units); their ratio is scale-free. ρ
// itself while the ratio stays within [1/r, r]. `scratch` (m) is overwritten.
template <class S, class V, class Scratch>
S admm_rescaled_rho(const V& x, const V& z, const V& z_previous, const V& y, S rho,
                    S velocity_scale, const FrictionalContactSettings<S>& settings,
                    Scratch& scratch) {
  using std::sqrt;
  const S tiny = std::numeric_limits<S>::min();
  scratch = x - z;
  const S primal = dense::max_abs(scratch) / std::max({dense::max_abs(x), dense::max_abs(z), tiny});
  scratch = z - z_previous;
  const S dual =
      rho * dense::max_abs(scratch) / std::max({velocity_scale, dense::max_abs(y), tiny});
  const S ratio = dual > S(0) ? S(primal / dual) : S(1e6);
  if (!(ratio > settings.rho_update_ratio || ratio * settings.rho_update_ratio < S(1))) return rho;
  const S factor = std::min(std::max(S(sqrt(ratio)), S(1e-3)), S(1e3));
  return rho * factor;
}

// The PGS step lengths of each contact: 1/G_nn and 1/ℓ_i, ℓ_i = λ_max(G_tt) in closed form.
template <class S, class Steps>
void pgs_step_lengths(const char* who, const Eigen::Ref<const MatrixX<S>>& G,
                      const Eigen::Ref<const VectorX<S>>& mu, Steps& normal_step,
                      Steps& tangential_step) {
  using std::sqrt;
  (void)who;
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    const Eigen::Index r = 3 * i;
    LIEDYN_CHECK(G(r + 2, r + 2) > S(0), std::string(who) +
                                             ": G's normal diagonal entry of contact " +
                                             std::to_string(i) + " is not positive");
    normal_step(i) = S(1) / G(r + 2, r + 2);
    const S a = G(r, r), b = G(r, r + 1), d = G(r + 1, r + 1);
    const S half_difference = (a - d) / S(2);
    const S largest = (a + d) / S(2) + sqrt(half_difference * half_difference + b * b);
    LIEDYN_CHECK(mu(i) == S(0) || largest > S(0), std::string(who) +
                                                      ": G's tangential block of contact " +
                                                      std::to_string(i) + " is zero while mu > 0");
    tangential_step(i) = largest > S(0) ? S(S(1) / largest) : S(0);
  }
}

// One PGS visit of contact i (see frictional_contact_pgs): the normal step, then the tangential
// one inside the disk of radius μ λ_n, with c = G λ + g kept current by the changed columns.
template <class S, class Lambda, class C>
void pgs_visit(const Eigen::Ref<const MatrixX<S>>& G, S mu, S normal_step, S tangential_step,
               S omega, Eigen::Index i, Lambda& lambda, C& c) {
  using std::sqrt;
  const Eigen::Index r = 3 * i;
  const S normal = std::max(S(0), S(lambda(r + 2) - omega * c(r + 2) * normal_step));
  const S normal_change = normal - lambda(r + 2);
  if (normal_change != S(0)) {
    lambda(r + 2) = normal;
    c += normal_change * G.col(r + 2);
  }
  S t1 = lambda(r) - omega * c(r) * tangential_step;
  S t2 = lambda(r + 1) - omega * c(r + 1) * tangential_step;
  const S radius = mu * normal, length = sqrt(t1 * t1 + t2 * t2);
  if (length > radius) {
    const S scale = length > S(0) ? S(radius / length) : S(0);
    t1 *= scale;
    t2 *= scale;
  }
  const S change1 = t1 - lambda(r), change2 = t2 - lambda(r + 1);
  if (change1 != S(0) || change2 != S(0)) {
    lambda(r) = t1;
    lambda(r + 1) = t2;
    c += change1 * G.col(r) + change2 * G.col(r + 1);
  }
}

}  // namespace frictional
}  // namespace detail

/// Solves the frictional contact problem of this header's comment by ADMM on the NCP with De
/// Saxcé's correction (Carpentier, Le Lidec et al., "From compliant to rigid contact simulation: a
/// unified and efficient approach", RSS 2024; ADMM: Boyd et al. 2011, §3). G (3nc × 3nc, symmetric
/// positive semidefinite; singular is fine, e.g. more contact rows than degrees of freedom), g
/// (3nc) and mu (nc, each ≥ 0) in the contact frames, normal last in each 3-block. Writes λ (3nc)
/// and velocity = c = G λ + g (3nc); with settings.warm_start, λ on entry is the initial guess.
///
/// With the shift s = Γ(c) frozen, the problem is the cone-constrained QP
/// min ½ λᵀGλ + λᵀ(g + s), λ ∈ K; ADMM splits it as x = z, z ∈ K, and iterates
///     (G + ρI) x = ρ z − y − g − s,              x̂ = α x + (1 − α) z       (over-relaxation),
///     z ← Π_K(x̂ + y/ρ),   y ← y + ρ (x̂ − z),     s ← Γ(−y),
/// so that z ∈ K, −y ∈ K* and zᵀy = 0 hold at every iterate (Moreau's decomposition) and the
/// fixed point has −y = G z + g + s with s = Γ(−y) = Γ(c) (Γ reads only the tangential part,
/// and −y_t = c_t there): the NCP. The shift follows the dual iterate, which moves smoothly, not
/// c = G z + g, which jumps with z (that variant stalls on ill-conditioned G and can diverge).
/// The warm start sets y = −Π_{K*}(c + Γ(c)) of the initial z, so that an exact initial λ is a
/// fixed point (and one that meets the tolerance costs no iteration). ρ starts at rho_initial
/// times the mean diagonal entry of G and, with adaptive_rho, is rescaled by the square root of
/// the ratio of the relative residuals ‖x − z‖/max(‖x‖, ‖z‖) and
/// ρ‖z − z_previous‖/max(‖g‖, ‖G z‖, ‖y‖) when it leaves [1/r, r] (r = rho_update_ratio; the
/// rule of OSQP, Stellato et al. 2020), within [1e-8, 1e8] times that mean. Returns λ = z, which
/// lies in K exactly; a diverged iterate (non-finite residuals) stops the iterations, unconverged.
///
/// Cost: m³/3 per factorization of G + ρI (m = 3nc), 2m² per iteration (one solve, one G z).
/// Convergence is not guaranteed for the NCP (De Saxcé's shift makes it non-convex); the result
/// says whether the tolerances were met.
template <class S>
FrictionalContactResult<S> frictional_contact_admm(
    const Eigen::Ref<const MatrixX<S>>& G, const Eigen::Ref<const VectorX<S>>& g,
    const Eigen::Ref<const VectorX<S>>& mu, FrictionalContactWorkspace<S>& ws,
    Eigen::Ref<VectorX<S>> lambda, Eigen::Ref<VectorX<S>> velocity,
    const FrictionalContactSettings<S>& settings = {}) {
  const char* who = "frictional_contact_admm";
  detail::frictional::check_arguments<S>(who, ws, G, g, mu, lambda, velocity, settings);
  const Eigen::Index nc = mu.size(), m = 3 * nc;
  FrictionalContactResult<S> result;
  if (nc == 0) {
    result.converged = true;
    return result;
  }
  S unit = G.trace() / S(m);
  if (!(unit > S(0))) unit = S(1);  // G = 0: no contact moves; any ρ does
  const S rho_min = S(1e-8) * unit, rho_max = S(1e8) * unit;
  S rho = std::min(std::max(S(settings.rho_initial * unit), rho_min), rho_max);

  auto x = ws.unconstrained.head(m);
  auto z = ws.projected.head(m);
  auto z_previous = ws.previous.head(m);
  auto y = ws.dual.head(m);
  auto s = ws.shift.head(m);
  auto c = ws.velocity.head(m);
  auto rhs = ws.rhs.head(m);
  auto L = ws.factor.topLeftCorner(m, m);

  z = lambda;
  detail::frictional::initial_impulse<S>(mu, settings, z);
  detail::frictional::admm_initial_dual<S>(G, g, mu, z, c, s, y);

  auto factorize = [&] {
    L = G;
    L.diagonal().array() += rho;
    const bool positive = detail::dense::cholesky_in_place<S>(L, S(0));
    LIEDYN_CHECK(positive, std::string(who) +
                               ": G + rho I is not positive definite (G is not "
                               "positive semidefinite, or its entries overflow)");
    (void)positive;
    ++result.factorizations;
  };
  const S g_norm = detail::dense::max_abs(g);
  const S alpha = settings.over_relaxation;
  if (settings.warm_start) {  // a warm start that already solves the problem costs no iteration
    rhs.noalias() = G * z;
    detail::frictional::measure<S>(mu, z, c, std::max(g_norm, detail::dense::max_abs(rhs)),
                                   settings, result);
    if (result.converged) {
      lambda = z;
      velocity = c;
      return result;
    }
  }
  factorize();
  int last_update = 0;
  for (int k = 1; k <= settings.max_iterations; ++k) {
    result.iterations = k;
    const S gz_norm = detail::frictional::admm_iteration<S>(G, g, mu, rho, alpha, ws);
    const S velocity_scale = std::max(g_norm, gz_norm);
    detail::frictional::measure<S>(mu, z, c, velocity_scale, settings, result);
    if (result.converged) break;
    if (!detail::frictional::is_finite(
            S(result.primal_residual + result.dual_residual + result.complementarity_residual)))
      break;  // diverged: reported as it is, unconverged
    if (settings.adaptive_rho && k - last_update >= settings.rho_update_interval) {
      const S next = detail::frictional::admm_rescaled_rho<S>(x, z, z_previous, y, rho,
                                                              velocity_scale, settings, rhs);
      const S clamped = std::min(std::max(next, rho_min), rho_max);
      if (clamped != rho) {
        rho = clamped;
        factorize();
        last_update = k;
      }
    }
  }
  lambda = z;
  velocity = c;
  result.rho = rho;
  return result;
}

/// Solves the frictional contact problem of this header's comment by projected Gauss–Seidel, the
/// classical baseline (Moreau 1988; Jean 1999; the block scheme of Acary and Brogliato 2008,
/// ch. 13). Arguments and outputs as frictional_contact_admm. Needs G_nn > 0 at every contact, and
/// trace(G_tt) > 0 where μ > 0 (a contact whose velocity its own force cannot change is refused).
///
/// Each sweep visits the contacts in order; at contact i, with c = G λ + g current,
///     λ_n ← max(0, λ_n − ω c_n / G_nn),   then   λ_t ← Π_{‖·‖ ≤ μ λ_n}(λ_t − ω c_t / ℓ_i),
/// ℓ_i the largest eigenvalue of the 2 × 2 tangential block G_tt, and c is updated by the three
/// changed columns of G. A scalar tangential step (not G_tt⁻¹) makes every fixed point satisfy
/// maximal dissipation exactly (c_t anti-parallel to λ_t on the boundary), and the separate normal
/// step gives c_n = 0 while sliding: the fixed points are the NCP's solutions. c is recomputed as
/// G λ + g at the end (the running update drifts by rounding), and the result's residuals are
/// those of that c.
///
/// Cost: m² per sweep (m = 3nc), nothing to factor. Convergence is linear and slows with the
/// coupling between contacts (a badly conditioned or singular G); the result says whether the
/// tolerances were met.
template <class S>
FrictionalContactResult<S> frictional_contact_pgs(
    const Eigen::Ref<const MatrixX<S>>& G, const Eigen::Ref<const VectorX<S>>& g,
    const Eigen::Ref<const VectorX<S>>& mu, FrictionalContactWorkspace<S>& ws,
    Eigen::Ref<VectorX<S>> lambda, Eigen::Ref<VectorX<S>> velocity,
    const FrictionalContactSettings<S>& settings = {}) {
  const char* who = "frictional_contact_pgs";
  detail::frictional::check_arguments<S>(who, ws, G, g, mu, lambda, velocity, settings);
  const Eigen::Index nc = mu.size(), m = 3 * nc;
  FrictionalContactResult<S> result;
  if (nc == 0) {
    result.converged = true;
    return result;
  }
  auto normal_step = ws.shift.head(nc);
  auto tangential_step = ws.rhs.head(nc);
  detail::frictional::pgs_step_lengths<S>(who, G, mu, normal_step, tangential_step);
  const S omega = settings.relaxation;
  detail::frictional::initial_impulse<S>(mu, settings, lambda);
  auto& c = velocity;  // the running c = G λ + g
  c.noalias() = G * lambda;
  c += g;
  const S g_norm = detail::dense::max_abs(g);
  auto Gl = ws.velocity.head(m);
  if (settings.warm_start) {  // a warm start that already solves the problem costs no sweep
    Gl = c - g;
    detail::frictional::measure<S>(mu, lambda, c, std::max(g_norm, detail::dense::max_abs(Gl)),
                                   settings, result);
    if (result.converged) return result;
  }
  for (int k = 1; k <= settings.max_iterations; ++k) {
    result.iterations = k;
    for (Eigen::Index i = 0; i < nc; ++i)
      detail::frictional::pgs_visit<S>(G, mu(i), normal_step(i), tangential_step(i), omega, i,
                                       lambda, c);
    Gl = c - g;
    detail::frictional::measure<S>(mu, lambda, c, std::max(g_norm, detail::dense::max_abs(Gl)),
                                   settings, result);
    if (result.converged) break;
  }
  // The exact c of the returned λ, and the result's residuals from it.
  c.noalias() = G * lambda;
  const S gl_norm = detail::dense::max_abs(c);
  c += g;
  detail::frictional::measure<S>(mu, lambda, c, std::max(g_norm, gl_norm), settings, result);
  return result;
}

}  // namespace liedyn
