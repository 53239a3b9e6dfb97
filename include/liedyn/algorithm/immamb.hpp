// liedyn — algorithm: IMMAmb, the analytic inverse of the mass matrix of a moving-base robot
// (Table 9 of Bos, Traversaro, Pucci, Saccon 2022), with the table's three
// defects fixed (docs/conventions.md §6):
//   1. M^A_0 = M_0 is initialized with the other bodies (lines 1–5 run from i = 0);
//   2. line 18 reads 𝓟_λ(i)[:, i+6:] (the table prints 𝓟_λ(i)[i:i+6:]);
//   3. the block Minv[joints, base] = Minv[base, joints]ᵀ is written (next to line 20).
// For a welded base it is the same recursion without the base (Carpentier's analytic inverse
// of the joint-space inertia matrix): 𝓟_0 = 0 and there are no base rows or columns.
//
// Frames and order (docs/conventions.md §2): Minv = M(s)⁻¹, (nv × nv), BASE FIRST — the table's
// index i+6 (1-based, base in 1..6) is our rows model.v_index(i)… (k_i of them for a joint of
// k_i degrees of freedom), and the table's base block 1:6 is our 0..5. Both triangles are
// written. 𝓕_i and 𝓟_i are 6 × n, one column per joint velocity coordinate (joint j's from
// r_index(j)): 𝓕_i[:, c] is the wrench on body i from a unit generalized force at coordinate c
// in i's subtree, 𝓟_i[:, c] the acceleration of body i produced by a unit generalized force at
// coordinate c. Joint armature adds to D_i (so this inverts crba's M, armature included).
// Every joint type: a joint of k degrees of freedom turns the table's scalars of row i into
// k-row blocks, D_i⁻¹ into a k × k block (RBDA §7.3), as in the lines below.
//
// Table 9 restructured around the base frame 0 (the "ground" frame of IDSVA; Pinocchio's
// computeMinverse works in the world frame). The table works in body frames, so lines 11, 13,
// 17 and 18 transform every column of 𝓕_i, 𝓟_λ(i) and M^A_i between frames i and λ(i): O(n²)
// spatial transforms. Here the column quantities (S_i, U_i, 𝓕_i, 𝓟_i) are in frame 0, so the
// table's ^iX_λ(i) become the identity. Lines 1–8 and 12–13 are the articulated-body
// factorization of aza_factorize (aza.hpp): M^A_i in the mixed frame [i] (frame 0's orientation,
// origin at body i's), so D_i is formed about the joint — in frame 0 a light body far from the
// base has m·|p|² terms that cancel there, and talos' grippers lost three to four digits of
// Minv — and moving M^A_i to the parent is a translation by the joint offset. D_i is
// frame-independent, so every entry of Minv is the table's. Line by line:
//   1–8    aza_factorize: H_parent, H_base, S_i (data.aza.S, frame 0), U_i = M^A_i S_i
//          (data.aza.U, frame 0), D_i⁻¹ = (S_iᵀ U_i + armature 1)⁻¹ (data.aza.Dinv), with
//          M^A_0 = M_0 + … (defect 1);
//   9      Minv[i, i] = D_i⁻¹ (a k × k block, symmetrized after line 17);
//   10     Minv[i, k] = −D_i⁻¹ S_iᵀ 𝓕_i[:, k] for k in subtree(i) \ {i};
//   11     𝓕_λ[:, k] = 𝓕_i[:, k] + U_i Minv[i, k] (k in subtree(i)). The children of λ own
//          disjoint column ranges and no transform is left, so this is an in-place update of
//          one 6 × n buffer (data.aza.Fset[0]): its column k holds 𝓕 of the body on k's support
//          chain being processed; column i starts as U_i D_i⁻¹ (𝓕_i[:, i] = 0);
//   12–13  aza_factorize: M^A_λ += ^[i]X_[λ]ᵀ (M^A_i − U_i D_i⁻¹ U_iᵀ) ^[i]X_[λ] (a translation);
//   15, 26 𝓟_0 = −(M^A_0)⁻¹ 𝓕_0 (data.aza.Pset[0]) and Minv[base, base] = (M^A_0)⁻¹;
//   17     Minv[i, k] −= D_i⁻¹ U_iᵀ 𝓟_λ[:, k];
//   18     𝓟_i[:, k] = 𝓟_λ[:, k] + S_i Minv[i, k] (defect 2) — only for k > i and only if i has
//          children: nothing else reads 𝓟_i;
//   20     Minv[base, joints] = 𝓟_0 and its transpose (defect 3); 21–25 the mirror.
//
// Column sets: in our depth-first numbering the table's subtree(i)+6 is the contiguous range
// of joints [i, model.subtree_end(i)); lines 10–11 touch only those columns. Lines 17–18 run
// over joints [i, n] for a moving base (every pair couples through the base); for a welded
// base only over the subtree of i's top-most ancestor below the base (M is block diagonal
// across those subtrees, and the rest of the column is written as zeros instead of clearing
// all of Minv first). Minv is column-major, so each table row Minv[i+6, ·] of the upper
// triangle is built in column v_index(i) (the lower triangle, contiguous memory) and mirrored
// as each entry is final (lines 21–25).
//
// Refuses a model with singular joints (ModelError naming them). Writes data.kinematics.H_parent,
// data.kinematics.H_base, the factors data.aza (see aza.hpp), data.aza.Fset[0] (the shared 𝓕
// buffer), data.aza.Pset (𝓟_0 and the 𝓟_i of bodies with children, frame 0) and data.Minv. Cost
// O(n²) (O(n·d) for the recursion plus the dense output), no spatial transform inside the column
// loops. No allocation.
#pragma once

