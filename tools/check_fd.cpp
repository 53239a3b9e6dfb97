#include "check_fd.hpp"

#include "liedyn/algorithm/aba.hpp"
#include "liedyn/algorithm/eidamb.hpp"
#include "liedyn/algorithm/linearization.hpp"
#include "liedyn/numdiff.hpp"

namespace liedyn_cli {

using namespace liedyn;
using LD = long double;

long double fd_step() { return numdiff::default_step<LD>(numdiff::DifferenceScheme::Central); }

FdDerivatives fd_derivatives(const Model<LD>& model, const State<double>& x,
                             const VectorX<double>& ddq, TwistRepresentation rep) {
  const State<LD> xl = x.cast<LD>();
  const VectorX<LD> al = ddq.cast<LD>();
  Data<LD> data(model);
  auto f = [&](const State<LD>& y) -> VectorX<LD> { return eidamb(model, data, y, al); };
  numdiff::NumDiffOptions<LD> opt;
  opt.twist_representation = rep;
  const MatrixX<double> J = numdiff::state_jacobian(model, f, xl, opt).cast<double>();
  const int n = model.nv_joints(), b = model.offset();
  FdDerivatives d;
  d.D1 = J.leftCols(b);
  d.D2 = J.middleCols(b, n);
  d.D3 = J.middleCols(b + n, b);
  d.D4 = J.rightCols(n);
  return d;
}

void fd_linearization(const Model<LD>& model, const State<double>& x, const VectorX<double>& tau,
                      TwistRepresentation rep, double dt, MatrixX<double>& A, MatrixX<double>& B) {
  const State<LD> x0 = x.cast<LD>();
  const VectorX<LD> tau0 = tau.cast<LD>();
  Data<LD> data(model);
  // numdiff moves the base as H exp(η^) with the twist of `rep` held, each joint on its group
  // (x ⊕ δx), the twist and velocities additively: the columns δx = (η, δs, δt, δr) of A.
  numdiff::NumDiffOptions<LD> opt;
  opt.twist_representation = rep;
  if (dt > 0.0) {
    // One semi-implicit Euler step: δx⁺ = step(x0 ⊕ δx) ⊖ step(x0).
    const LD h = LD(dt);
    const State<LD> x_next = semi_implicit_euler_step(model, data, x0, tau0, h);
    auto step_from = [&](const State<LD>& y, const VectorX<LD>& u) {
      return numdiff::local_difference(model, x_next,
                                       semi_implicit_euler_step(model, data, y, u, h), rep);
    };
    A = numdiff::state_jacobian(
            model, [&](const State<LD>& y) { return step_from(y, tau0); }, x0, opt)
            .cast<double>();
    B = numdiff::vector_jacobian([&](const VectorX<LD>& u) { return step_from(x0, u); }, tau0)
            .cast<double>();
    return;
  }
  MatrixX<LD> A_ld = numdiff::state_jacobian(
      model,
      [&](const State<LD>& y) { return numdiff::state_vector_field(model, data, y, tau0, rep); },
      x0, opt);
  numdiff::add_deviation_drift(model, x0, A_ld);
  A = A_ld.cast<double>();
  B = numdiff::vector_jacobian(
          [&](const VectorX<LD>& u) {
            return numdiff::state_vector_field(model, data, x0, u, rep);
          },
          tau0)
          .cast<double>();
}

}  // namespace liedyn_cli
