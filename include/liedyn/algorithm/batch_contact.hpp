// liedyn — algorithm: the time step with frictional unilateral point contacts (contact_step.hpp)
// over many states at once, and rollouts of it, on a BatchWorkspace's thread pool (batch.hpp).
//
// Workspace. A ContactBatchWorkspace is a BatchWorkspace (the pool, one state per worker) and one
// ContactStepWorkspace per worker, for one model and one list of contacts; built once, after
// which a batch call allocates nothing.
//
// Layout: batch.hpp's. States are columns of batch_state_size(model) entries; per step, the
// contacts' impulses are a column of 3 nc entries (contact k's λ_k in rows 3k … 3k + 2, its
// frame's [t1, t2, n], zero when inactive: ContactStepWorkspace::impulse) and the step's report
// a column of ContactReport::size entries (ContactReport).
//
// Determinism. contact_step keeps one value between steps, the warm start of its solver
// (ContactStepWorkspace::warm_start_impulse). A batch step starts it at zero for every state, and
// a rollout at the start of every trajectory, then carries it along that trajectory only: so
// state i's result is that of contact_step on a fresh workspace (a rollout: of the serial loop of
// contact_step from x_0 on a fresh workspace), bit for bit, whatever the number of threads and
// whichever worker computes it. Errors are reported as in batch.hpp ("liedyn:
// batch_contact_rollout: trajectory i: step k: <message>", the lowest failing i).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "liedyn/algorithm/batch.hpp"
#include "liedyn/algorithm/contact_step.hpp"

namespace liedyn {

/// The rows of a contact step's report in a batch's report block (ContactReport::size × items):
/// the counts and the flag are stored exactly as doubles.
struct ContactReport {
  static constexpr int active_contacts = 0;  ///< ContactStepResult::active_contacts
  static constexpr int iterations = 1;       ///< the solver's iterations (ADMM) or sweeps (PGS)
  static constexpr int converged = 2;        ///< 1 when the solve converged, else 0
  static constexpr int primal_residual = 3;  ///< FrictionalContactResult::primal_residual
  static constexpr int dual_residual = 4;    ///< FrictionalContactResult::dual_residual
  /// FrictionalContactResult::complementarity_residual
  static constexpr int complementarity_residual = 5;
  static constexpr int size = 6;  ///< entries of one step's report
};

/// Everything a batch of contact steps needs besides the model: a BatchWorkspace of `threads`
/// workers and one ContactStepWorkspace per worker for `contacts`, built once (this allocates, and
/// resolves and checks the contacts as ContactStepWorkspace does, throwing InvalidArgument
/// "liedyn: ContactStepWorkspace: contact 'NAME': …"). One batch call at a time.
template <class S>
class ContactBatchWorkspace {
 public:
  /// For `contacts` of `model`, with `threads` ≥ 1 workers (the caller's thread among them).
  ContactBatchWorkspace(const Model<S>& model, const std::vector<ContactPointSpec<S>>& contacts,
                        int threads)
      : batch_(model, threads) {
    contact_.reserve(static_cast<std::size_t>(threads));
    for (int w = 0; w < threads; ++w)
      contact_.push_back(std::make_unique<ContactStepWorkspace<S>>(model, contacts));
  }

  /// The number of workers.
  int threads() const { return batch_.threads(); }
  /// The number of contacts (active or not), the same in every worker.
  int num_contacts() const { return contact_.front()->num_contacts(); }
  /// Model::id() of the model it was built for.
  std::uint64_t model_id() const { return batch_.model_id(); }
  /// The pool and the per-worker states.
  BatchWorkspace<S>& batch() { return batch_; }
  /// Worker w's contact workspace, w ∈ [0, threads()): after a batch call it holds the last step
  /// that worker took (its per-contact results are those of that step).
  ContactStepWorkspace<S>& contact(int w) { return *contact_[static_cast<std::size_t>(w)]; }

