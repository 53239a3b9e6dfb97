// liedyn tests — "Data holds results, not promises": NaN written into every public member of
// Data and ConstraintData, as a user who reuses the buffers might, so that a kernel reading an
// entry it did not write in the same call shows NaN (tests/test_data_contract.cpp and the
// constraint kernels' contract in tests/test_constraint_derivatives.cpp).
#pragma once

#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <liedyn/algorithm/data.hpp>
#include <liedyn/model/constraint.hpp>

namespace liedyn {
namespace test {

/// What the scribbles write.
inline const double nan_value = std::numeric_limits<double>::quiet_NaN();

inline void scribble(double& x) { x = nan_value; }
template <class Derived>
void scribble(Eigen::PlainObjectBase<Derived>& m) {
  if constexpr (std::is_integral<typename Derived::Scalar>::value)
    m.setConstant(-1);  // index scratch: an out-of-range index
  else m.setConstant(nan_value);
}
inline void scribble(SE3<double>& H) {
  H = SE3<double>(Matrix3<double>::Constant(nan_value), Vector3<double>::Constant(nan_value));
}
inline void scribble(Motion<double>& v) {
  v = Motion<double>(Vector6<double>::Constant(nan_value));
}
inline void scribble(Force<double>& f) { f = Force<double>(Vector6<double>::Constant(nan_value)); }
inline void scribble(SpatialInertia<double>& I) {
  I = SpatialInertia<double>::from_moments(nan_value, Vector3<double>::Constant(nan_value),
                                           Matrix3<double>::Constant(nan_value));
}
inline void scribble(int& i) { i = -1; }
template <class T>
void scribble(std::vector<T>& v) {
  for (T& e : v) scribble(e);
}

// Every public member of each workspace of Data, and of Data itself but model_id.
inline void scribble(KinematicsWorkspace<double>& w) {
  scribble(w.H_parent), scribble(w.joint_q), scribble(w.joint_sin), scribble(w.joint_cos);
  scribble(w.H_world), scribble(w.H_base), scribble(w.v), scribble(w.vJ);
}
inline void scribble(InverseDynamicsWorkspace<double>& w) {
  scribble(w.a), scribble(w.a_r), scribble(w.a_base), scribble(w.momentum), scribble(w.f);
  scribble(w.b_c), scribble(w.Ic), scribble(w.F);
}
inline void scribble(ArticulatedBodyWorkspace<double>& w) {
  scribble(w.S), scribble(w.v), scribble(w.c), scribble(w.IA), scribble(w.pA), scribble(w.U);
  scribble(w.Dinv), scribble(w.u), scribble(w.a);
}
inline void scribble(ArticulatedFactorization<double>& w) {
  scribble(w.IA), scribble(w.S), scribble(w.U), scribble(w.Dinv), scribble(w.p), scribble(w.a);
  scribble(w.u), scribble(w.Fset), scribble(w.Pset);
  w.base.compute(Matrix6<double>::Constant(nan_value));
}
inline void scribble(DynamicsDerivativesWorkspace<double>& w) {
  scribble(w.axis), scribble(w.v), scribble(w.a), scribble(w.u), scribble(w.phi), scribble(w.w);
  scribble(w.axis_rate), scribble(w.Ic), scribble(w.Bc), scribble(w.hc), scribble(w.fc);
  scribble(w.y), scribble(w.e), scribble(w.dA), scribble(w.dF);
  scribble(w.D1), scribble(w.D2), scribble(w.D3), scribble(w.D4);
}
inline void scribble(LinearizationWorkspace<double>& w) {
  scribble(w.K), scribble(w.MinvK), scribble(w.rows), scribble(w.A), scribble(w.B);
  scribble(w.tau_minus_bias), scribble(w.actuated_force);
}
inline void scribble(LtdlFactorization<double>& w) {
  scribble(w.factors), scribble(w.base_rows), scribble(w.scratch), scribble(w.rows);
}
inline void scribble(CentroidalWorkspace<double>& w) {
  scribble(w.matrix), scribble(w.com_jacobian), scribble(w.com_dx), scribble(w.momentum_dx);
  scribble(w.rate_dx);
}
inline void scribble(Data<double>& d) {
  scribble(d.kinematics), scribble(d.inverse_dynamics), scribble(d.aba), scribble(d.aza);
  scribble(d.derivatives), scribble(d.linearization), scribble(d.ltdl), scribble(d.centroidal);
  scribble(d.tau), scribble(d.h), scribble(d.ddq), scribble(d.M), scribble(d.Minv);
  scribble(d.coriolis);
}

// Every public result and scratch member of ConstraintData and of its derivative workspace. The
// route workspaces (proximal, projector, minimal) are left alone: the minimal-coordinates route
// keeps its partition between calls on purpose (docs/constraint-solvers.md).
inline void scribble(ConstraintData<double>& cd) {
  scribble(cd.J), scribble(cd.gamma), scribble(cd.drift), scribble(cd.position_error),
      scribble(cd.velocity_error);
  scribble(cd.lambda), scribble(cd.ddq), scribble(cd.impulse), scribble(cd.v_after);
  scribble(cd.delassus), scribble(cd.delassus_factor);
  scribble(cd.ddq_dx), scribble(cd.lambda_dx), scribble(cd.ddq_dtau), scribble(cd.lambda_dtau);
  scribble(cd.velocity_dx), scribble(cd.acceleration_dx), scribble(cd.position_error_dx),
      scribble(cd.Jdot);
  scribble(cd.v_after_dx), scribble(cd.impulse_dx);
  scribble(cd.bias_acceleration), scribble(cd.relative_columns), scribble(cd.rows_full);
  scribble(cd.Y), scribble(cd.Z), scribble(cd.rhs), scribble(cd.tmp_nv), scribble(cd.tmp_q);
  ConstrainedDerivativesWorkspace<double>& w = cd.derivatives;
  for (Matrix6X<double>* m :
       {&w.theta1,   &w.dv1, &w.daq1, &w.dav1,      &w.theta2,       &w.dv2,        &w.daq2,
        &w.dav2,     &w.dw,  &w.star, &w.de,        &w.gdot,         &w.du,         &w.dud,
        &w.dv2_full, &w.dy,  &w.rows, &w.column_dy, &w.column_theta, &w.column_rows})
    scribble(*m);
  scribble(w.minv_columns), scribble(w.rhs_t), scribble(w.lambda_t), scribble(w.ddq_t),
      scribble(w.velocity);
  scribble(w.motion_state.s), scribble(w.motion_state.r), scribble(w.motion_state.nu),
      scribble(w.motion_state.H);
  scribble(w.wrenches);
}

/// Same size and the same bits (NaN included).
inline bool bit_identical(const MatrixX<double>& a, const MatrixX<double>& b) {
  // memcmp must not see the null pointers of empty matrices (a welded base's D1, D3).
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(),
                                       sizeof(double) * static_cast<std::size_t>(a.size())) == 0);
}

}  // namespace test
}  // namespace liedyn
