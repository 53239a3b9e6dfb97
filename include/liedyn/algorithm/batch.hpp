// liedyn — algorithm: many states at once. The public kernels evaluated over a batch of N states
// with the T threads of a ThreadPool (parallel/thread_pool.hpp), and rollouts of the Lie-group
// semi-implicit Euler step.
//
// Workspace. A BatchWorkspace holds one Data (and, built with a constraint set, one
// ConstraintData) per worker and the pool; the caller builds it once and keeps it: a batch call
// allocates nothing afterwards. The Model (and ConstraintSet) stay shared and read-only.
//
// Layout. Every block is column-major, one column (or one slab of columns) per state, which is
// the memory of a C-ordered numpy array of shape (N, k) for a column of k entries:
//   states      batch_state_size(model) × N, state i in column i, as write_state_column
//               writes it: [R (9, column-major); p (3); s (n); ν (6); r (n)] for a moving base
//               (H = ^A H_0 = (R, p), ν the body twist), [s; r] for a welded one. R is stored
//               whole, not as a quaternion, so that a state goes in and out bit for bit.
//   vectors     size × N (τ̄, q̈, λ, …), column i for state i;
//   matrices    rows × (cols · N): state i's matrix in columns [i·cols, (i+1)·cols).
// Frames and orders are those of the single-state kernel each entry point names.
//
// Determinism. State i's result is the single kernel's on state i, whatever the number of
// threads and whichever worker computes it: the states are split into T contiguous ranges, one
// per worker, and no kernel keeps between calls a value that changes a later result (Data holds
// results, CONTRIBUTING.md; its one persistent scratch, the zeros of L⁻¹ in ltdl_inverse,
// depends on the model only). The constrained kernels take the ExactKKT route by default, which
// keeps no warm start either.
//
// Errors. An exception in state i stops the workers at the states after i and reaches the
// caller with the same type and the message "liedyn: batch_<kernel>: state i: <message>"; when
// several states fail, i is the lowest of them (every state before it is still evaluated, so
// the index does not depend on the timing of the threads).
#pragma once

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "liedyn/algorithm/aba.hpp"
#include "liedyn/algorithm/centroidal.hpp"
#include "liedyn/algorithm/constrained_dynamics.hpp"
#include "liedyn/algorithm/constrained_dynamics_derivatives.hpp"
#include "liedyn/algorithm/constrained_linearization.hpp"
#include "liedyn/algorithm/crba.hpp"
#include "liedyn/algorithm/data.hpp"
#include "liedyn/algorithm/eidamb.hpp"
#include "liedyn/algorithm/eidamb_derivatives.hpp"
#include "liedyn/algorithm/immamb.hpp"
#include "liedyn/algorithm/impulse_dynamics.hpp"
#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/algorithm/linearization.hpp"
#include "liedyn/algorithm/rnea.hpp"
#include "liedyn/model/constraint.hpp"
#include "liedyn/model/state.hpp"
#include "liedyn/parallel/thread_pool.hpp"

namespace liedyn {

namespace detail {
template <class T>
struct NonDeduced {
  using type = T;
};
}  // namespace detail

/// A read-only block of a batch (column-major, one column or slab per state; see the header).
/// Its scalar is not deduced from the argument, so that a MatrixX or a Map binds.
template <class S>
using BatchIn = Eigen::Ref<const MatrixX<typename detail::NonDeduced<S>::type>>;
/// A writable block of a batch (column-major, one column or slab per state; see the header).
template <class S>
using BatchOut = Eigen::Ref<MatrixX<typename detail::NonDeduced<S>::type>>;

/// Entries of one state in a batch's state block: 18 + nq + nv for a moving base ([R; p; s; ν;
/// r]), nq + nv for a welded one ([s; r]), with nq = nq_joints() and nv = nv_joints(); see the
/// header.
template <class S>
int batch_state_size(const Model<S>& model) {
  return (model.has_moving_base() ? 18 : 0) + model.nq_joints() + model.nv_joints();
}

/// Writes x into `column` (batch_state_size entries): [R (column-major); p; s; ν; r] with
/// (R, p) = ^A H_0 for a moving base, [s; r] for a welded one.
// Branches kept in write/read_state_column: they are the column's layout, which stores a pose
// only for a moving base, not a question the root joint answers.
template <class S, class Derived>
void write_state_column(const Model<S>& model, const State<S>& x,
                        const Eigen::MatrixBase<Derived>& column_) {
  Eigen::MatrixBase<Derived>& column = const_cast<Eigen::MatrixBase<Derived>&>(column_);
  const int nq = model.nq_joints(), nv = model.nv_joints();
  int k = 0;
  if (model.has_moving_base()) {
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) column(k++) = x.H.rotation()(r, c);
    for (int r = 0; r < 3; ++r) column(k++) = x.H.translation()(r);
  }
  column.segment(k, nq) = x.s;
  k += nq;
  if (model.has_moving_base()) {
    column.template segment<6>(k) = x.nu;
    k += 6;
  }
  column.segment(k, nv) = x.r;
}

