// liedyn — Crocoddyl bridge: the state residual r = x ⊖ x_ref with a cost derivative that is
// right on a Lie-group state that is not Crocoddyl's StateMultibody (docs/crocoddyl.md).
//
// Crocoddyl 3.2's ResidualModelState computes r and R_x = ∂r/∂x through the StateAbstract
// (diff, Jdiff), so it works on StateLiedyn as it is. Its cost derivative does not: for a
// state other than StateMultibody its calcCostDiff writes L_x = A_r and diag(L_xx) = diag(A_rr),
// the formulas of a vector space, where R_x = 1. On SE(3) × G, R_x = Jdiff's second Jacobian
// (Jr⁻¹(η) on the base block, each spherical or free joint's on its group) is not 1 once x and
// x_ref differ, and that L_x is not the gradient. ResidualModelStateLiedyn keeps the residual and
// uses the Gauss–Newton derivatives of the residual base class instead,
// L_x = R_xᵀ A_r and L_xx = R_xᵀ diag(A_rr) R_x, which are StateMultibody's block formulas
// written densely.
#pragma once

#include <memory>

#include <crocoddyl/multibody/residuals/state.hpp>

#include "liedyn/config.hpp"

namespace liedyn {
namespace crocoddyl {

/// Crocoddyl's ResidualModelState (r = x ⊖ x_ref, in the tangent coordinates of its state) with
/// the Gauss–Newton cost derivatives L_x = R_xᵀ A_r, L_xx = R_xᵀ diag(A_rr) R_x (this header's
/// comment says why Crocoddyl's own are wrong on a Lie-group StateAbstract). double only.
class ResidualModelStateLiedyn : public ::crocoddyl::ResidualModelStateTpl<double> {
 public:
  using Base = ::crocoddyl::ResidualModelStateTpl<double>;
  using Base::Base;  // Crocoddyl's constructors: (state, xref, nu), (state, xref), (state, nu), …

  /// L_x = R_xᵀ A_r, L_xx = R_xᵀ diag(A_rr) R_x (tangent coordinates of the state, ndx).
  void calcCostDiff(const std::shared_ptr<CostDataAbstract>& cdata,
                    const std::shared_ptr<ResidualDataAbstract>& rdata,
                    const std::shared_ptr<ActivationDataAbstract>& adata,
                    const bool update_u = true) override {
    ::crocoddyl::ResidualModelAbstractTpl<double>::calcCostDiff(cdata, rdata, adata, update_u);
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
