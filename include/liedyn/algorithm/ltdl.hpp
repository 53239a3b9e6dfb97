// liedyn — algorithm: the sparse LᵀDL factorization of the mass matrix (Featherstone, Rigid Body
// Dynamics Algorithms §6.5, "LTDL"), its solve, and the inverse mass matrix from it.
//
// In the tree of the velocity coordinates (Model::dof_parent: a moving base's six coordinates
// as a chain at the root) M is nonzero only between a coordinate and its ancestors, and so is L in
// M = Lᵀ D L (L unit lower triangular, D diagonal). Eliminating from the leaves up creates no
// fill-in: the factorization costs O(Σ_d depth(d)²) instead of O(nv³), and a solve O(Σ_d depth(d)).
// It is a symmetric elimination of a positive-definite matrix without pivoting, backward stable
// like Cholesky.
//
// Storage: data.ltdl.factors holds D on its diagonal and L strictly below it; its strictly upper
// part is not read. The inverse is M⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ = Σ_k D_k⁻¹ g_k g_kᵀ with g_k = L⁻¹ e_k, which
// is zero outside k's subtree — a contiguous range of coordinates — so each term touches one
// diagonal block of M⁻¹, and column c of M⁻¹ combines only the g_k of c and its ancestors: O(Σ_d
// |subtree(d)|²) work, about nv³/3 only for a single chain. Frames and order: those of data.M
// (docs/conventions.md §2) — base first, the base's six coordinates a twist or wrench in the base
// frame (linear first), then the joints; x in ltdl_solve and data.Minv follow the same order and
// frames. None of these allocate. The mass matrix must be invertible
// (Model::require_invertible_mass_matrix).
#pragma once

#include <cassert>
#include <string>

#include "liedyn/algorithm/common.hpp"
#include "liedyn/algorithm/data.hpp"
#include "liedyn/arithmetic/gather_product.hpp"