/// Reads the state in `column` (layout of write_state_column) into x, whose s and r must have
/// the model's nq_joints() and nv_joints() entries (nothing allocates). A welded base gets the
/// welded pose and ν = 0. R must be a rotation within rotation_tolerance (InvalidArgument
/// otherwise; a transposed rotation is one too, so the column-major order is the caller's to keep).
template <class S, class Derived>
void read_state_column(const Model<S>& model, const Eigen::MatrixBase<Derived>& column,
                       State<S>& x) {
  const int nq = model.nq_joints(), nv = model.nv_joints();
  int k = 0;
  if (model.has_moving_base()) {
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) x.H.rotation()(r, c) = column(k++);
    for (int r = 0; r < 3; ++r) x.H.translation()(r) = column(k++);
    if constexpr (std::is_floating_point<S>::value)
      detail::check_rotation("read_state_column", "the base rotation R", x.H.rotation());
  } else {
    x.H = model.welded_base_pose();
    x.nu.setZero();
  }
  x.s = column.segment(k, nq);
  k += nq;
  if (model.has_moving_base()) {
    x.nu = column.template segment<6>(k);
    k += 6;
  }
  x.r = column.segment(k, nv);
}

/// What one worker of a BatchWorkspace owns: its Data, its ConstraintData (when the workspace
/// has a constraint set), the state it is evaluating, and its first failure of the current run.
template <class S>
struct BatchWorker {
  /// Worker `index` of its workspace, sized for `model` (and `set`, when not null).
  BatchWorker(const Model<S>& model, const ConstraintSet<S>* set, int index = 0)
      : data(model),
        constraint_data(set ? std::make_unique<ConstraintData<S>>(model, *set) : nullptr),
        x(model),
        index(index) {}

  Data<S> data;                                        ///< the kernels' workspace
  std::unique_ptr<ConstraintData<S>> constraint_data;  ///< null without a constraint set
  State<S> x;                                          ///< the state being evaluated
  /// Its place w in the workspace (BatchWorkspace::worker(w)): a caller keeping workspaces of
  /// its own per worker (ContactBatchWorkspace) finds this worker's there.
  int index = 0;
  Eigen::Index failed = -1;  ///< index of the state that threw in this run, −1 if none
  std::exception_ptr error;  ///< what it threw
};

/// Everything a batch call needs besides the model: a ThreadPool of `threads` workers and one
/// BatchWorker each, built once (this allocates) and reused by every batch call on the same
/// model (and constraint set). One batch call at a time: a workspace is used from one thread
/// at a time (its workers' state is read back after the pool's run).
template <class S>
class BatchWorkspace {
 public:
  /// For the unconstrained kernels of `model`, with `threads` ≥ 1 workers (the caller's thread
  /// among them).
  BatchWorkspace(const Model<S>& model, int threads) : BatchWorkspace(model, nullptr, threads) {}
  /// For the unconstrained kernels and those of the constraint set `set` of `model`.
  BatchWorkspace(const Model<S>& model, const ConstraintSet<S>& set, int threads)
      : BatchWorkspace(model, &set, threads) {}

  /// The number of workers.
  int threads() const { return pool_.size(); }
  /// Model::id() of the model it was built for.
  std::uint64_t model_id() const { return model_id_; }
  /// Whether it holds a ConstraintData per worker.
  bool has_constraints() const { return constraint_rows_ >= 0; }
  /// ConstraintSet::dimension() of its constraint set (−1 without one).
  int constraint_rows() const { return constraint_rows_; }
  /// Worker w ∈ [0, threads()).
  BatchWorker<S>& worker(int w) { return *workers_[static_cast<std::size_t>(w)]; }
  /// The pool its batch calls run on.
  ThreadPool& pool() { return pool_; }

