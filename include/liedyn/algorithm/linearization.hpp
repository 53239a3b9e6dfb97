// liedyn — algorithm: the singularity-free linearization of the forward dynamics of a moving-base
// robot on its Lie group, δẋ = A δx + B δτ̄, continuous and discrete time (docs/conventions.md §4).
//
// State perturbation δx = (η, δs, δt, δr) ∈ R^{12+2n}: H = H̄ exp(η^) (η linear first, left-
// trivialized), t the base twist in the chosen representation (Body ν — native —, Inertial
// w = ^AX_0 ν, or Mixed m = blockdiag(R, R) ν); for a welded base δx = (δs, δr). Input δτ̄ ∈ R^nv:
// all generalized forces, base wrench (base frame) first. For a free-floating robot keep
// B.rightCols(n); for a base driven through an actuation matrix S (τ̄ = S u: rotor thrusts,
// thrusters) use B S — linearize_actuated does both. No Euler angles anywhere.
//
// Continuous time, with a = ν̇ the body acceleration from FD(x, τ̄), K = [D1 D2 D3 D4] of
// eidamb_derivatives in the same representation (evaluated at the FD accelerations), and
// ∂ν/∂η|_t = N_η, ∂ν/∂t = N_t, t = T ν:
//   η̇  = (N_η − ad_ν) η + N_t δt
//   δṡ_i = −ad(r̄_i) δs_i + δr_i   each joint's deviation on its own group (δṡ_i = δr_i for the
//                                   vector-space joints: screws, universal)
//   δṫ = T (−M⁻¹K)_base δx + G_η η + G_t δt + T (M⁻¹)_base δτ̄
//   δṙ = (−M⁻¹K)_joints δx + (M⁻¹)_joints δτ̄
// Body: N_η = 0, N_t = T = I, G = 0 — the A of docs/conventions.md §4. Inertial: N_η = ad_ν,
// N_t = ^0X_A, T = ^AX_0, G_η = −^AX_0 ad_a. Mixed: N_η = [0, v^; 0, ω^], N_t = blockdiag(Rᵀ, Rᵀ),
// T = blockdiag(R, R), G_η = [0, −R a_lin^; 0, −R a_ang^], G_t = [m_ang^, −m_lin^; 0, 0].
//
// M⁻¹ is applied either densely (M⁻¹ from the sparse LᵀDL factors of the derivative pass's own
// M — ltdl.hpp — times K, skipping the zeros of D2 and D4 outside the tree's ancestor/subtree
// pattern and using M⁻¹ D1 in closed form: O(nv · nnz(K)); for double on x86-64 its inner
// product runs with AVX2/FMA when the processor has them, chosen at run time) or by AZA sweeps
// (aza.hpp: O(nv²), no explicit M⁻¹ product); MinvMethod::Automatic picks by size (BENCHMARKS.md
// compares the routes). The dense route's M⁻¹ carries the rounding of the base-frame pass, as
// D1..D4 do; immamb's M⁻¹ is closer to the exact one.
// The model must have an invertible mass matrix (else ModelError names the joints).
#pragma once

#include <cassert>
#include <cstddef>
#include <type_traits>

#include "liedyn/algorithm/aza.hpp"
#include "liedyn/algorithm/eidamb_derivatives.hpp"
#include "liedyn/algorithm/immamb.hpp"
#include "liedyn/algorithm/ltdl.hpp"
#include "liedyn/algorithm/rnea.hpp"
#include "liedyn/arithmetic/dense.hpp"
#include "liedyn/arithmetic/gather_product.hpp"

