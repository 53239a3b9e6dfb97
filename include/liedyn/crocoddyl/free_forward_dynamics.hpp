// liedyn — Crocoddyl bridge: free forward dynamics as a Crocoddyl differential action model
// (crocoddyl::DifferentialActionModelAbstractTpl<double>, Crocoddyl 3.2), computed by liedyn's
// kernels (docs/crocoddyl.md).
//
// With x = (H, s, ν, r) in StateLiedyn's layout (state.hpp) and the control u:
//
//   τ̄ = S u,   xout = [ν̇; ṙ] = FD(x, τ̄) = M⁻¹ (τ̄ − h)          (aba.hpp)
//   Fx = ∂xout/∂dx  (nv × 2nv),  Fu = M⁻¹ S  (nv × nu)          (linearization.hpp, Body twist)
//
// ν̇ is the body acceleration ^0 a_{A,0} (the time derivative of ν), base first, then the
// joints in liedyn's order (docs/conventions.md §2); dx is StateLiedyn's tangent (η on the
// right, δν the body twist), so Fx is the bottom nv rows of the body linearization A of
// docs/conventions.md §4 — Pinocchio's [ddq_dq ddq_dv] up to the joint permutation (§7). S is
// [0; 1_n] (Actuation::FloatingBase: the base is not actuated, u = the joints' generalized
// forces) or 1 (Actuation::Full: u = [base wrench in the base frame, force first; joints]).
// Joint armature is the liedyn model's (JointSpec::with_armature, MJCF armature): aba and
// linearize add it to M's diagonal.
//
// The cost is a Crocoddyl CostModelSum over the same state (its residuals see a
// DataCollectorAbstract: residuals that need only the state and the control, such as
// ResidualModelState — use ResidualModelStateLiedyn, residual_state.hpp — and
// ResidualModelControl). Its Lx, Lu, Lxx, Lxu, Luu share the action data's memory.
#pragma once

#include <memory>
#include <ostream>

#include "liedyn/algorithm/aba.hpp"
#include "liedyn/algorithm/linearization.hpp"
#include "liedyn/crocoddyl/action_base.hpp"
#include "liedyn/crocoddyl/state.hpp"

namespace liedyn {
namespace crocoddyl {

class DifferentialActionModelFreeFwdDynamicsLiedyn;

/// The data of DifferentialActionModelFreeFwdDynamicsLiedyn (ActionDataLiedyn's members:
/// Crocoddyl's outputs and liedyn's workspace, used by aba and linearize).
struct DifferentialActionDataFreeFwdDynamicsLiedyn
    : public ActionDataLiedyn<DifferentialActionModelFreeFwdDynamicsLiedyn> {
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW
  /// The data of `model`, sized for it.
  explicit DifferentialActionDataFreeFwdDynamicsLiedyn(
      DifferentialActionModelFreeFwdDynamicsLiedyn* model)
      : ActionDataLiedyn(model) {}
};

/// Free forward dynamics of a liedyn model with a Crocoddyl cost sum, on StateLiedyn (this
/// header's comment: xout, Fx, Fu, the actuation). double only: casting to another scalar
/// throws.
class DifferentialActionModelFreeFwdDynamicsLiedyn
    : public ActionModelLiedyn<DifferentialActionModelFreeFwdDynamicsLiedyn,
                               DifferentialActionDataFreeFwdDynamicsLiedyn> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "DifferentialActionModelFreeFwdDynamicsLiedyn";

  /// The dynamics of `state`'s model driven as `actuation` says, with the cost sum `costs`
  /// (whose control size must be this model's nu).
  DifferentialActionModelFreeFwdDynamicsLiedyn(std::shared_ptr<StateLiedyn> state,
                                               Actuation actuation,
                                               std::shared_ptr<CostModelSum> costs)
      : ActionModelLiedyn(std::move(state), actuation, std::move(costs)) {}

  /// xout = FD(x, S u) by liedyn's aba, then the costs at (x, u).
  void calc(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
            const Eigen::Ref<const VectorXs>& u) override {
    Data& d = prepared(data, x, u, "calc");
    d.xout = aba(model(), d.dynamics, d.state, d.tau);
    get_costs()->calc(d.costs, x, u);
    d.cost = d.costs->cost;
  }
  using ActionModelLiedyn::calc;

  /// Fx (nv × 2nv) and Fu = M⁻¹ S (nv × nu) by liedyn's linearize (exact derivatives,
  /// docs/conventions.md §4, body twist), then the costs' derivatives at (x, u). Computes
  /// everything it needs from (x, u): calc need not have run.
  void calcDiff(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
                const Eigen::Ref<const VectorXs>& u) override {
    Data& d = prepared(data, x, u, "calcDiff");
    linearize(model(), d.dynamics, d.state, d.tau);
    const int nv = model().nv();
    d.Fx = d.dynamics.linearization.A.bottomRows(nv);
    d.Fu =
        d.dynamics.linearization.B.bottomRightCorner(nv, static_cast<int>(nu_));  // S = 1 or [0; 1]
    get_costs()->calcDiff(d.costs, x, u);
  }
  using ActionModelLiedyn::calcDiff;

  /// The control that holds x's configuration at rest, as Crocoddyl's: u = S⁺ g(q), g the
  /// generalized gravity force (rnea at ν̄ = 0, q̈ = 0); S⁺ = [0 1] for the floating base (the
  /// base's rows of g are not balanced, as in Crocoddyl), 1 for full actuation. maxiter and tol
  /// are unused (the answer is closed-form). Allocates nothing.
  void quasiStatic(const std::shared_ptr<DataAbstract>& data, Eigen::Ref<VectorXs> u,
                   const Eigen::Ref<const VectorXs>& x, std::size_t /*maxiter*/ = 100,
                   double /*tol*/ = 1e-9) override {
    Data& d = checked(data, x, u, "quasiStatic");
    u = holding_force(d, x).tail(static_cast<int>(nu_));
  }

  /// Prints the sizes and the actuation.
  void print(std::ostream& os) const override {
    print_sizes(os);
    os << "}";
  }
};

}  // namespace crocoddyl
}  // namespace liedyn