 private:
  BatchWorkspace(const Model<S>& model, const ConstraintSet<S>* set, int threads)
      : model_id_(model.id()), constraint_rows_(set ? set->dimension() : -1), pool_(threads) {
    if (set)
      LIEDYN_CHECK(set->fits(model),
                   "BatchWorkspace: the constraint set was built for another model");
    workers_.reserve(static_cast<std::size_t>(threads));
    for (int w = 0; w < threads; ++w)
      workers_.push_back(std::make_unique<BatchWorker<S>>(model, set, w));
  }

  std::uint64_t model_id_;
  int constraint_rows_;
  ThreadPool pool_;
  std::vector<std::unique_ptr<BatchWorker<S>>> workers_;
};

namespace detail {

/// Rethrows `error` with the same type (InvalidArgument, ModelError, ConstraintError, else
/// std::runtime_error) and the message "liedyn: <context>: <its message less 'liedyn: '>".
[[noreturn]] inline void rethrow_in_context(std::exception_ptr error, const std::string& context) {
  const auto message = [&](const std::exception& e) {
    std::string what = e.what();
    const std::string prefix = "liedyn: ";
    if (what.compare(0, prefix.size(), prefix) == 0) what.erase(0, prefix.size());
    return prefix + context + ": " + what;
  };
  try {
    std::rethrow_exception(error);
  } catch (const ConstraintError& e) {
    throw ConstraintError(message(e));
  } catch (const ModelError& e) {
    throw ModelError(message(e));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(message(e));
  } catch (const std::exception& e) {
    throw std::runtime_error(message(e));
  }
}

/// `block` is rows × (cols_per_item · count).
template <class Block>
void check_batch_block(const char* who, const char* what, const Block& block, Eigen::Index rows,
                       Eigen::Index cols_per_item, Eigen::Index count) {
  const Eigen::Index cols = cols_per_item * count;
  LIEDYN_CHECK(block.rows() == rows && block.cols() == cols,
               std::string(who) + ": " + what + " has size " + std::to_string(block.rows()) +
                   " × " + std::to_string(block.cols()) + ", expected " + std::to_string(rows) +
                   " × " + std::to_string(cols));
}

/// The workspace was built for `model` (and, with `set`, for that set).
template <class S>
void check_batch_workspace(const char* who, const Model<S>& model, const BatchWorkspace<S>& ws,
                           const ConstraintSet<S>* set = nullptr) {
  LIEDYN_CHECK(ws.model_id() == model.id(),
               std::string(who) + ": the BatchWorkspace was built for another model");
  if (!set) return;
  LIEDYN_CHECK(set->fits(model),
               std::string(who) + ": the constraint set was built for another model");
  LIEDYN_CHECK(ws.has_constraints() && ws.constraint_rows() == set->dimension(),
               std::string(who) + ": the BatchWorkspace was built without this constraint set");
}

/// The driver of every batch call: items [0, count) split into threads() contiguous ranges,
/// item i's state read from column i of `states` into the worker's x, then kernel(worker, i).
/// A failure at item i stops the workers at items after i; the lowest failing item is rethrown
/// as "liedyn: <who>: <noun> i: <message>".
template <class S, class Kernel>
void run_batch(const char* who, const char* noun, const Model<S>& model, BatchWorkspace<S>& ws,
               const BatchIn<S>& states, Kernel& kernel) {
  check_batch_workspace(who, model, ws);
  const Eigen::Index count = states.cols();
  check_batch_block(who, "states", states, batch_state_size(model), 1, count);
  const int threads = ws.threads();
  std::atomic<Eigen::Index> first_failure{count};
  auto task = [&](int w) {
    BatchWorker<S>& worker = ws.worker(w);
    worker.failed = -1;
    worker.error = nullptr;
    const Eigen::Index begin = count * w / threads, end = count * (w + 1) / threads;
    for (Eigen::Index i = begin; i < end; ++i) {
      if (i > first_failure.load(std::memory_order_relaxed)) break;
      try {
        read_state_column(model, states.col(i), worker.x);
        kernel(worker, i);
      } catch (...) {
        worker.failed = i;
        worker.error = std::current_exception();
        Eigen::Index seen = first_failure.load(std::memory_order_relaxed);
        while (i < seen && !first_failure.compare_exchange_weak(seen, i)) {
        }
        break;
      }
    }
  };
  ws.pool().run(task);
  const Eigen::Index failed = first_failure.load();
  if (failed == count) return;
  for (int w = 0; w < threads; ++w)
    if (ws.worker(w).failed == failed)
      rethrow_in_context(ws.worker(w).error,
                         std::string(who) + ": " + noun + " " + std::to_string(failed));
}

/// Writes H as [R (column-major); p] (12 entries).
template <class S, class Derived>
void write_pose_column(const SE3<S>& H, const Eigen::MatrixBase<Derived>& column_) {
  Eigen::MatrixBase<Derived>& column = const_cast<Eigen::MatrixBase<Derived>&>(column_);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) column(3 * c + r) = H.rotation()(r, c);
  column.template tail<3>() = H.translation();
}

}  // namespace detail

