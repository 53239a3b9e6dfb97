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

namespace {

// The vector field of the state in the coordinates of `rep` (the rows of A): [ν; r; ṫ; ṙ], ṫ the
// time derivative of the base twist in `rep` (base_acceleration_from_body); [r; ṙ] for a welded
// base.
VectorX<LD> state_field(const Model<LD>& model, Data<LD>& data, const State<LD>& y,
                        const VectorX<LD>& tau, TwistRepresentation rep) {
  const VectorX<LD> acc = aba(model, data, y, tau);
  const int n = model.nv_joints();
  VectorX<LD> f(2 * model.nv());
  if (model.has_moving_base())
    f << y.nu, y.r, base_acceleration_from_body(y.H, y.nu, Vector6<LD>(acc.head<6>()), rep),
        acc.tail(n);
  else f << y.r, acc;
  return f;
}

// A deviation η on a group (the base pose, a spherical, free or planar joint), q = q̄ ⊕ η, obeys
// η̇ = δv − ad(v̄) η: the field's differences along η give δv's part only, so the −ad blocks are
// added here (zero for the vector-space joints).
void add_deviation_blocks(const Model<LD>& model, const State<LD>& x, MatrixX<LD>& A) {
  const int off = model.offset();
  if (model.has_moving_base()) A.topLeftCorner<6, 6>() -= Motion<LD>(x.nu).cross_matrix();
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int r = model.r_index(i), k = model.joint_nv(i);
    JointTangentMap<LD> ad(k, k);
    model.joint(i).ad(x.r.segment(r, k), ad);
    A.block(off + r, off + r, k, k) -= ad;
  }
}

// y ⊖ x with the base-twist rows in `rep`: δt = t(y) − t(x).
VectorX<LD> local_difference(const Model<LD>& model, const State<LD>& x, const State<LD>& y,
                             TwistRepresentation rep) {
  VectorX<LD> d = difference(model, x, y);
  if (model.has_moving_base())
    d.segment<6>(6 + model.nv_joints()) = y.base_twist(rep) - x.base_twist(rep);
  return d;
}

}  // namespace

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
      return local_difference(model, x_next, semi_implicit_euler_step(model, data, y, u, h), rep);
    };
    A = numdiff::state_jacobian(
            model, [&](const State<LD>& y) { return step_from(y, tau0); }, x0, opt)
            .cast<double>();
    B = numdiff::vector_jacobian([&](const VectorX<LD>& u) { return step_from(x0, u); }, tau0)
            .cast<double>();
    return;
  }
  MatrixX<LD> A_ld = numdiff::state_jacobian(
      model, [&](const State<LD>& y) { return state_field(model, data, y, tau0, rep); }, x0, opt);
  add_deviation_blocks(model, x0, A_ld);
  A = A_ld.cast<double>();
  B = numdiff::vector_jacobian(
          [&](const VectorX<LD>& u) { return state_field(model, data, x0, u, rep); }, tau0)
          .cast<double>();
}

}  // namespace liedyn_cli
