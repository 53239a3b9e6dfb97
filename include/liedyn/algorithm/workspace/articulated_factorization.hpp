// liedyn — algorithm: the articulated-body factorization of M at s (aza.hpp) and the buffers of
// M⁻¹ built from it (immamb.hpp), held by Data as data.aza.
#pragma once

#include <vector>

#include "liedyn/arithmetic/cholesky6.hpp"
#include "liedyn/model/model.hpp"

namespace liedyn {

/// AZA's factors for solving M x = y, their per-solve buffers, and IMMAmb's column sets. Joint
/// i's columns sit at r_index(i). (The scalar is T: S is the motion subspaces' name.)
template <class T>
struct ArticulatedFactorization {
  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<T>& model) {
    const int nb = model.num_bodies(), n = model.nv_joints();
    IA.assign(nb, Matrix6<T>::Zero());
    S.setZero(6, n);
    U.setZero(6, n);
    Dinv.setZero(n, 6);
    p.assign(nb, Vector6<T>::Zero());
    a.assign(nb, Vector6<T>::Zero());
    u.setZero(n);
    Fset.assign(1, Matrix6X<T>::Zero(6, n));
    Pset.assign(nb, Matrix6X<T>::Zero(6, n));
  }

  std::vector<Matrix6<T>> IA;  ///< articulated inertia M^A_i, mixed frame [i] (aza.hpp)
  Matrix6X<T> S;  ///< S_i = ^0X_i Γ_i(q_i) (6 × nv_joints, joint i's from r_index(i); frame 0)
  Matrix6X<T> U;  ///< U_i = M^A_i S_i (6 × nv_joints, as S; frame 0)
  Eigen::Matrix<T, Eigen::Dynamic, 6> Dinv;  ///< D_i⁻¹ = (S_iᵀ M^A_i S_i + armature_i 1)⁻¹
                                             ///< (k_i × k_i) in rows r_index(i)…, columns 0…
  std::vector<Vector6<T>> p;                 ///< per-solve bias wrench (frame 0)
  std::vector<Vector6<T>> a;                 ///< per-solve body acceleration (frame 0)
  VectorX<T> u;                              ///< per-solve u_i (nv_joints)
  detail::Cholesky6<T> base;                 ///< factorization of the base's articulated inertia
  std::vector<Matrix6X<T>> Fset;  ///< IMMAmb's 𝓕_i: one 6 × n buffer, Fset[0], shared (immamb)
  std::vector<Matrix6X<T>> Pset;  ///< IMMAmb's 𝓟_i (6 × n each, frame 0)
};

}  // namespace liedyn