/// The placements ^A H_F of the model frames `frame_ids` (forward_poses, frame_pose) at every
/// state: out is 12·F × N, frame f of state i in rows [12 f, 12 f + 12) of column i as
/// [R (column-major); p].
template <class S>
void batch_frame_placements(const Model<S>& model, BatchWorkspace<S>& ws, const BatchIn<S>& states,
                            const std::vector<int>& frame_ids, BatchOut<S> out) {
  const char* who = "batch_frame_placements";
  for (int f : frame_ids) detail::check_frame_index(model, f, who);
  detail::check_batch_block(who, "out", out, 12 * Eigen::Index(frame_ids.size()), 1, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    forward_poses(model, w.data, w.x);
    for (std::size_t f = 0; f < frame_ids.size(); ++f)
      detail::write_pose_column(frame_pose(model, w.data, frame_ids[f]),
                                out.col(i).template segment<12>(12 * Eigen::Index(f)));
  };
  detail::run_batch(who, "state", model, ws, states, kernel);
}

namespace detail {

/// The entry points with one input vector per state (nv × N) and one output vector (nv × N):
/// out.col(i) = call(worker, in.col(i)).
template <class S, class Call>
void batch_vector_to_vector(const char* who, const Model<S>& model, BatchWorkspace<S>& ws,
                            const BatchIn<S>& states, const char* in_name, const BatchIn<S>& in,
                            const char* out_name, BatchOut<S>& out, Call call) {
  check_batch_block(who, in_name, in, model.nv(), 1, states.cols());
  check_batch_block(who, out_name, out, model.nv(), 1, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) { out.col(i) = call(w, in.col(i)); };
  run_batch(who, "state", model, ws, states, kernel);
}

/// The entry points with one nv × nv matrix per state: out's slab i = call(worker).
template <class S, class Call>
void batch_to_square_matrix(const char* who, const Model<S>& model, BatchWorkspace<S>& ws,
                            const BatchIn<S>& states, const char* out_name, BatchOut<S>& out,
                            Call call) {
  const int nv = model.nv();
  check_batch_block(who, out_name, out, nv, nv, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) { out.middleCols(i * nv, nv) = call(w); };
  run_batch(who, "state", model, ws, states, kernel);
}

}  // namespace detail

/// rnea at every state: tau_out.col(i) = τ̄(x_i, ddq.col(i)) (nv × N each).
template <class S>
void batch_rnea(const Model<S>& model, BatchWorkspace<S>& ws, const BatchIn<S>& states,
                const BatchIn<S>& ddq, BatchOut<S> tau_out) {
  detail::batch_vector_to_vector("batch_rnea", model, ws, states, "ddq", ddq, "tau_out", tau_out,
                                 [&](BatchWorker<S>& w, const auto& a) -> const VectorX<S>& {
                                   return rnea(model, w.data, w.x, a);
                                 });
}

/// eidamb at every state: tau_out.col(i) = τ̄(x_i, ddq.col(i)) (nv × N each).
template <class S>
void batch_eidamb(const Model<S>& model, BatchWorkspace<S>& ws, const BatchIn<S>& states,
                  const BatchIn<S>& ddq, BatchOut<S> tau_out) {
  detail::batch_vector_to_vector("batch_eidamb", model, ws, states, "ddq", ddq, "tau_out", tau_out,
                                 [&](BatchWorker<S>& w, const auto& a) -> const VectorX<S>& {
                                   return eidamb(model, w.data, w.x, a);
                                 });
}

