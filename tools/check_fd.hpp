// liedyn check: the finite-difference references, in long double (check_fd.cpp).
//
// Everything here is a central geometric finite difference (docs/conventions.md §5): the base pose
// moves as H exp(±δ e_k^), each joint on its own group (s ⊕ ±δ e_k, Joint::integrate), the
// velocities and the base twist as c ± δ e_k, with liedyn::numdiff's default step for long
// double (ε^(1/3) ≈ 5e-7). The results are rounded to double for the comparison.
#pragma once

#include "liedyn/model/state.hpp"

namespace liedyn_cli {

/// The step the references use.
long double fd_step();

/// D1..D4 of ĪD(x, ddq) (ddq = [ν̇; ṙ] held fixed) with the base twist in `rep`, by numdiff's
/// state_jacobian. D1 and D3 are empty for a welded base.
struct FdDerivatives {
  liedyn::MatrixX<double> D1, D2, D3, D4;
};
FdDerivatives fd_derivatives(const liedyn::Model<long double>& model,
                             const liedyn::State<double>& x, const liedyn::VectorX<double>& ddq,
                             liedyn::TwistRepresentation rep);

/// A and B of the forward dynamics at (x, τ̄) with δx = (η, δs, δt, δr), t the base twist in
/// `rep`: for dt == 0 the Jacobians of the tangent vector field d/dt δx (continuous time), for
/// dt > 0 those of one semi-implicit Euler step (liedyn::semi_implicit_euler_step), both from
/// the nonlinear dynamics (ABA) alone.
void fd_linearization(const liedyn::Model<long double>& model, const liedyn::State<double>& x,
                      const liedyn::VectorX<double>& tau, liedyn::TwistRepresentation rep,
                      double dt, liedyn::MatrixX<double>& A, liedyn::MatrixX<double>& B);

}  // namespace liedyn_cli