 private:
  BatchWorkspace<S> batch_;
  std::vector<std::unique_ptr<ContactStepWorkspace<S>>> contact_;
};

namespace detail {

/// Writes r into `column` (ContactReport::size entries, the rows of ContactReport).
template <class S, class Derived>
void write_contact_report(const ContactStepResult<S>& r,
                          const Eigen::MatrixBase<Derived>& column_) {
  Eigen::MatrixBase<Derived>& column = const_cast<Eigen::MatrixBase<Derived>&>(column_);
  column(ContactReport::active_contacts) = S(r.active_contacts);
  column(ContactReport::iterations) = S(r.solver.iterations);
  column(ContactReport::converged) = r.converged ? S(1) : S(0);
  column(ContactReport::primal_residual) = r.solver.primal_residual;
  column(ContactReport::dual_residual) = r.solver.dual_residual;
  column(ContactReport::complementarity_residual) = r.solver.complementarity_residual;
}

/// The checks every contact batch call starts with: the workspace's model, and dt (finite and
/// > 0, else every item would fail alike).
template <class S>
void check_contact_batch(const char* who, const Model<S>& model, const ContactBatchWorkspace<S>& ws,
                         const S& dt) {
  LIEDYN_CHECK(ws.model_id() == model.id(),
               std::string(who) + ": the ContactBatchWorkspace was built for another model");
  LIEDYN_CHECK(dt - dt == S(0) && dt > S(0), std::string(who) +
                                                 ": dt must be finite and > 0, got " +
                                                 std::to_string(static_cast<double>(dt)));
}

}  // namespace detail

/// contact_step at every state, each from a zero warm start (the header's "Determinism"): state
/// i = states.col(i) (batch_state_size × N), τ̄ = tau.col(i) (nv × N), step dt; the next state in
/// states_out.col(i), its impulses λ in impulses_out.col(i) (3 nc × N, contact k in rows 3k …
/// 3k + 2, its frame's [t1, t2, n]) and its report in reports_out.col(i) (ContactReport::size × N,
/// ContactReport). An unconverged solve is reported there, not thrown.
template <class S>
void batch_contact_step(const Model<S>& model, ContactBatchWorkspace<S>& ws,
                        const BatchIn<S>& states, const BatchIn<S>& tau, const S& dt,
                        BatchOut<S> states_out, BatchOut<S> impulses_out, BatchOut<S> reports_out,
                        const ContactStepSettings<S>& settings = {}) {
  const char* who = "batch_contact_step";
  detail::check_contact_batch(who, model, ws, dt);
  const Eigen::Index N = states.cols();
  detail::check_batch_block(who, "tau", tau, model.nv(), 1, N);
  detail::check_batch_block(who, "states_out", states_out, batch_state_size(model), 1, N);
  detail::check_batch_block(who, "impulses_out", impulses_out, 3 * ws.num_contacts(), 1, N);
  detail::check_batch_block(who, "reports_out", reports_out, ContactReport::size, 1, N);
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    ContactStepWorkspace<S>& cws = ws.contact(w.index);
    cws.warm_start_impulse.setZero();
    const ContactStepResult<S> r = contact_step(model, cws, w.x, tau.col(i), dt, w.x, settings);
    write_state_column(model, w.x, states_out.col(i));
    impulses_out.col(i) = cws.impulse;
    detail::write_contact_report(r, reports_out.col(i));
  };
  detail::run_batch(who, "state", model, ws.batch(), states, kernel);
}

/// N rollouts of contact_step (step dt, `settings`): trajectory i from initial.col(i)
/// (batch_state_size × N) under the K controls τ̄ in controls' columns [i K, (i+1) K) (nv × K·N),
/// its warm start zero at x_0 and carried from step to step; its states x_0 … x_K in states_out's
/// columns [i (K+1), (i+1)(K+1)) (batch_state_size × (K+1)·N), the impulses and the report of its
/// step k in column i K + k of impulses_out (3 nc × K·N) and reports_out (ContactReport::size ×
/// K·N), laid out as batch_contact_step's. An unconverged step is reported, and the rollout goes
/// on (contact_step takes the step with the last iterate).
template <class S>
void batch_contact_rollout(const Model<S>& model, ContactBatchWorkspace<S>& ws,
                           const BatchIn<S>& initial, const BatchIn<S>& controls, const S& dt,
                           BatchOut<S> states_out, BatchOut<S> impulses_out,
                           BatchOut<S> reports_out, const ContactStepSettings<S>& settings = {}) {
  const char* who = "batch_contact_rollout";
  detail::check_contact_batch(who, model, ws, dt);
  const Eigen::Index N = initial.cols();
  const Eigen::Index K = detail::rollout_steps(who, model, initial, controls);
  detail::check_batch_block(who, "states_out", states_out, batch_state_size(model), K + 1, N);
  detail::check_batch_block(who, "impulses_out", impulses_out, 3 * ws.num_contacts(), K, N);
  detail::check_batch_block(who, "reports_out", reports_out, ContactReport::size, K, N);
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    ContactStepWorkspace<S>& cws = ws.contact(w.index);
    cws.warm_start_impulse.setZero();
    states_out.col(i * (K + 1)) = initial.col(i);
    for (Eigen::Index k = 0; k < K; ++k) {
      const Eigen::Index knot = i * K + k;
      ContactStepResult<S> r;
      try {
        r = contact_step(model, cws, w.x, controls.col(knot), dt, w.x, settings);
      } catch (...) {
        detail::rethrow_in_context(std::current_exception(), "step " + std::to_string(k));
      }
      write_state_column(model, w.x, states_out.col(i * (K + 1) + k + 1));
      impulses_out.col(knot) = cws.impulse;
      detail::write_contact_report(r, reports_out.col(knot));
    }
  };
  detail::run_batch(who, "trajectory", model, ws.batch(), initial, kernel);
}

}  // namespace liedyn