/// crba at every state: the mass matrix of state i in M_out's columns [i nv, (i+1) nv)
/// (nv × nv·N).
template <class S>
void batch_crba(const Model<S>& model, BatchWorkspace<S>& ws, const BatchIn<S>& states,
                BatchOut<S> M_out) {
  detail::batch_to_square_matrix(
      "batch_crba", model, ws, states, "M_out", M_out,
      [&](BatchWorker<S>& w) -> const MatrixX<S>& { return crba(model, w.data, w.x); });
}

/// aba at every state: ddq_out.col(i) = FD(x_i, tau.col(i)) (nv × N each).
template <class S>
void batch_aba(const Model<S>& model, BatchWorkspace<S>& ws, const BatchIn<S>& states,
               const BatchIn<S>& tau, BatchOut<S> ddq_out) {
  detail::batch_vector_to_vector("batch_aba", model, ws, states, "tau", tau, "ddq_out", ddq_out,
                                 [&](BatchWorker<S>& w, const auto& t) -> const VectorX<S>& {
                                   return aba(model, w.data, w.x, t);
                                 });
}

/// immamb at every state: M⁻¹ of state i in Minv_out's columns [i nv, (i+1) nv) (nv × nv·N).
template <class S>
void batch_immamb(const Model<S>& model, BatchWorkspace<S>& ws, const BatchIn<S>& states,
                  BatchOut<S> Minv_out) {
  detail::batch_to_square_matrix(
      "batch_immamb", model, ws, states, "Minv_out", Minv_out,
      [&](BatchWorker<S>& w) -> const MatrixX<S>& { return immamb(model, w.data, w.x); });
}

/// eidamb_derivatives at every state, base twist in `rep`: [D1 D2 D3 D4] of state i (nv × 2nv:
/// ∂ĪD/∂(η, s, base twist, r); D1, D3 empty for a welded base) in D_out's columns
/// [2i nv, 2(i+1) nv) (nv × 2nv·N).
template <class S>
void batch_eidamb_derivatives(const Model<S>& model, BatchWorkspace<S>& ws,
                              const BatchIn<S>& states, const BatchIn<S>& ddq, BatchOut<S> D_out,
                              TwistRepresentation rep = TwistRepresentation::Body) {
  const char* who = "batch_eidamb_derivatives";
  const int nv = model.nv(), nb = model.offset(), n = model.nv_joints();
  detail::check_batch_block(who, "ddq", ddq, nv, 1, states.cols());
  detail::check_batch_block(who, "D_out", D_out, nv, 2 * nv, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    eidamb_derivatives(model, w.data, w.x, ddq.col(i), rep);
    auto D = D_out.middleCols(2 * nv * i, 2 * nv);
    D.leftCols(nb) = w.data.derivatives.D1;
    D.middleCols(nb, n) = w.data.derivatives.D2;
    D.middleCols(nb + n, nb) = w.data.derivatives.D3;
    D.rightCols(n) = w.data.derivatives.D4;
  };
  detail::run_batch(who, "state", model, ws, states, kernel);
}

/// linearize at every state: A (2nv × 2nv) and B (2nv × nv) of state i at τ̄ = tau.col(i) in
/// A_out's columns [2i nv, 2(i+1) nv) and B_out's [i nv, (i+1) nv).
template <class S>
void batch_linearize(const Model<S>& model, BatchWorkspace<S>& ws, const BatchIn<S>& states,
                     const BatchIn<S>& tau, BatchOut<S> A_out, BatchOut<S> B_out,
                     const LinearizationOptions<S>& opt = {}) {
  const char* who = "batch_linearize";
  const int nv = model.nv();
  detail::check_batch_block(who, "tau", tau, nv, 1, states.cols());
  detail::check_batch_block(who, "A_out", A_out, 2 * nv, 2 * nv, states.cols());
  detail::check_batch_block(who, "B_out", B_out, 2 * nv, nv, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    linearize(model, w.data, w.x, tau.col(i), opt);
    A_out.middleCols(2 * nv * i, 2 * nv) = w.data.linearization.A;
    B_out.middleCols(nv * i, nv) = w.data.linearization.B;
  };
  detail::run_batch(who, "state", model, ws, states, kernel);
}

