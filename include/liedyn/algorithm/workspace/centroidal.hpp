// liedyn — algorithm: the results of the centroidal kernels (centroidal.hpp), held by Data as
// data.centroidal.
#pragma once

#include "liedyn/model/model.hpp"

namespace liedyn {

/// The centroidal momentum matrix, the CoM Jacobian and their state derivatives.
template <class S>
struct CentroidalWorkspace {
  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<S>& model) {
    const int nv = model.nv(), N = 2 * nv;
    matrix.setZero(6, nv);
    com_jacobian.setZero(3, nv);
    com_dx.setZero(3, N);
    momentum_dx.setZero(6, N);
    rate_dx.setZero(6, N);
  }

  Matrix6X<S> matrix;  ///< A_G (6 × nv): h_G = A_G ν̄, centroidal frame (CoM origin, inertial axes)
  Eigen::Matrix<S, 3, Eigen::Dynamic> com_jacobian;  ///< J_com (3 × nv), frame as requested
  Eigen::Matrix<S, 3, Eigen::Dynamic> com_dx;        ///< ∂p_com/∂x (3 × 2nv), inertial frame
  Matrix6X<S> momentum_dx;                           ///< ∂h_G/∂x (6 × 2nv)
  Matrix6X<S> rate_dx;                               ///< ∂ḣ_G/∂x at the given q̈ (6 × 2nv)
};

}  // namespace liedyn
