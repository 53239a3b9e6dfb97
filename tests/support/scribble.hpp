// liedyn tests — "Data holds results, not promises": NaN written into every public member of
// Data and ConstraintData, as a user who reuses the buffers might, so that a kernel reading an
// entry it did not write in the same call shows NaN (tests/test_data_contract.cpp and the
// constraint kernels' contract in tests/test_constraint_derivatives.cpp).
#pragma once

#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <liedyn/model/constraint.hpp>
#include <liedyn/model/data.hpp>

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

// Every public member of Data but num_bodies (the size it was built for).
inline void scribble(Data<double>& d) {
  scribble(d.H_parent), scribble(d.joint_q), scribble(d.joint_sin), scribble(d.joint_cos);
  scribble(d.H_world), scribble(d.H_base), scribble(d.v), scribble(d.vJ);
  scribble(d.a), scribble(d.a_r), scribble(d.a_base), scribble(d.momentum), scribble(d.f),
      scribble(d.b_c);
  scribble(d.Ic), scribble(d.aba_IA), scribble(d.aba_pA), scribble(d.aba_U), scribble(d.aba_c);
  scribble(d.aba_Dinv), scribble(d.aba_u), scribble(d.F), scribble(d.Fset), scribble(d.Pset);
  scribble(d.ground_axis), scribble(d.ground_v), scribble(d.ground_a), scribble(d.ground_u);
  scribble(d.ground_phi), scribble(d.ground_w), scribble(d.ground_axis_rate), scribble(d.ground_Ic),
      scribble(d.ground_Bc);
  scribble(d.ground_hc), scribble(d.ground_fc), scribble(d.ground_y), scribble(d.ground_e);
  scribble(d.ground_dA), scribble(d.ground_dF);
  scribble(d.D1), scribble(d.D2), scribble(d.D3), scribble(d.D4);
  scribble(d.aza_IA), scribble(d.aza_S), scribble(d.aza_U), scribble(d.aza_Dinv), scribble(d.aza_p);
  scribble(d.aza_a), scribble(d.aza_u);
  d.aza_base.compute(Matrix6<double>::Constant(nan_value));
  scribble(d.lin_K), scribble(d.lin_MinvK), scribble(d.lin_rows), scribble(d.A), scribble(d.B);
  scribble(d.tau), scribble(d.h), scribble(d.ddq), scribble(d.M), scribble(d.Minv);
  scribble(d.ltdl), scribble(d.ltdl_base_rows), scribble(d.ltdl_scratch), scribble(d.tmp_nv),
      scribble(d.tmp_nv2);
  scribble(d.centroidal_matrix), scribble(d.com_jacobian), scribble(d.coriolis);
  scribble(d.com_dx), scribble(d.centroidal_momentum_dx), scribble(d.centroidal_rate_dx);
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