#include "liedyn/algorithm/aza.hpp"

namespace liedyn {

namespace detail {

/// Lines 9–11 for a joint of k ≠ 1, 3 degrees of freedom: immamb_subtree_step's products written
/// out as plain loops over the k columns. Its Eigen expressions at K = Dynamic were the larger
/// part of immamb's compile time; K = 3 (spherical, planar) keeps them, fixed-size, where they
/// vectorize.
template <class S>
void immamb_subtree_step_cols(const Model<S>& model, Data<S>& data, int i) {
  MatrixX<S>& Minv = data.Minv;
  Matrix6X<S>& F = data.aza.Fset[0];
  const int p = model.parent(i), k = model.joint_nv(i);
  const int ci = model.r_index(i), vi = model.offset() + ci;
  const int end = model.r_index(model.subtree_end(i));
  S Sv[6][6], Uv[6][6], Dv[6][6];  // S_i, U_i columns; D_i⁻¹
  for (int t = 0; t < k; ++t)
    for (int r = 0; r < 6; ++r) {
      Sv[t][r] = data.aza.S(r, ci + t);
      Uv[t][r] = data.aza.U(r, ci + t);
    }
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) {
      Dv[a][b] = data.aza.Dinv(ci + a, b);
      Minv(vi + a, vi + b) = Dv[a][b];  // line 9
    }
  const bool parent_reads_F = p > 0 || model.base_joint().nv() > 0;
  if (parent_reads_F)  // line 11, i's columns: U_i D_i⁻¹
    for (int b = 0; b < k; ++b)
      for (int r = 0; r < 6; ++r) {
        S sum = S(0);
        for (int a = 0; a < k; ++a) sum += Uv[a][r] * Dv[a][b];
        F(r, ci + b) = sum;
      }
  for (int c = ci + k; c < end; ++c) {
    S* Fc = F.col(c).data();
    S sf[6], m[6];
    for (int a = 0; a < k; ++a) {
      S sum = S(0);
      for (int r = 0; r < 6; ++r) sum += Sv[a][r] * Fc[r];
      sf[a] = sum;
    }
    for (int a = 0; a < k; ++a) {  // line 10
      S sum = S(0);
      for (int b = 0; b < k; ++b) sum += Dv[a][b] * sf[b];
      m[a] = -sum;
      Minv(model.offset() + c, vi + a) = m[a];
    }
    if (parent_reads_F)  // line 11
      for (int r = 0; r < 6; ++r) {
        S sum = S(0);
        for (int a = 0; a < k; ++a) sum += Uv[a][r] * m[a];
        Fc[r] += sum;
      }
  }
}

/// Lines 9–11 at body i, backward (joint i's k columns ci… at once, D_i⁻¹ a k × k block): column
/// v_index(i) onward of Minv holds the table's rows i, and data.aza.Fset[0]'s columns the 𝓕 of the
/// subtree being processed.
template <int K, class S>
LIEDYN_ALWAYS_INLINE void immamb_subtree_step(const Model<S>& model, Data<S>& data, int i) {
  MatrixX<S>& Minv = data.Minv;
  Matrix6X<S>& F = data.aza.Fset[0];  // every 𝓕_i, see line 11 in the header
  const int p = model.parent(i), k = joint_width<K>(model, i);
  const int ci = model.r_index(i), vi = model.offset() + ci;
  const int end = model.r_index(model.subtree_end(i));  // columns ci..end−1: subtree(i)
  const auto Si = joint_columns<K>(data.aza.S, ci, k);
  const auto Ui = joint_columns<K>(data.aza.U, ci, k);
  const JointPivot<S, K> Dinv = data.aza.Dinv.template block<K, K>(ci, 0, k, k);
  Minv.template block<K, K>(vi, vi, k, k) = Dinv;  // line 9
  // The root's 𝓕_0 is read only when it has coordinates: line 11 stops below it.
  const bool parent_reads_F = p > 0 || model.base_joint().nv() > 0;
  if (parent_reads_F) joint_columns<K>(F, ci, k).noalias() = Ui * Dinv;  // line 11, i's columns
  for (int c = ci + k; c < end; ++c) {
    auto Fc = F.col(c);
    const JointRates<S, K> m = -Dinv * columns_dot<K, S>(Si, Fc);  // line 10
    Minv.row(model.offset() + c).template segment<K>(vi, k) = m.transpose();
    if (parent_reads_F) Fc += columns_times<K, S>(Ui, m);  // line 11
  }
}

/// Joint i's columns S_i and U_i D_i⁻¹ copied into plain arrays (k ≤ 6), with the products
/// immamb_row_step_cols makes of them: immamb_row_step's Eigen expressions written out.
template <class S>
struct JointColumnArrays {
  JointColumnArrays(const Data<S>& data, int ci, int k) : k(k) {
    for (int t = 0; t < k; ++t)
      for (int r = 0; r < 6; ++r) Sv[t][r] = data.aza.S(r, ci + t);
  }
  /// U_i D_i⁻¹, needed only where 𝓟_λ(i) is not zero.
  void load_U_Dinv(const Data<S>& data, int ci) {
    S Dv[6][6];
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b) Dv[a][b] = data.aza.Dinv(ci + a, b);
    for (int b = 0; b < k; ++b)
      for (int r = 0; r < 6; ++r) {
        S sum = S(0);
        for (int a = 0; a < k; ++a) sum += data.aza.U(r, ci + a) * Dv[a][b];
        UD[b][r] = sum;
      }
  }
  /// out = base + S_i m (base: 𝓟_λ[:, c], or nothing): line 18.
  void base_plus_S_times(const S* base, const S* m, S* out) const {
    for (int r = 0; r < 6; ++r) {
      S sum = S(0);
      for (int a = 0; a < k; ++a) sum += Sv[a][r] * m[a];
      out[r] = base ? base[r] + sum : sum;
    }
  }
  /// m −= (U_i D_i⁻¹)ᵀ v for a 6-vector v: line 17.
  void subtract_U_Dinv_dot(const S* v, S* m) const {
    for (int a = 0; a < k; ++a) {
      S sum = S(0);
      for (int r = 0; r < 6; ++r) sum += UD[a][r] * v[r];
      m[a] -= sum;
    }
  }
  int k;
  S Sv[6][6];  ///< S_i's columns
  S UD[6][6];  ///< columns of U_i D_i⁻¹
};