namespace liedyn {

namespace detail {

/// Refuses factors ltdl_factorize did not leave: every pivot it writes is positive, while a
/// fresh Data's are zero, which a solve would divide by (infinities, no error). O(nv).
template <class S>
void check_ltdl_factors(const Model<S>& model, const Data<S>& data, const char* who) {
  for (int j = 0; j < model.nv(); ++j)
    LIEDYN_CHECK(data.ltdl.factors(j, j) > S(0),
                 std::string(who) + ": data.ltdl holds no factorization (pivot " +
                     std::to_string(j) + " is not positive): run ltdl_factorize first");
}

}  // namespace detail

/// M = Lᵀ D L from data.M (crba, eidamb_derivatives) into data.ltdl.factors. Throws InvalidArgument
/// when a pivot is not positive: data.M is not a mass matrix (a fresh Data's is zero) or the
/// model's is singular.
///
/// A coordinate's column of L is contiguous over its subtree, so the elimination is ordered to
/// work on those columns (leaves first; for each j, its pivot, then its row of L from
/// dot products over the subtree): L(j, i) = (M(i, j) − Σ_{c ∈ subtree(j), c ≠ j} L(c, i) D_c L(c,
/// j)) / D_j for i an ancestor of j, D_j = M(j, j) − Σ_c D_c L(c, j)².
template <class S>
void ltdl_factorize(const Model<S>& model, Data<S>& data) {
  detail::check_data_pairing("ltdl_factorize", model, data);
  const int nv = model.nv(), off = model.offset();
  MatrixX<S>& F = data.ltdl.factors;
  // A moving base's six coordinates are every joint's ancestors: a joint's row of L on them is
  // one 6-vector, L(j, base) = (M(base, j) − Σ_c D_c L(c, j) L(c, base)) / D_j, accumulated
  // from its subtree's rows (kept as columns of a 6 × nv scratch, so contiguous) instead of six
  // short dot products down the base's columns.
  auto& base_rows = data.ltdl.base_rows;  // column c = L(c, 0:6)ᵀ
  for (int j = nv - 1; j >= 0; --j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    const auto column = F.col(j).segment(first, len);
    auto weighted = data.ltdl.scratch.head(len);  // D_c L(c, j) over j's subtree
    weighted = column.cwiseProduct(F.diagonal().segment(first, len));
    const S pivot = data.M(j, j) - column.dot(weighted);
    LIEDYN_CHECK(pivot > S(0), "ltdl_factorize: data.M is not positive definite (pivot " +
                                   std::to_string(j) +
                                   "): compute it first (crba), or the model's mass matrix is "
                                   "singular (Model::require_invertible_mass_matrix)");
    F(j, j) = pivot;
    const S inverse_pivot = S(1) / pivot;
    const bool base_as_vector = off == 6 && j >= 6;  // a joint below a moving base
    const int last = base_as_vector ? 6 : 0;  // the ancestors done by dot products: i ≥ last
    for (int i = model.dof_parent(j); i >= last; i = model.dof_parent(i))
      F(j, i) = (data.M(i, j) - F.col(i).segment(first, len).dot(weighted)) * inverse_pivot;
    if (base_as_vector) {
      Vector6<S> r = data.M.col(j).template head<6>();
      for (int k = 0; k < len; ++k) r -= weighted(k) * base_rows.col(first + k);
      base_rows.col(j) = r * inverse_pivot;
      F.row(j).template head<6>() = base_rows.col(j).transpose();
    }
  }
}

/// x ← M⁻¹ x in place (x: a vector of size nv, or a writable segment), from the factors of
/// ltdl_factorize (InvalidArgument if data holds none).
template <class S, class Derived>
void ltdl_solve(const Model<S>& model, const Data<S>& data,
                const Eigen::MatrixBase<Derived>& x_out) {
  // Eigen's idiom for writable expression arguments (a segment is a temporary).
  Eigen::MatrixBase<Derived>& x = const_cast<Eigen::MatrixBase<Derived>&>(x_out);
  const int nv = model.nv();
  const MatrixX<S>& F = data.ltdl.factors;
  detail::check_data_pairing("ltdl_solve", model, data);
  LIEDYN_CHECK_SIZE("ltdl_solve", "x", x, nv);
  detail::check_ltdl_factors(model, data, "ltdl_solve");
  // Lᵀ y = x, leaves first: y_j = x_j − Σ_{c in j's subtree} L(c, j) y_c, one dot product.
  for (int j = nv - 1; j >= 0; --j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    x(j) -= F.col(j).segment(first, len).dot(x.segment(first, len));
  }
  for (int j = 0; j < nv; ++j) x(j) /= F(j, j);
  // L x = y, root first: once x_j is final, its column of L updates its subtree.
  for (int j = 0; j < nv; ++j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    x.segment(first, len) -= F.col(j).segment(first, len) * x(j);
  }
}

/// M⁻¹ into data.Minv (both triangles), from the factors of ltdl_factorize (L⁻¹ is kept in
/// Data's private scratch). InvalidArgument if data holds no factors.
///
/// Column c of M⁻¹ = Σ_k D_k⁻¹ g_k g_kᵀ e_c sums over the k with c in k's subtree — c's
/// ancestors and c — so its lower part is a combination of those few columns of L⁻¹: the
/// gathered product of gather_product.hpp, two columns per sweep (c and c + 1 share c's
/// ancestors: c + 1's parent is c or one of them).
template <class S>
const MatrixX<S>& ltdl_inverse(const Model<S>& model, Data<S>& data) {
  detail::check_data_pairing("ltdl_inverse", model, data);
  detail::check_ltdl_factors(model, data, "ltdl_inverse");
  const int nv = model.nv();
  const MatrixX<S>& F = data.ltdl.factors;
  MatrixX<S>& G = data.ltdl.Linv_;  // zero outside each column's subtree: only that part is written
  const int off = model.offset();
  if (off == 6) {
    // A moving base's six columns hold most of L⁻¹'s entries (its coordinates are everyone's
    // ancestors). They are computed a row at a time, as 6-vectors (row d of L⁻¹ restricted to
    // the base: r_d = −Σ_{j ≺ d} L(d, j) r_j), which vectorizes; the columns below would be
    // short scattered loops. Rows 0..5 first: the inverse of L's unit lower-triangular base block.
    auto& rows = data.ltdl.base_rows;  // column d = (row d of L⁻¹)[0:6]
    for (int d = 0; d < 6; ++d) {
      Vector6<S> r = Vector6<S>::Unit(d);
      for (int j = 0; j < d; ++j) r -= F(d, j) * rows.col(j);
      rows.col(d) = r;
    }
    for (int d = 6; d < nv; ++d) {
      Vector6<S> r = -(rows.template leftCols<6>() * F.row(d).template head<6>().transpose());
      for (int j = model.dof_parent(d); j >= 6; j = model.dof_parent(j)) r -= F(d, j) * rows.col(j);
      rows.col(d) = r;
    }
    G.template topRows<6>().template leftCols<6>() = rows.template leftCols<6>().transpose();
    for (int d = 6; d < nv; ++d) G.row(d).template head<6>() = rows.col(d).transpose();
  }
  for (int k = off; k < nv; ++k) {
    const int end = model.dof_subtree_end(k);
    // g = L⁻¹ e_k on k's subtree (L g = e_k, root first as in ltdl_solve).
    // Plain loops: the segments are a few coefficients long, too short for Eigen's vector path.
    auto g = G.col(k);
    g(k) = S(1);
    for (int d = k + 1; d < end; ++d) g(d) = S(0);
    for (int j = k; j < end; ++j) {
      const S gj = g(j);
      const auto l = F.col(j);
      const int end_j = model.dof_subtree_end(j);
      for (int d = j + 1; d < end_j; ++d) g(d) -= l(d) * gj;
    }
  }
  MatrixX<S>& Minv = data.Minv;
  auto& ks = data.ltdl.rows;
  auto a = data.ltdl.scratch.head(nv), b = data.ltdl.scratch.segment(nv, nv);
  for (int c = 0; c < nv; c += 2) {
    int p = 0;
    for (int k = c; k >= 0; k = model.dof_parent(k)) ks(p++) = k;
    const bool pair = c + 1 < nv;
    if (pair) ks(p++) = c + 1;
    for (int t = 0; t < p; ++t) {
      const S inverse_pivot = S(1) / F(ks(t), ks(t));
      a(t) = G(c, ks(t)) * inverse_pivot;
      b(t) = pair ? S(G(c + 1, ks(t)) * inverse_pivot) : a(t);
    }
    // Rows c.. of columns c and c + 1 (row c of column c + 1 is above the diagonal: overwritten
    // by the mirror below with the same value).
    detail::gather_product2<S>(G, c, ks.head(p), a, b, S(1), Minv.col(c).tail(nv - c),
                               Minv.col(pair ? c + 1 : c).tail(nv - c));
  }
  for (int c = 1; c < nv; ++c)
    for (int r = 0; r < c; ++r) Minv(r, c) = Minv(c, r);
  return Minv;
}

}  // namespace liedyn
