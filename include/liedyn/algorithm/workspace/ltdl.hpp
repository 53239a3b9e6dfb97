// liedyn — algorithm: the factors M = Lᵀ D L and their scratch (ltdl.hpp), held by Data as
// data.ltdl.
#pragma once

#include "liedyn/model/model.hpp"

namespace liedyn {

template <class S>
struct Data;

/// The LᵀDL factors of M on the tree's sparsity, and the buffers of their solve and inverse.
template <class S>
struct LtdlFactorization {
  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<S>& model) {
    const int nv = model.nv();
    factors.setZero(nv, nv);
    base_rows.setZero(6, nv);
    scratch.setZero(2 * nv);
    rows.setZero(nv);
    Linv_.setZero(nv, nv);
  }

  MatrixX<S> factors;     ///< M = Lᵀ D L: D on the diagonal, L strictly below
  Matrix6X<S> base_rows;  ///< scratch of ltdl_factorize and ltdl_inverse (6 × nv) (moving base)
  VectorX<S> scratch;     ///< scratch of ltdl_factorize and ltdl_inverse (2 nv)
  Eigen::VectorXi rows;   ///< scratch of ltdl_inverse: the ancestors of one column (nv)

 private:
  // Scratch that keeps values between calls, so that no kernel depends on a public member
  // keeping one: L⁻¹ is zero outside each column's subtree and ltdl_inverse writes only that
  // part (its zeros are set once, in resize).
  MatrixX<S> Linv_;
  template <class T>
  friend const MatrixX<T>& ltdl_inverse(const Model<T>& model, Data<T>& data);
};

}  // namespace liedyn