/// Minv[i, c] = m and its mirror Minv[c, i] = mᵀ (lines 21–25) for joint i of k coordinates
/// from column vi.
template <class S>
void set_mirrored(MatrixX<S>& Minv, int row, int vi, int k, const S* m) {
  for (int a = 0; a < k; ++a) {
    Minv(row, vi + a) = m[a];
    Minv(vi + a, row) = m[a];
  }
}

/// Line 17 for joint i's own k × k block, symmetrized (symmetric in exact arithmetic).
template <class S>
void immamb_own_block_cols(MatrixX<S>& Minv, const JointColumnArrays<S>& cols,
                           const Matrix6X<S>& Pp, int ci, int vi) {
  const int k = cols.k;
  S Mii[6][6];
  for (int b = 0; b < k; ++b) {
    S col[6];
    for (int a = 0; a < k; ++a) col[a] = Minv(vi + a, vi + b);
    cols.subtract_U_Dinv_dot(Pp.col(ci + b).data(), col);
    for (int a = 0; a < k; ++a) Mii[a][b] = col[a];
  }
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) Minv(vi + a, vi + b) = (Mii[a][b] + Mii[b][a]) * S(0.5);
}

/// Lines 16–19 for a joint of k ≠ 1, 3 degrees of freedom: immamb_row_step written out as
/// immamb_subtree_step_cols is.
template <class S>
void immamb_row_step_cols(const Model<S>& model, Data<S>& data, int i, int& last) {
  MatrixX<S>& Minv = data.Minv;
  const int n = model.nv_joints(), off = model.offset();
  const int p = model.parent(i), k = model.joint_nv(i);
  const int ci = model.r_index(i), vi = off + ci;
  const int end = model.r_index(model.subtree_end(i));
  const bool has_children = end > ci + k;
  S* Pi = data.aza.Pset[i].data();
  JointColumnArrays<S> cols(data, ci, k);
  if (p == 0 && model.base_joint().nv() == 0) {
    // 𝓟_0 = 0: line 17 adds nothing, line 18 reduces to S_i Minv[i, k].
    last = end;
    for (int c = ci + k; c < end; ++c) {
      S m[6];
      for (int a = 0; a < k; ++a) {
        m[a] = Minv(off + c, vi + a);
        Minv(vi + a, off + c) = m[a];
      }
      cols.base_plus_S_times(nullptr, m, Pi + 6 * c);
    }
  } else {
    const Matrix6X<S>& Pp = data.aza.Pset[p];
    cols.load_U_Dinv(data, ci);
    immamb_own_block_cols(Minv, cols, Pp, ci, vi);
    for (int c = ci + k; c < end; ++c) {
      S m[6];
      for (int a = 0; a < k; ++a) m[a] = Minv(off + c, vi + a);
      const S* Pc = Pp.col(c).data();
      cols.subtract_U_Dinv_dot(Pc, m);  // line 17
      set_mirrored(Minv, off + c, vi, k, m);
      cols.base_plus_S_times(Pc, m, Pi + 6 * c);  // line 18 (fixed)
    }
    for (int c = end; c < last; ++c) {
      S m[6] = {};
      const S* Pc = Pp.col(c).data();
      cols.subtract_U_Dinv_dot(Pc, m);
      set_mirrored(Minv, off + c, vi, k, m);
      if (has_children) cols.base_plus_S_times(Pc, m, Pi + 6 * c);
    }
  }
  const S zero[6] = {};
  for (int c = last; c < n; ++c) set_mirrored(Minv, off + c, vi, k, zero);
}

