// liedyn — model: Rⁿ under + as a joint's configuration group, shared by the joints whose
// coordinates are angles or lengths (the 1-DoF screws, the universal joint): q ⊕ δ = q + δ,
// q1 ⊖ q0 = q1 − q0, every Jacobian ±1, ad = 0.
#pragma once

#include "liedyn/arithmetic/types.hpp"

namespace liedyn {

/// The group operations of Rⁿ (nq = nv = N).
template <class S, int N>
struct VectorSpaceGroup {
  static constexpr int nq = N;
  static constexpr int nv = N;

  /// q ⊕ δ = q + δ. `out` may be q.
  template <class Q, class D, class O>
  static void integrate(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<D>& delta,
                        const Eigen::MatrixBase<O>& out) {
    const_cast<Eigen::MatrixBase<O>&>(out) = q + delta;
  }
  /// q1 ⊖ q0 = q1 − q0.
  template <class Q0, class Q1, class O>
  static void difference(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                         const Eigen::MatrixBase<O>& out) {
    const_cast<Eigen::MatrixBase<O>&>(out) = q1 - q0;
  }
  /// q = 0.
  template <class O>
  static void neutral(const Eigen::MatrixBase<O>& out) {
    const_cast<Eigen::MatrixBase<O>&>(out).setZero();
  }
  /// ad = 0 (N × N): the group is commutative.
  template <class V, class A>
  static void ad(const Eigen::MatrixBase<V>&, const Eigen::MatrixBase<A>& out) {
    const_cast<Eigen::MatrixBase<A>&>(out).setZero();
  }
  /// ∂(q ⊕ δ)/∂q = ∂(q ⊕ δ)/∂δ = 1 (N × N).
  template <class D, class Jq, class Jd>
  static void integrate_jacobians(const Eigen::MatrixBase<D>&, const Eigen::MatrixBase<Jq>& J_q,
                                  const Eigen::MatrixBase<Jd>& J_delta) {
    const_cast<Eigen::MatrixBase<Jq>&>(J_q).setIdentity();
    const_cast<Eigen::MatrixBase<Jd>&>(J_delta).setIdentity();
  }
  /// ∂(q1 ⊖ q0)/∂q0 = −1, ∂(q1 ⊖ q0)/∂q1 = 1 (N × N).
  template <class Q0, class Q1, class J0, class J1>
  static void difference_jacobians(const Eigen::MatrixBase<Q0>&, const Eigen::MatrixBase<Q1>&,
                                   const Eigen::MatrixBase<J0>& J_q0,
                                   const Eigen::MatrixBase<J1>& J_q1) {
    auto& J0m = const_cast<Eigen::MatrixBase<J0>&>(J_q0);
    J0m.setIdentity();
    J0m *= S(-1);
    const_cast<Eigen::MatrixBase<J1>&>(J_q1).setIdentity();
  }
};

}  // namespace liedyn