/// linearize_discrete (step dt) at every state, the layout of batch_linearize.
template <class S>
void batch_linearize_discrete(const Model<S>& model, BatchWorkspace<S>& ws,
                              const BatchIn<S>& states, const BatchIn<S>& tau, const S& dt,
                              BatchOut<S> A_out, BatchOut<S> B_out,
                              const LinearizationOptions<S>& opt = {}) {
  const char* who = "batch_linearize_discrete";
  const int nv = model.nv();
  detail::check_batch_block(who, "tau", tau, nv, 1, states.cols());
  detail::check_batch_block(who, "A_out", A_out, 2 * nv, 2 * nv, states.cols());
  detail::check_batch_block(who, "B_out", B_out, 2 * nv, nv, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    linearize_discrete(model, w.data, w.x, tau.col(i), dt, opt);
    A_out.middleCols(2 * nv * i, 2 * nv) = w.data.linearization.A;
    B_out.middleCols(nv * i, nv) = w.data.linearization.B;
  };
  detail::run_batch(who, "state", model, ws, states, kernel);
}

/// centroidal_momentum at every state: h_G of state i (linear first, centroidal frame) in
/// column i of h_out (6 × N).
template <class S>
void batch_centroidal_momentum(const Model<S>& model, BatchWorkspace<S>& ws,
                               const BatchIn<S>& states, BatchOut<S> h_out) {
  const char* who = "batch_centroidal_momentum";
  detail::check_batch_block(who, "h_out", h_out, 6, 1, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    h_out.col(i) = centroidal_momentum(model, w.data, w.x);
  };
  detail::run_batch(who, "state", model, ws, states, kernel);
}

/// constrained_forward_dynamics under `set` (the workspace's) at every state: q̈ in
/// ddq_out.col(i) (nv × N), λ in lambda_out.col(i) (m × N, the set's order).
template <class S>
void batch_constrained_forward_dynamics(
    const Model<S>& model, const ConstraintSet<S>& set, BatchWorkspace<S>& ws,
    const BatchIn<S>& states, const BatchIn<S>& tau, BatchOut<S> ddq_out, BatchOut<S> lambda_out,
    const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "batch_constrained_forward_dynamics";
  detail::check_batch_workspace(who, model, ws, &set);
  const int nv = model.nv(), m = set.dimension();
  detail::check_batch_block(who, "tau", tau, nv, 1, states.cols());
  detail::check_batch_block(who, "ddq_out", ddq_out, nv, 1, states.cols());
  detail::check_batch_block(who, "lambda_out", lambda_out, m, 1, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    ConstraintData<S>& cd = *w.constraint_data;
    ddq_out.col(i) = constrained_forward_dynamics(model, w.data, set, cd, w.x, tau.col(i), opt);
    lambda_out.col(i) = cd.lambda;
  };
  detail::run_batch(who, "state", model, ws, states, kernel);
}

/// constrained_forward_dynamics_derivatives under `set` at every state, x columns in `rep`:
/// ∂q̈/∂x (nv × 2nv), ∂λ/∂x (m × 2nv), ∂q̈/∂τ̄ (nv × nv), ∂λ/∂τ̄ (m × nv) of state i in the
/// i-th slab of ddq_dx_out, lambda_dx_out, ddq_dtau_out, lambda_dtau_out.
template <class S>
void batch_constrained_forward_dynamics_derivatives(
    const Model<S>& model, const ConstraintSet<S>& set, BatchWorkspace<S>& ws,
    const BatchIn<S>& states, const BatchIn<S>& tau, BatchOut<S> ddq_dx_out,
    BatchOut<S> lambda_dx_out, BatchOut<S> ddq_dtau_out, BatchOut<S> lambda_dtau_out,
    TwistRepresentation rep = TwistRepresentation::Body,
    const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "batch_constrained_forward_dynamics_derivatives";
  detail::check_batch_workspace(who, model, ws, &set);
  const int nv = model.nv(), m = set.dimension();
  const Eigen::Index N = states.cols();
  detail::check_batch_block(who, "tau", tau, nv, 1, N);
  detail::check_batch_block(who, "ddq_dx_out", ddq_dx_out, nv, 2 * nv, N);
  detail::check_batch_block(who, "lambda_dx_out", lambda_dx_out, m, 2 * nv, N);
  detail::check_batch_block(who, "ddq_dtau_out", ddq_dtau_out, nv, nv, N);
  detail::check_batch_block(who, "lambda_dtau_out", lambda_dtau_out, m, nv, N);
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    ConstraintData<S>& cd = *w.constraint_data;
    constrained_forward_dynamics_derivatives(model, w.data, set, cd, w.x, tau.col(i), rep, opt);
    ddq_dx_out.middleCols(2 * nv * i, 2 * nv) = cd.ddq_dx;
    lambda_dx_out.middleCols(2 * nv * i, 2 * nv) = cd.lambda_dx;
    ddq_dtau_out.middleCols(nv * i, nv) = cd.ddq_dtau;
    lambda_dtau_out.middleCols(nv * i, nv) = cd.lambda_dtau;
  };
  detail::run_batch(who, "state", model, ws, states, kernel);
}