/// Lines 16–19 at body i, forward: the table's rows i of Minv, final, mirrored into their
/// columns (lines 21–25), and 𝓟_i. `last` is one past the last column coupled to i (n for a
/// moving base), updated when i hangs from a welded base.
template <int K, class S>
LIEDYN_ALWAYS_INLINE void immamb_row_step(const Model<S>& model, Data<S>& data, int i, int& last) {
  MatrixX<S>& Minv = data.Minv;
  const int n = model.nv_joints(), off = model.offset();
  const int p = model.parent(i), k = joint_width<K>(model, i);
  const int ci = model.r_index(i), vi = off + ci;
  const int end = model.r_index(model.subtree_end(i));
  const bool has_children = end > ci + k;  // else 𝓟_i is read by nobody
  const auto Si = joint_columns<K>(data.aza.S, ci, k);
  Matrix6X<S>& Pi = data.aza.Pset[i];
  // Each entry below is final when written, so it is mirrored at once (lines 21–25).
  auto set = [&](int c, const JointRates<S, K>& m) {
    Minv.row(off + c).template segment<K>(vi, k) = m.transpose();
    Minv.col(off + c).template segment<K>(vi, k) = m;
  };
  if (p == 0 && model.base_joint().nv() == 0) {
    // 𝓟_0 = 0: line 17 adds nothing, line 18 reduces to S_i Minv[i, k].
    last = end;
    for (int c = ci + k; c < end; ++c) {
      const JointRates<S, K> m = Minv.row(off + c).template segment<K>(vi, k).transpose();
      Minv.col(off + c).template segment<K>(vi, k) = m;
      Pi.col(c) = columns_times<K, S>(Si, m);
    }
  } else {
    const Matrix6X<S>& Pp = data.aza.Pset[p];
    const JointPivot<S, K> Dinv = data.aza.Dinv.template block<K, K>(ci, 0, k, k);
    // (D_i⁻¹ U_iᵀ)ᵀ = U_i D_i⁻¹ (D_i symmetric): line 17's rows as columns.
    const JointColumns<S, K> UDinv = joint_columns<K>(data.aza.U, ci, k) * Dinv;
    // Line 17 for joint i's own block, symmetric in exact arithmetic: made exactly so.
    JointPivot<S, K> Mii = Minv.template block<K, K>(vi, vi, k, k);
    Mii.noalias() -= UDinv.transpose() * joint_columns<K>(Pp, ci, k);
    if constexpr (K != 1) Mii = (Mii + Mii.transpose()).eval() * S(0.5);
    Minv.template block<K, K>(vi, vi, k, k) = Mii;
    // k in subtree(i) \ {i}: line 10 left a value.
    for (int c = ci + k; c < end; ++c) {
      const JointRates<S, K> m = Minv.row(off + c).template segment<K>(vi, k).transpose() -
                                 columns_dot<K, S>(UDinv, Pp.col(c));  // line 17
      set(c, m);
      Pi.col(c) = Pp.col(c) + columns_times<K, S>(Si, m);  // line 18 (fixed)
    }
    // k past subtree(i): Minv[i, k] starts at zero; 𝓟_i is read only by i's descendants.
    if (has_children) {
      for (int c = end; c < last; ++c) {
        const JointRates<S, K> m = -columns_dot<K, S>(UDinv, Pp.col(c));
        set(c, m);
        Pi.col(c) = Pp.col(c) + columns_times<K, S>(Si, m);
      }
    } else {
      for (int c = end; c < last; ++c) set(c, -columns_dot<K, S>(UDinv, Pp.col(c)));
    }
  }
  for (int c = last; c < n; ++c) set(c, JointRates<S, K>::Zero(k));
}