namespace liedyn {

/// How the linearization applies M⁻¹: Dense (M⁻¹ from ltdl.hpp times the non-zeros of [D1 D2 D3
/// D4]), Sweeps (AZA solves, O(nv²)), or Automatic (Dense up to
/// LinearizationOptions::dense_up_to_nv).
enum class MinvMethod { Automatic, Dense, Sweeps };

/// Options of linearize, linearize_actuated and linearize_discrete: the base-twist representation
/// of δx (and of D1..D4), and how M⁻¹ is applied.
template <class S>
struct LinearizationOptions {
  TwistRepresentation representation = TwistRepresentation::Body;
  MinvMethod minv = MinvMethod::Automatic;
  /// Automatic uses Dense up to this nv, Sweeps above: Dense's products are regular and
  /// vectorize, which outweighs their O(nv³) count on robots of this size; it uses fixed-size loops
  /// only and is allocation-free at any size (debug/ASan test with EIGEN_RUNTIME_NO_MALLOC).
  int dense_up_to_nv = 256;
};

namespace detail {

// sign · M⁻¹ [D1 D2 D3 D4] into `out` (nv × 2nv, a block of A or data.linearization.MinvK) from
// data.Minv and D1..D4 (representation `rep`), using their structure instead of one dense O(nv³)
// product:
//  * the columns of D2 and D4 for joint k are zero outside the base rows and the rows of k's
//    ancestors and subtree — one pattern for both — so the pair costs (pattern size) × nv
//    multiply–adds each, in one sweep over those columns of M⁻¹ (gather_product2);
//  * with ν held, D1ν = M[:, 0:6] ad(a_g0) (eidamb_derivatives), so M⁻¹ D1ν = [ad(a_g0); 0]
//    exactly; in the other representations D1 = D1ν + D3ν N_η and D3 = D3ν N_t with N_t⁻¹ = T
//    (twist_maps), hence M⁻¹ D1 = [ad(a_g0); 0] + (M⁻¹ D3) T N_η.
// Scratch: data.linearization.rows and the first two columns of data.linearization.K (not used by
// this route).
template <class S, class Out>
void minv_times_derivatives(const Model<S>& model, Data<S>& data, const State<S>& x,
                            TwistRepresentation rep, const S& sign, Out out) {
  const int n = model.nv_joints(), off = model.offset(), nv = model.nv();
  const MatrixX<S>& Minv = data.Minv;  // symmetric: column r is row r
  auto& rows = data.linearization.rows;
  for (int k = 1; k < model.num_bodies(); ++k) {
    const int ck = model.r_index(k), r0 = off + ck;
    const int len = model.r_index(model.subtree_end(k)) - ck;
    int p = 0;
    for (int r = 0; r < off; ++r) rows(p++) = r;
    for (int a = model.parent(k); a > 0; a = model.parent(a))
      for (int r = model.v_index(a); r < model.v_index(a) + model.joint_nv(a); ++r) rows(p++) = r;
    for (int r = r0; r < r0 + len; ++r) rows(p++) = r;
    // Every column of joint k has that pattern (its own block lies in the subtree's range).
    for (int c = ck; c < model.r_index(k + 1); ++c) {
      const auto d2 = data.derivatives.D2.col(c);
      const auto d4 = data.derivatives.D4.col(c);
      auto ga = data.linearization.K.col(0),
           gb = data.linearization.K.col(1);  // n ≥ 1: K has its two columns
      for (int t = 0; t < p; ++t) {
        ga(t) = d2(rows(t));
        gb(t) = d4(rows(t));
      }
      gather_product2<S>(Minv, 0, rows.head(p), ga, gb, sign, out.col(off + c),
                         out.col(2 * off + n + c));
    }
  }
  if (off == 0) return;
  for (int r = 0; r < nv; ++r) rows(r) = r;
  for (int c = 0; c < 6; c += 2)
    gather_product2<S>(Minv, 0, rows.head(nv), data.derivatives.D3.col(c),
                       data.derivatives.D3.col(c + 1), sign, out.col(off + n + c),
                       out.col(off + n + c + 1));
  const Matrix6<S> ad_g = gravity_in_base(model, x.H).cross_matrix();
  for (int c = 0; c < 6; ++c) {
    auto o1 = out.col(c);
    o1.template head<6>() = sign * ad_g.col(c);
    o1.tail(nv - 6).setZero();
  }
  if (rep == TwistRepresentation::Body) return;  // N_η = 0
  Matrix6<S> N_eta, N_t, T;
  twist_maps(rep, x.H, Vector6<S>(x.nu), N_eta, N_t, T);
  const Matrix6<S> TN = T * N_eta;
  for (int c = 0; c < 6; ++c)
    for (int m = 0; m < 6; ++m) out.col(c) += out.col(off + n + m) * TN(m, c);
}

// Forward dynamics accelerations into data.ddq, sign · M⁻¹ [D1 D2 D3 D4] into `out` (nv × 2nv)
// and M⁻¹ into data.Minv. Shared by the continuous and discrete linearizations.
template <class S, class Derived, class Out>
void forward_dynamics_derivatives(const Model<S>& model, Data<S>& data, const State<S>& x,
                                  const Eigen::MatrixBase<Derived>& tau,
                                  const LinearizationOptions<S>& opt,
                                  const ExternalWrenches<S>* fext, const S& sign, Out out,
                                  const char* who) {
  check_state(who, model, x);
  check_data_pairing(who, model, data);
  LIEDYN_CHECK_SIZE(who, "tau", tau, model.nv());
  model.require_invertible_mass_matrix(who);
  const int nv = model.nv(), n = model.nv_joints(), nb6 = model.offset();
  const bool dense = opt.minv == MinvMethod::Dense ||
                     (opt.minv == MinvMethod::Automatic && nv <= opt.dense_up_to_nv);
  if (dense) {
    check_wrenches(who, model, fext);
    update_poses(model, data, x.s);
    // ĪD is affine in the accelerations and M, D1, D3, D4 do not depend on them: one pass at
    // zero accelerations gives h = ĪD(x, 0) with them, the sparse factors of M give
    // ddq = M⁻¹(τ̄ − h) (a backward-stable solve: ddq = M⁻¹(τ̄ − h) with the explicit inverse has
    // an O(ε κ(M)) larger residual, and D2 amplifies it) and M⁻¹, and a pass over the
    // accelerations alone completes D2 at ddq.
    ground_derivative_pass<false>(model, data, x, VectorX<S>::Zero(nv), opt.representation, fext);
    data.h = data.tau;
    ltdl_factorize(model, data);
    data.ddq = tau - data.h;
    ltdl_solve(model, data, data.ddq);
    ground_acceleration_pass(model, data, x, data.ddq);
    ltdl_inverse(model, data);
    minv_times_derivatives(model, data, x, opt.representation, sign, out);
    return;
  }
  bias_force(model, data, x, fext);  // also leaves the joint transforms H_parent at x.s
  data.linearization.tau_minus_bias = tau - data.h;
  update_base_poses(model, data);
  aza_factorize_at_poses(model, data);
  aza_solve(model, data, data.linearization.tau_minus_bias, data.ddq);
  eidamb_derivatives_at_poses(model, data, x, data.ddq, opt.representation, fext);
  data.linearization.K.leftCols(nb6) = data.derivatives.D1;
  data.linearization.K.middleCols(nb6, n) = data.derivatives.D2;
  data.linearization.K.middleCols(nb6 + n, nb6) = data.derivatives.D3;
  data.linearization.K.rightCols(n) = data.derivatives.D4;
  aza_solve(model, data, MatrixX<S>::Identity(nv, nv), data.Minv);
  aza_solve(model, data, data.linearization.K, data.linearization.MinvK);
  out = sign * data.linearization.MinvK;
}
}  // namespace detail

namespace detail {
/// The rows of the discrete A and B for s⁺_i = s_i ⊕ Δt r⁺_i on a joint's group: on entry they
/// hold δs_i + Δt δr⁺_i (the vector-space rule); they become
/// Ad(exp(Δt r⁺_i))⁻¹ δs_i + Δt Jr(Δt r⁺_i) δr⁺_i (Joint::integrate_jacobians), r⁺ from
/// data.ddq. Scratch: the first rows of data.linearization.K.
template <class S>
void write_joint_step_rows(const Model<S>& model, Data<S>& data, const State<S>& x, const S& dt) {
  const int off = model.offset(), nv = model.nv();
  for (int i = 1; i < model.num_bodies(); ++i) {
    if (model.joint(i).one_dof()) continue;
    const int r = model.r_index(i), k = model.joint_nv(i);
    const JointTangent<S> step = dt * (x.r.segment(r, k) + dt * data.ddq.segment(off + r, k));
    JointTangentMap<S> J_s(k, k), J_step(k, k);
    model.joint(i).integrate_jacobians(step, J_s, J_step);
    auto rows = data.linearization.A.middleRows(off + r, k);
    rows.block(0, off + r, k, k) -= JointTangentMap<S>::Identity(k, k);  // now Δt δr⁺ alone
    auto scratch = data.linearization.K.topRows(k);
    scratch = rows;
    rows.noalias() = J_step.lazyProduct(scratch);
    rows.block(0, off + r, k, k) += J_s;
    auto rows_b = data.linearization.B.middleRows(off + r, k);
    auto scratch_b = data.linearization.K.topLeftCorner(k, nv);
    scratch_b = rows_b;
    rows_b.noalias() = J_step.lazyProduct(scratch_b);
  }
}

/// Whether complete_continuous_linearization writes the zeros of A's and B's top rows, or finds
/// them written by the caller.
enum class TopRows { Clear, AlreadyZero };

/// The continuous A and B from their acceleration rows: on entry A.bottomRows(nv) and
/// B.bottomRows(nv) of data.linearization hold ∂(ν̇, ṙ)/∂δx (δx in `rep`) and ∂(ν̇, ṙ)/∂τ̄, with ν̇
/// the body acceleration, and data.ddq the accelerations; writes the kinematic rows and maps the ν̇
/// rows to the representation's twist (header: δṫ = T δν̇ + G_η η + G_t δt). Shared by the
/// unconstrained and the constrained linearization.
template <class S>
void complete_continuous_linearization(const Model<S>& model, Data<S>& data, const State<S>& x,
                                       TwistRepresentation rep, TopRows top_rows) {
  const int nv = model.nv(), n = model.nv_joints(), N = 2 * nv;
  MatrixX<S>& A = data.linearization.A;
  MatrixX<S>& B = data.linearization.B;
  // The top rows' zeros and identity are written on every call: A and B are outputs a user may
  // overwrite (A = I + dt A). setIdentity on the identity's block would test every coefficient:
  // only its diagonal is set.
  if (top_rows == TopRows::Clear) {
    A.topRows(nv).setZero();
    B.topRows(nv).setZero();
  }
  A.block(nv - n, N - n, n, n).diagonal().setOnes();  // δṡ = δr (vector-space joints)
  if (!model.one_dof_joints_only())                   // η̇_i = −ad(r̄_i) η_i + δr_i
    write_joint_deviation_blocks(model, x.r, A.block(nv - n, nv - n, n, n));
  // A branch: the base's state rows (η, ν) on SE(3) exist only when it moves.
  if (!model.has_moving_base()) return;
  Matrix6<S> N_eta, N_t, T;
  twist_maps(rep, x.H, x.nu, N_eta, N_t, T);
  const Motion<S> nu(x.nu);
  // η rows.
  A.template block<6, 6>(0, 0) = N_eta - nu.cross_matrix();
  A.template block<6, 6>(0, 6 + n) = N_t;
  if (rep == TwistRepresentation::Body) return;  // T = 1, G = 0
  // Twist rows: T times the body-twist rows (6 × N products: lazy, no GEMM workspace), plus G.
  auto scratch = data.linearization.K.topRows(6);
  scratch = A.block(6 + n, 0, 6, N);
  A.block(6 + n, 0, 6, N).noalias() = T.lazyProduct(scratch);
  auto scratch_b = data.linearization.K.topLeftCorner(6, nv);
  scratch_b = B.block(6 + n, 0, 6, nv);
  B.block(6 + n, 0, 6, nv).noalias() = T.lazyProduct(scratch_b);
  const Vector6<S> a = data.ddq.template head<6>();
  switch (rep) {
    case TwistRepresentation::Body: break;
    case TwistRepresentation::Inertial:
      A.template block<6, 6>(6 + n, 0).noalias() -= T * Motion<S>(a).cross_matrix();
      break;
    case TwistRepresentation::Mixed: {
      const Matrix3<S>& R = x.H.rotation();
      A.template block<3, 3>(6 + n, 3) -= R * hat(Vector3<S>(a.template head<3>()));
      A.template block<3, 3>(9 + n, 3) -= R * hat(Vector3<S>(a.template tail<3>()));
      const Vector6<S> m = T * x.nu;
      A.template block<3, 3>(6 + n, 6 + n) += hat(Vector3<S>(m.template tail<3>()));
      A.template block<3, 3>(6 + n, 9 + n) -= hat(Vector3<S>(m.template head<3>()));
      break;
    }
  }
}
}  // namespace detail

/// Continuous-time A (2nv × 2nv) and B (2nv × nv) into data.linearization.A, data.linearization.B
/// at state x and input τ̄ (size nv, base first), external wrenches optional. Also leaves data.ddq =
/// FD(x, τ̄), data.M, data.Minv and D1..D4 (in opt.representation).
template <class S, class Derived>
void linearize(const Model<S>& model, Data<S>& data, const State<S>& x,
               const Eigen::MatrixBase<Derived>& tau, const LinearizationOptions<S>& opt = {},
               const ExternalWrenches<S>* fext = nullptr) {
  const int nv = model.nv();
  // A's top rows are zero: A is cleared whole before the pass writes its bottom rows, one
  // contiguous store where the top rows alone take one per column. (B's bottom rows are copied
  // in: B whole would write them twice.)
  detail::check_data_pairing("linearize", model, data);  // before an output is touched
  detail::dense::set_zero(data.linearization.A);
  data.linearization.B.topRows(nv).setZero();
  // The bottom nv rows of A are −M⁻¹K (for the body twist; the twist rows are mapped after).
  detail::forward_dynamics_derivatives(model, data, x, tau, opt, fext, S(-1),
                                       data.linearization.A.bottomRows(nv), "linearize");
  data.linearization.B.bottomRows(nv) = data.Minv;
  detail::complete_continuous_linearization(model, data, x, opt.representation,
                                            detail::TopRows::AlreadyZero);
}

/// linearize() for τ̄ = S u with an actuation matrix S (nv × m): A into data.linearization.A, B S
/// into Bu.
template <class S, class DS, class Du>
void linearize_actuated(const Model<S>& model, Data<S>& data, const State<S>& x,
                        const Eigen::MatrixBase<DS>& actuation, const Eigen::MatrixBase<Du>& u,
                        MatrixX<S>& Bu, const LinearizationOptions<S>& opt = {},
                        const ExternalWrenches<S>* fext = nullptr) {
  detail::check_data_pairing("linearize_actuated", model, data);
  LIEDYN_CHECK_DIMS("linearize_actuated", "actuation", actuation, model.nv(), u.size());
  data.linearization.actuated_force.noalias() = actuation * u;
  linearize(model, data, x, data.linearization.actuated_force, opt, fext);
  const int nv = model.nv();
  Bu.resize(data.linearization.B.rows(), actuation.cols());  // no allocation once Bu has this size
  // B's top rows are zero. Column by column (GEMV): a GEMM takes Eigen's heap blocking
  // workspace once nv passes a few dozen.
  Bu.topRows(nv).setZero();
  for (Eigen::Index c = 0; c < actuation.cols(); ++c)
    Bu.col(c).bottomRows(nv).noalias() = data.linearization.B.bottomRows(nv) * actuation.col(c);
}

namespace detail {
/// The semi-implicit Euler update of x with accelerations ddq = [ν̇; ṙ] into `out` (may be x).
template <class S, class Derived>
void advance_semi_implicit(const Model<S>& model, const State<S>& x,
                           const Eigen::MatrixBase<Derived>& ddq, const S& dt, State<S>& out) {
  const int off = model.offset(), n = model.nv_joints();
  if (&out != &x) {
    out.r = x.r;
    out.s = x.s;
    out.nu = x.nu;
    out.H = x.H;
  }
  out.r += dt * ddq.segment(off, n);
  // s ⊕ Δt r⁺ on every joint's group: a vector sum when every joint is a 1-DoF screw.
  if (model.one_dof_joints_only()) out.s += dt * out.r;
  else detail::integrate_joints(model, out.s, dt * out.r, out.s);
  if (model.has_moving_base()) {  // a branch: a welded base's pose does not move
    out.nu += dt * ddq.template head<6>();
    out.H = out.H * SE3<S>::exp(Vector6<S>(dt * out.nu));
  }
}
}  // namespace detail

/// One step of the Lie-group semi-implicit Euler scheme into `out`:
///   ν⁺ = ν + Δt ν̇,  r⁺ = r + Δt ṙ,  s⁺ = s ⊕ Δt r⁺,  H⁺ = H exp(Δt ν⁺^),
/// with (ν̇, ṙ) = FD(x, τ̄) (body twist; for a welded base only s and r move) and ⊕ each joint's
/// group (s + Δt r⁺ for 1-DoF joints). Every joint type. `out` may be x; no allocation once
/// out.s and out.r have the model's size.
template <class S, class Derived>
void semi_implicit_euler_step(const Model<S>& model, Data<S>& data, const State<S>& x,
                              const Eigen::MatrixBase<Derived>& tau, const S& dt, State<S>& out,
                              const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("semi_implicit_euler_step", model, x);
  detail::check_data_pairing("semi_implicit_euler_step", model, data);
  LIEDYN_CHECK_SIZE("semi_implicit_euler_step", "tau", tau, model.nv());
  model.require_invertible_mass_matrix("semi_implicit_euler_step");
  bias_force(model, data, x, fext);  // also leaves the joint transforms H_parent at x.s
  detail::update_base_poses(model, data);
  detail::aza_factorize_at_poses(model, data);
  data.linearization.tau_minus_bias = tau - data.h;
  aza_solve(model, data, data.linearization.tau_minus_bias, data.ddq);
  detail::advance_semi_implicit(model, x, data.ddq, dt, out);
}

/// One step of the semi-implicit Euler scheme (see the output-argument form), returned by value
/// (allocates the new state's vectors).
template <class S, class Derived>
State<S> semi_implicit_euler_step(const Model<S>& model, Data<S>& data, const State<S>& x,
                                  const Eigen::MatrixBase<Derived>& tau, const S& dt,
                                  const ExternalWrenches<S>* fext = nullptr) {
  State<S> y = x;
  semi_implicit_euler_step(model, data, x, tau, dt, y, fext);
  return y;
}

namespace detail {
/// The Jacobians of the semi-implicit Euler step from those of its accelerations: dacc_dx =
/// ∂(ν̇, ṙ)/∂δx (nv × 2nv, δx in `rep`, ν̇ the body acceleration), dacc_dtau = ∂(ν̇, ṙ)/∂τ̄, and
/// data.ddq the accelerations; into data.linearization.A, data.linearization.B (see
/// linearize_discrete). Shared by the unconstrained and the constrained linearization.
template <class S, class DX, class DT>
void complete_discrete_linearization(const Model<S>& model, Data<S>& data, const State<S>& x,
                                     const S& dt, TwistRepresentation rep,
                                     const Eigen::MatrixBase<DX>& dacc_dx,
                                     const Eigen::MatrixBase<DT>& dacc_dtau) {
  const int nv = model.nv(), n = model.nv_joints(), off = model.offset();
  data.linearization.A.setZero();
  data.linearization.A.diagonal().setOnes();  // setIdentity would test every coefficient
  data.linearization.B.setZero();
  // Velocity rows: δv⁺ = δv + Δt δacc (body ν for now; converted below).
  // A branch: the base's state rows (η, ν) on SE(3) exist only when it moves.
  Matrix6<S> N_eta, N_t, T;
  if (model.has_moving_base()) twist_maps(rep, x.H, x.nu, N_eta, N_t, T);
  // Body-twist rows at x: δν = N_eta η + N_t δt.
  if (model.has_moving_base()) {
    data.linearization.A.template block<6, 6>(6 + n, 0) = N_eta;
    data.linearization.A.template block<6, 6>(6 + n, 6 + n) = N_t;
  }
  data.linearization.A.middleRows(off + n, nv) += dt * dacc_dx;
  data.linearization.B.middleRows(off + n, nv) = dt * dacc_dtau;
  // s⁺ = s ⊕ Δt r⁺: s + Δt r⁺ for the vector-space joints, each other joint on its group.
  data.linearization.A.middleRows(off, n) += dt * data.linearization.A.bottomRows(n);
  data.linearization.B.middleRows(off, n) += dt * data.linearization.B.bottomRows(n);
  if (!model.one_dof_joints_only()) write_joint_step_rows(model, data, x, dt);
  if (!model.has_moving_base()) return;  // a branch: a welded base has no η⁺, ν⁺ rows
  // η⁺ = Ad(exp(Δt ν⁺))⁻¹ η + Jr(Δt ν⁺) Δt δν⁺.
  const Vector6<S> nu_plus = x.nu + dt * data.ddq.template head<6>();
  const Vector6<S> step = dt * nu_plus;
  const Matrix6<S> Adinv = SE3<S>::exp(step).inverse().velocity_transform();
  const Matrix6<S> Jr = dt * SE3<S>::right_jacobian(step);
  data.linearization.A.topRows(6).noalias() =
      Jr.lazyProduct(data.linearization.A.middleRows(6 + n, 6));  // Δt Jr δν⁺
  data.linearization.A.template block<6, 6>(0, 0) += Adinv;
  data.linearization.B.topRows(6).noalias() =
      Jr.lazyProduct(data.linearization.B.middleRows(6 + n, 6));
  // Convert the ν⁺ rows to the representation's twist at x⁺: δt⁺ = T⁺ (δν⁺ − N_eta⁺ η⁺).
  if (rep != TwistRepresentation::Body) {
    const SE3<S> H_plus = x.H * SE3<S>::exp(step);
    Matrix6<S> N_eta_p, N_t_p, T_p;
    twist_maps(rep, H_plus, nu_plus, N_eta_p, N_t_p, T_p);
    // data.linearization.K (nv × 2nv, not an input here) is the 6-row scratch.
    auto scratch = data.linearization.K.topRows(6);
    scratch.noalias() = data.linearization.A.middleRows(6 + n, 6) -
                        N_eta_p.lazyProduct(data.linearization.A.topRows(6));
    data.linearization.A.middleRows(6 + n, 6).noalias() = T_p.lazyProduct(scratch);
    auto scratch_b = data.linearization.K.topLeftCorner(6, nv);
    scratch_b.noalias() = data.linearization.B.middleRows(6 + n, 6) -
                          N_eta_p.lazyProduct(data.linearization.B.topRows(6));
    data.linearization.B.middleRows(6 + n, 6).noalias() = T_p.lazyProduct(scratch_b);
  }
}
}  // namespace detail

/// Jacobians of semi_implicit_euler_step: δx⁺ = A δx + B δτ̄ into data.linearization.A,
/// data.linearization.B, with δx in opt.representation at both ends (δt = T(x) δν − …, see
/// linearize). Exact: they use the SE(3) right Jacobian and adjoint of the step's exp, and each
/// joint's (Joint::integrate_jacobians).
template <class S, class Derived>
void linearize_discrete(const Model<S>& model, Data<S>& data, const State<S>& x,
                        const Eigen::MatrixBase<Derived>& tau, const S& dt,
                        const LinearizationOptions<S>& opt = {},
                        const ExternalWrenches<S>* fext = nullptr) {
  // −M⁻¹K: the accelerations' rows, δx in opt.representation.
  detail::forward_dynamics_derivatives(model, data, x, tau, opt, fext, S(-1),
                                       data.linearization.MinvK.leftCols(2 * model.nv()),
                                       "linearize_discrete");
  detail::complete_discrete_linearization(model, data, x, dt, opt.representation,
                                          data.linearization.MinvK.leftCols(2 * model.nv()),
                                          data.Minv);
}

/// linearize_discrete() for τ̄ = S u with an actuation matrix S (nv × m): A into
/// data.linearization.A, B S into Bu (2nv × m), as linearize_actuated is for the continuous case.
template <class S, class DS, class Du>
void linearize_discrete_actuated(const Model<S>& model, Data<S>& data, const State<S>& x,
                                 const Eigen::MatrixBase<DS>& actuation,
                                 const Eigen::MatrixBase<Du>& u, const S& dt, MatrixX<S>& Bu,
                                 const LinearizationOptions<S>& opt = {},
                                 const ExternalWrenches<S>* fext = nullptr) {
  LIEDYN_CHECK(actuation.rows() == model.nv() && actuation.cols() == u.size(),
               "liedyn: linearize_discrete_actuated: the actuation matrix must be nv × size(u)");
  data.linearization.actuated_force.noalias() = actuation * u;
  linearize_discrete(model, data, x, data.linearization.actuated_force, dt, opt, fext);
  Bu.resize(data.linearization.B.rows(), actuation.cols());  // no allocation once Bu has this size
  // Column by column (GEMV): a GEMM takes Eigen's heap blocking workspace once nv passes a few
  // dozen.
  for (Eigen::Index c = 0; c < actuation.cols(); ++c)
    Bu.col(c).noalias() = data.linearization.B * actuation.col(c);
}

}  // namespace liedyn
