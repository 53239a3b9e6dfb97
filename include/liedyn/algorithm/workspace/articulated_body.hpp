// liedyn — algorithm: the workspace of the articulated-body algorithm (aba.hpp), held by Data
// as data.aba.
#pragma once

#include <vector>

#include "liedyn/model/model.hpp"

namespace liedyn {

/// ABA's quantities, in the mixed frames [i] (base frame's orientation, origin at body i;
/// aba.hpp). Joint i's columns and rates sit at r_index(i) (joint_nv(i) of them), like r.
/// (The scalar is T: S is the motion subspaces' name.)
template <class T>
struct ArticulatedBodyWorkspace {
  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<T>& model) {
    const int nb = model.num_bodies(), n = model.nv_joints();
    S.setZero(6, n);
    v.assign(nb, Motion<T>());
    c.assign(nb, Motion<T>());
    IA.assign(nb, Matrix6<T>::Zero());
    pA.assign(nb, Force<T>());
    U.setZero(6, n);
    Dinv.setZero(n, 6);
    u.setZero(n);
    a.assign(nb, Motion<T>());
  }

  Matrix6X<T> S;               ///< motion subspaces S_i = R_i Γ_i (6 × nv_joints), [i]
  std::vector<Motion<T>> v;    ///< twist of body i, [i]
  std::vector<Motion<T>> c;    ///< velocity-product acceleration c_i, [i]
  std::vector<Matrix6<T>> IA;  ///< articulated inertia M^A_i, [i]
  std::vector<Force<T>> pA;    ///< articulated bias wrench p^A_i, [i]
  Matrix6X<T> U;               ///< U_i = M^A_i S_i (6 × nv_joints), [i]
  Eigen::Matrix<T, Eigen::Dynamic, 6> Dinv;  ///< D_i⁻¹ (k_i × k_i) in rows r_index(i)…,
                                             ///< columns 0…k_i − 1; D_i = S_iᵀ U_i + armature
  VectorX<T> u;                              ///< u_i = τ_i − S_iᵀ p^A_i (nv_joints)
  std::vector<Motion<T>> a;                  ///< a'_i, body acceleration incl. gravity, [i]
};

}  // namespace liedyn