/// impulse_dynamics under `set` with restitution `restitution` at every state: the velocity
/// after the impact [ν⁺; r⁺] in v_after_out.col(i) (nv × N), the impulses in impulse_out.col(i)
/// (m × N).
template <class S>
void batch_impulse_dynamics(
    const Model<S>& model, const ConstraintSet<S>& set, BatchWorkspace<S>& ws,
    const BatchIn<S>& states, const S& restitution, BatchOut<S> v_after_out,
    BatchOut<S> impulse_out,
    const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "batch_impulse_dynamics";
  detail::check_batch_workspace(who, model, ws, &set);
  detail::check_batch_block(who, "v_after_out", v_after_out, model.nv(), 1, states.cols());
  detail::check_batch_block(who, "impulse_out", impulse_out, set.dimension(), 1, states.cols());
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    ConstraintData<S>& cd = *w.constraint_data;
    v_after_out.col(i) = impulse_dynamics(model, w.data, set, cd, w.x, restitution, opt);
    impulse_out.col(i) = cd.impulse;
  };
  detail::run_batch(who, "state", model, ws, states, kernel);
}

namespace detail {

/// The number of steps K of a rollout from N = initial.cols() states with controls nv × K N
/// (refused otherwise).
template <class S>
Eigen::Index rollout_steps(const char* who, const Model<S>& model, const BatchIn<S>& initial,
                           const BatchIn<S>& controls) {
  const int nv = model.nv();
  const Eigen::Index N = initial.cols();
  LIEDYN_CHECK(controls.rows() == nv && (N == 0 ? controls.cols() == 0 : controls.cols() % N == 0),
               std::string(who) + ": controls has size " + std::to_string(controls.rows()) + " × " +
                   std::to_string(controls.cols()) + ", expected " + std::to_string(nv) +
                   " × (steps · " + std::to_string(N) + ")");
  return N == 0 ? 0 : controls.cols() / N;
}

/// The rollout driver: trajectory i starts at states.col(i) and takes K = controls.cols() / N
/// steps, step k with τ̄ = controls.col(i K + k), through step(worker, x, τ̄) (x advanced in
/// place); with `jacobians`, jacobians(worker, x, τ̄) first leaves the step's A, B in the
/// worker's Data. The states x_0..x_K of trajectory i go to states_out's columns
/// [i (K+1), (i+1)(K+1)), the Jacobians of its step k to slab i K + k of A_out, B_out.
template <class S, class Step, class Jacobians>
void rollout(const char* who, const Model<S>& model, BatchWorkspace<S>& ws,
             const BatchIn<S>& initial, const BatchIn<S>& controls, BatchOut<S> states_out,
             BatchOut<S>* A_out, BatchOut<S>* B_out, Step& step, Jacobians& jacobians) {
  const int nv = model.nv();
  const Eigen::Index N = initial.cols();
  const Eigen::Index K = rollout_steps(who, model, initial, controls);
  check_batch_block(who, "states_out", states_out, batch_state_size(model), K + 1, N);
  if (A_out) {
    check_batch_block(who, "A_out", *A_out, 2 * nv, 2 * nv, K * N);
    check_batch_block(who, "B_out", *B_out, 2 * nv, nv, K * N);
  }
  auto kernel = [&](BatchWorker<S>& w, Eigen::Index i) {
    states_out.col(i * (K + 1)) = initial.col(i);
    for (Eigen::Index k = 0; k < K; ++k) {
      const Eigen::Index knot = i * K + k;
      try {
        if (A_out) {
          jacobians(w, controls.col(knot));
          A_out->middleCols(2 * nv * knot, 2 * nv) = w.data.linearization.A;
          B_out->middleCols(nv * knot, nv) = w.data.linearization.B;
        }
        step(w, controls.col(knot));
      } catch (...) {
        rethrow_in_context(std::current_exception(), "step " + std::to_string(k));
      }
      write_state_column(model, w.x, states_out.col(i * (K + 1) + k + 1));
    }
  };
  run_batch(who, "trajectory", model, ws, initial, kernel);
}

}  // namespace detail

