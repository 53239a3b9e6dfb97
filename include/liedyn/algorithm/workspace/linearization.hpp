// liedyn — algorithm: the workspace of the linearizations (linearization.hpp,
// constrained_linearization.hpp), held by Data as data.linearization.
#pragma once

#include "liedyn/model/model.hpp"

namespace liedyn {

/// The Jacobians A, B of the state-space form and the buffers that build them.
template <class S>
struct LinearizationWorkspace {
  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<S>& model) {
    const int nv = model.nv(), N = 2 * nv;
    K.setZero(nv, N);
    MinvK.setZero(nv, N);
    rows.setZero(nv);
    A.setZero(N, N);
    B.setZero(N, nv);
    tau_minus_bias.setZero(nv);
    actuated_force.setZero(nv);
  }

  MatrixX<S> K;      ///< [D1 D2 D3 D4] (nv × 2nv; the Sweeps route only, else scratch)
  MatrixX<S> MinvK;  ///< scratch: M⁻¹ [D1 D2 D3 D4] (the Sweeps route), −M⁻¹ [D1 D2 D3 D4]
                     ///< (linearize_discrete)
  Eigen::VectorXi rows;  ///< scratch: the rows of one column pattern of D2/D4 (nv)
  MatrixX<S> A;          ///< δẋ = A δx + B δτ̄ (2nv × 2nv), or the discrete step's Jacobian
  MatrixX<S> B;          ///< (2nv × nv), input τ̄ (all generalized forces, base first)
  VectorX<S> tau_minus_bias;  ///< scratch: τ̄ − h (nv)
  VectorX<S> actuated_force;  ///< scratch: τ̄ = B_a u of the actuated forms (nv)
};

}  // namespace liedyn