/// The steps of a joint with several degrees of freedom, out of line (LIEDYN_NEVER_INLINE): at
/// K = 3 the fixed-size steps, else the plain loops.
template <class S>
LIEDYN_NEVER_INLINE void immamb_subtree_step_k(const Model<S>& model, Data<S>& data, int i) {
  if (model.joint_nv(i) == 3) immamb_subtree_step<3>(model, data, i);
  else immamb_subtree_step_cols(model, data, i);
}
template <class S>
LIEDYN_NEVER_INLINE void immamb_row_step_k(const Model<S>& model, Data<S>& data, int i, int& last) {
  if (model.joint_nv(i) == 3) immamb_row_step<3>(model, data, i, last);
  else immamb_row_step_cols(model, data, i, last);
}

/// IMMAmb's column passes (lines 9–11, 15–26) on the articulated-body factorization that
/// aza_factorize left in data.aza (lines 1–8, 12–13). Linearization calls it after solving
/// for the accelerations with the same factors.
template <class S>
const MatrixX<S>& immamb_from_factors(const Model<S>& model, Data<S>& data) {
  const int nb = model.num_bodies();
  const int n = model.nv_joints();
  const bool moving = model.has_moving_base();
  const bool one_dof_tree = model.one_dof_joints_only();  // lets the compiler unswitch the loops
  auto one_column = [&](int i) { return one_dof_tree || model.joint_nv(i) == 1; };
  MatrixX<S>& Minv = data.Minv;

  // The paper's k runs over joints; here over their columns c in r (joint k's are r_index(k)…),
  // and a subtree's columns are one range.
  // Lines 9–11, backward.
  for (int i = nb - 1; i >= 1; --i) {
    if (one_column(i)) immamb_subtree_step<1>(model, data, i);
    else immamb_subtree_step_k(model, data, i);
  }

  // Line 15: 𝓟_0 = −(M^A_0)⁻¹ 𝓕_0; line 26: Minv[base, base] = (M^A_0)⁻¹. A branch: the
  // base's rows and columns of M⁻¹ exist only when it has coordinates.
  if (moving) {
    const Matrix6<S> IA0inv = data.aza.base.inverse();  // factorized by aza_factorize
    Minv.template topLeftCorner<6, 6>() = IA0inv;
    const Matrix6<S> negInv = -IA0inv;
    const Matrix6X<S>& F = data.aza.Fset[0];
    Matrix6X<S>& P0 = data.aza.Pset[0];
    for (int c = 0; c < n; ++c) P0.col(c).noalias() = negInv * F.col(c);
  }

  // Lines 16–19: forward pass over columns v_index(i)…, rows [i, last); rows [last, n) are zero.
  int last = n;
  for (int i = 1; i < nb; ++i) {
    if (one_column(i)) immamb_row_step<1>(model, data, i, last);
    else immamb_row_step_k(model, data, i, last);
  }

  // Line 20 and its transpose (defect 3): the base–joint blocks (the same branch as line 15).
  if (moving) {
    const Matrix6X<S>& P0 = data.aza.Pset[0];
    for (int k = 0; k < n; ++k) {
      Minv.col(6 + k).template head<6>() = P0.col(k);
      Minv.row(6 + k).template head<6>() = P0.col(k).transpose();
    }
  }
  return Minv;
}

}  // namespace detail

/// The inverse mass matrix M(s)⁻¹ (both triangles) by IMMAmb (Table 9, around the base frame),
/// into data.Minv.
template <class S, class Derived>
const MatrixX<S>& immamb(const Model<S>& model, Data<S>& data,
                         const Eigen::MatrixBase<Derived>& s) {
  LIEDYN_CHECK_SIZE("immamb", "s", s, model.nq_joints());
  detail::check_data_pairing("immamb", model, data);
  model.require_invertible_mass_matrix("immamb");
  aza_factorize(model, data, s);
  return detail::immamb_from_factors(model, data);
}

/// The inverse mass matrix at the joint positions of the state x.
template <class S>
const MatrixX<S>& immamb(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("immamb", model, x);
  return immamb(model, data, x.s);
}

}  // namespace liedyn
