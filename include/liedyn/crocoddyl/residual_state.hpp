// liedyn — Crocoddyl bridge: the state residual r = x ⊖ x_ref with a cost derivative that is
// right on a Lie-group state that is not Crocoddyl's StateMultibody (docs/crocoddyl.md).
//
// Crocoddyl 3.2's ResidualModelState computes r and R_x = ∂r/∂x through the StateAbstract
// (diff, Jdiff), so it works on StateLiedyn as it is. Its cost derivative does not: for a
// state other than StateMultibody its calcCostDiff writes L_x = A_r and diag(L_xx) = diag(A_rr),
// the formulas of a vector space, where R_x = 1. On SE(3) × G, R_x = Jdiff's second Jacobian
// (Jr⁻¹(η) on the base block, each spherical or free joint's on its group) is not 1 once x and
// x_ref differ, and that L_x is not the gradient. ResidualModelStateLiedyn keeps the residual and
// writes the Gauss–Newton derivatives L_x = R_xᵀ A_r and L_xx = R_xᵀ diag(A_rr) R_x, block by
// block: R_x is block-diagonal (StateLiedyn::for_each_configuration_block, then 1 on the
// velocities), as StateMultibody's branch uses it. The dense products of the residual base
// class would give the same numbers, but allocate Eigen's matrix-product workspace once ndx
// passes a few dozen (a heap allocation in every calcDiff). On a state other than StateLiedyn it
// falls back to them.
#pragma once

#include <memory>

#include <crocoddyl/multibody/residuals/state.hpp>

#include "liedyn/config.hpp"
#include "liedyn/crocoddyl/state.hpp"

namespace liedyn {
namespace crocoddyl {

/// Crocoddyl's ResidualModelState (r = x ⊖ x_ref, in the tangent coordinates of its state) with
/// the Gauss–Newton cost derivatives L_x = R_xᵀ A_r, L_xx = R_xᵀ diag(A_rr) R_x (this header's
/// comment says why Crocoddyl's own are wrong on a Lie-group StateAbstract). double only.
class ResidualModelStateLiedyn : public ::crocoddyl::ResidualModelStateTpl<double> {
 public:
  using Base = ::crocoddyl::ResidualModelStateTpl<double>;
  using Base::Base;  // Crocoddyl's constructors: (state, xref, nu), (state, xref), (state, nu), …

  /// L_x = R_xᵀ A_r, L_xx = R_xᵀ diag(A_rr) R_x (tangent coordinates of the state, ndx); block
  /// by block on StateLiedyn (no allocation), densely on another state. The residual does not
  /// depend on u: L_u, L_uu, L_xu are left alone.
  void calcCostDiff(const std::shared_ptr<CostDataAbstract>& cdata,
                    const std::shared_ptr<ResidualDataAbstract>& rdata,
                    const std::shared_ptr<ActivationDataAbstract>& adata,
                    const bool update_u = true) override {
    const auto* state = dynamic_cast<const StateLiedyn*>(state_.get());
    if (state == nullptr) {
      ::crocoddyl::ResidualModelAbstractTpl<double>::calcCostDiff(cdata, rdata, adata, update_u);
      return;
    }
    const int nv = static_cast<int>(state_->get_nv());
    const auto& Rx = rdata->Rx;
    const auto& Ar = adata->Ar;
    const auto& arr = adata->Arr.diagonal();  // a reference: Arr is a DiagonalMatrix
    auto& Lx = cdata->Lx;
    auto& Lxx = cdata->Lxx;
    Lxx.setZero();
    state->for_each_configuration_block([&](int r, int k) {
      const auto R = Rx.block(r, r, k, k);
      Lx.segment(r, k).noalias() = R.transpose().lazyProduct(Ar.segment(r, k));
      const JointTangentMap<double> AR = arr.segment(r, k).asDiagonal() * R;  // k ≤ 6: on the stack
      Lxx.block(r, r, k, k).noalias() = R.transpose().lazyProduct(AR);
    });
    Lx.tail(nv) = Ar.tail(nv);  // R_x is 1 on the velocities
    Lxx.diagonal().tail(nv) = arr.tail(nv);
  }

  /// A copy of this residual (Crocoddyl's cast to double).
  std::shared_ptr<::crocoddyl::ResidualModelBase> cloneAsDouble() const override {
    return std::make_shared<ResidualModelStateLiedyn>(*this);
  }
  /// Throws: the bridge is double only (Crocoddyl's cast to float).
  [[noreturn]] std::shared_ptr<::crocoddyl::ResidualModelBase> cloneAsFloat() const override {
    detail::throw_invalid_argument("ResidualModelStateLiedyn: casting to float is not supported");
  }
};

}  // namespace crocoddyl
}  // namespace liedyn
