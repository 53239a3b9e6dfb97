// liedyn — algorithm: the workspace Data<S>, sized once from a Model, composed of one workspace
// per kernel family (algorithm/workspace/) and the results every family shares.
//
// Every kernel writes its intermediates and outputs here and allocates nothing once the Data
// exists. One Data per thread; the Model itself is shared read-only. Matrices and vectors of
// generalized size follow the model's base-first order.
#pragma once

#include <cstdint>

#include "liedyn/algorithm/workspace/articulated_body.hpp"
#include "liedyn/algorithm/workspace/articulated_factorization.hpp"
#include "liedyn/algorithm/workspace/centroidal.hpp"
#include "liedyn/algorithm/workspace/dynamics_derivatives.hpp"
#include "liedyn/algorithm/workspace/inverse_dynamics.hpp"
#include "liedyn/algorithm/workspace/kinematics.hpp"
#include "liedyn/algorithm/workspace/linearization.hpp"
#include "liedyn/algorithm/workspace/ltdl.hpp"
#include "liedyn/model/model.hpp"

namespace liedyn {

/// Per-thread workspace of the kernels for one Model: one workspace per kernel family and the
/// shared results, sized once so that no kernel allocates. A kernel adds its buffers to its own
/// family's workspace, never here.
template <class S>
struct Data {
  /// Allocates every buffer for `model` (see resize).
  explicit Data(const Model<S>& model) { resize(model); }

  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<S>& model) {
    const int nv = model.nv();
    model_id = model.id();
    kinematics.resize(model);
    inverse_dynamics.resize(model);
    aba.resize(model);
    aza.resize(model);
    derivatives.resize(model);
    linearization.resize(model);
    ltdl.resize(model);
    centroidal.resize(model);
    tau.setZero(nv);
    h.setZero(nv);
    ddq.setZero(nv);
    M.setZero(nv, nv);
    Minv.setZero(nv, nv);
    coriolis.setZero(nv, nv);
  }

  /// The number of bodies of the model this Data was sized for.
  int num_bodies() const { return static_cast<int>(kinematics.H_parent.size()); }

  /// Model::id() of the model this Data was sized for: kernels refuse a Data from another model.
  std::uint64_t model_id = 0;

  KinematicsWorkspace<S> kinematics;             ///< poses and twists (kinematics.hpp)
  InverseDynamicsWorkspace<S> inverse_dynamics;  ///< rnea, eidamb, crba
  ArticulatedBodyWorkspace<S> aba;               ///< aba
  ArticulatedFactorization<S> aza;               ///< aza_factorize/aza_solve, immamb
  DynamicsDerivativesWorkspace<S> derivatives;   ///< eidamb_derivatives, coriolis: D1..D4
  LinearizationWorkspace<S> linearization;       ///< linearize: A, B
  LtdlFactorization<S> ltdl;                     ///< ltdl_factorize, ltdl_solve, ltdl_inverse
  CentroidalWorkspace<S> centroidal;             ///< centroidal momentum matrix, CoM Jacobian

  VectorX<S> tau;       ///< generalized force τ̄ = [τ̄_b; τ]
  VectorX<S> h;         ///< bias h(x)
  VectorX<S> ddq;       ///< forward dynamics [ν̇; ṙ]
  MatrixX<S> M;         ///< mass matrix, both triangles
  MatrixX<S> Minv;      ///< its inverse, both triangles
  MatrixX<S> coriolis;  ///< C(x) (nv × nv): C ν̄ = velocity products, Ṁ − 2C skew-symmetric
};

}  // namespace liedyn
