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
  const int n = model.num_joints(), b = model.offset();
  FdDerivatives d;
  d.D1 = J.leftCols(b);
  d.D2 = J.middleCols(b, n);
  d.D3 = J.middleCols(b + n, b);
  d.D4 = J.rightCols(n);
  return d;
}

namespace {

// The state x0 ⊕ δx with δx = (η, δs, δt, δr), t the base twist in `rep`:
// H = H0 exp(η^), t = t0 + δt (then ν = the body twist of t at the new H), s, r shifted.
State<LD> perturbed(const Model<LD>& model, const State<LD>& x0, const VectorX<LD>& dx,
                    TwistRepresentation rep) {
  const int n = model.num_joints();
  State<LD> y = x0;
  if (!model.has_moving_base()) {
    y.s += dx.head(n);
    y.r += dx.tail(n);
    return y;
  }
  y.H = x0.H * SE3<LD>::exp(Vector6<LD>(dx.head<6>()));
  y.s += dx.segment(6, n);
  const Vector6<LD> t = base_twist_from_body(x0.H, x0.nu, rep) + dx.segment<6>(6 + n);
  y.nu = base_twist_to_body(y.H, t, rep);
  y.r += dx.segment(12 + n, n);
  return y;
}

}  // namespace

void fd_linearization(const Model<LD>& model, const State<double>& x, const VectorX<double>& tau,
                      TwistRepresentation rep, double dt, MatrixX<double>& A, MatrixX<double>& B) {
  const State<LD> x0 = x.cast<LD>();
  const VectorX<LD> tau0 = tau.cast<LD>();
  const int n = model.num_joints(), nv = model.nv(), N = 2 * nv;
  const bool moving = model.has_moving_base();
  const LD h = LD(dt);
  Data<LD> data(model);

  // Continuous time: d/dt δx along the perturbed motion, with H = H̄(t) exp(η^):
  //   η̇ = Jr(η)⁻¹ (ν − Ad(exp(η))⁻¹ ν̄),  δṡ = r − r̄,  δṫ = ṫ − ṫ̄,  δṙ = ṙ − ṙ̄,
  // ṫ the time derivative of the twist in `rep` (base_acceleration_from_body). Constant terms
  // (the nominal's) cancel in a central difference and are left out, except inside η̇.
  auto field = [&](const VectorX<LD>& dx, const VectorX<LD>& u) {
    const State<LD> y = perturbed(model, x0, dx, rep);
    const VectorX<LD> acc = aba(model, data, y, u);
    VectorX<LD> out(N);
    if (moving) {
      const Vector6<LD> eta = dx.head<6>();
      out.head<6>() = SE3<LD>::right_jacobian_inverse(eta) *
                      (y.nu - SE3<LD>::exp(eta).inverse().velocity_transform() * x0.nu);
      out.segment(6, n) = y.r;
      out.segment<6>(6 + n) =
          base_acceleration_from_body(y.H, y.nu, Vector6<LD>(acc.head<6>()), rep);
      out.tail(n) = acc.tail(n);
    } else {
      out.head(n) = y.r;
      out.tail(n) = acc;
    }
    return out;
  };
  // Discrete time: x⁺ = step(x0 ⊕ δx) ⊖ step(x0) in the same coordinates:
  //   η⁺ = log(H̄⁺⁻¹ H⁺), δs⁺, δt⁺ = t(H⁺, ν⁺) − t̄⁺, δr⁺.
  const State<LD> xp0 = semi_implicit_euler_step(model, data, x0, tau0, h);
  auto step = [&](const VectorX<LD>& dx, const VectorX<LD>& u) {
    const State<LD> y = semi_implicit_euler_step(model, data, perturbed(model, x0, dx, rep), u, h);
    VectorX<LD> out(N);
    if (moving) {
      out.head<6>() = xp0.H.inverse_times(y.H).log();
      out.segment(6, n) = y.s - xp0.s;
      out.segment<6>(6 + n) =
          base_twist_from_body(y.H, y.nu, rep) - base_twist_from_body(xp0.H, xp0.nu, rep);
      out.tail(n) = y.r - xp0.r;
    } else {
      out.head(n) = y.s - xp0.s;
      out.tail(n) = y.r - xp0.r;
    }
    return out;
  };

  const VectorX<LD> zero = VectorX<LD>::Zero(N);
  numdiff::NumDiffOptions<LD> opt;
  if (dt > 0.0) {
    A = numdiff::vector_jacobian([&](const VectorX<LD>& dx) { return step(dx, tau0); }, zero, opt)
            .cast<double>();
    B = numdiff::vector_jacobian([&](const VectorX<LD>& u) { return step(zero, u); }, tau0, opt)
            .cast<double>();
  } else {
    A = numdiff::vector_jacobian([&](const VectorX<LD>& dx) { return field(dx, tau0); }, zero, opt)
            .cast<double>();
    B = numdiff::vector_jacobian([&](const VectorX<LD>& u) { return field(zero, u); }, tau0, opt)
            .cast<double>();
  }
}

}  // namespace liedyn_cli