/// N rollouts of semi_implicit_euler_step (step dt): trajectory i from initial.col(i)
/// (batch_state_size × N) under the K controls τ̄ in controls' columns [i K, (i+1) K) (nv × K·N);
/// its states x_0 … x_K in states_out's columns [i (K+1), (i+1)(K+1))
/// (batch_state_size × (K+1)·N).
template <class S>
void batch_rollout(const Model<S>& model, BatchWorkspace<S>& ws, const BatchIn<S>& initial,
                   const BatchIn<S>& controls, const S& dt, BatchOut<S> states_out) {
  auto step = [&](BatchWorker<S>& w, const auto& tau) {
    semi_implicit_euler_step(model, w.data, w.x, tau, dt, w.x);
  };
  auto no_jacobians = [](BatchWorker<S>&, const auto&) {};
  detail::rollout<S>("batch_rollout", model, ws, initial, controls, states_out, nullptr, nullptr,
                     step, no_jacobians);
}

/// batch_rollout that also returns every step's Jacobians (linearize_discrete at x_k, τ̄_k,
/// δx in opt.representation): A (2nv × 2nv) of trajectory i's step k in A_out's slab i K + k
/// (2nv × 2nv·K·N), B (2nv × nv) in B_out's (2nv × nv·K·N).
template <class S>
void batch_rollout_with_jacobians(const Model<S>& model, BatchWorkspace<S>& ws,
                                  const BatchIn<S>& initial, const BatchIn<S>& controls,
                                  const S& dt, BatchOut<S> states_out, BatchOut<S> A_out,
                                  BatchOut<S> B_out, const LinearizationOptions<S>& opt = {}) {
  auto step = [&](BatchWorker<S>& w, const auto& tau) {
    semi_implicit_euler_step(model, w.data, w.x, tau, dt, w.x);
  };
  auto jacobians = [&](BatchWorker<S>& w, const auto& tau) {
    linearize_discrete(model, w.data, w.x, tau, dt, opt);
  };
  detail::rollout<S>("batch_rollout_with_jacobians", model, ws, initial, controls, states_out,
                     &A_out, &B_out, step, jacobians);
}

/// batch_rollout under the constraint set `set` (the workspace's): each step is the constrained
/// semi_implicit_euler_step (no projection onto the constraint manifold).
template <class S>
void batch_rollout(const Model<S>& model, const ConstraintSet<S>& set, BatchWorkspace<S>& ws,
                   const BatchIn<S>& initial, const BatchIn<S>& controls, const S& dt,
                   BatchOut<S> states_out,
                   const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  detail::check_batch_workspace("batch_rollout", model, ws, &set);
  auto step = [&](BatchWorker<S>& w, const auto& tau) {
    semi_implicit_euler_step(model, w.data, set, *w.constraint_data, w.x, tau, dt, w.x, copt);
  };
  auto no_jacobians = [](BatchWorker<S>&, const auto&) {};
  detail::rollout<S>("batch_rollout", model, ws, initial, controls, states_out, nullptr, nullptr,
                     step, no_jacobians);
}

/// batch_rollout_with_jacobians under the constraint set `set`: the constrained step and its
/// Jacobians (the constrained linearize_discrete).
template <class S>
void batch_rollout_with_jacobians(
    const Model<S>& model, const ConstraintSet<S>& set, BatchWorkspace<S>& ws,
    const BatchIn<S>& initial, const BatchIn<S>& controls, const S& dt, BatchOut<S> states_out,
    BatchOut<S> A_out, BatchOut<S> B_out, const LinearizationOptions<S>& opt = {},
    const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  detail::check_batch_workspace("batch_rollout_with_jacobians", model, ws, &set);
  auto step = [&](BatchWorker<S>& w, const auto& tau) {
    semi_implicit_euler_step(model, w.data, set, *w.constraint_data, w.x, tau, dt, w.x, copt);
  };
  auto jacobians = [&](BatchWorker<S>& w, const auto& tau) {
    linearize_discrete(model, w.data, set, *w.constraint_data, w.x, tau, dt, opt, copt);
  };
  detail::rollout<S>("batch_rollout_with_jacobians", model, ws, initial, controls, states_out,
                     &A_out, &B_out, step, jacobians);
}

}  // namespace liedyn
