// liedyn — interop: the order in which another library lists the same joints.
//
// Our joints are the bodies 1..n of the model, numbered depth-first with children in the order
// they were added (for a URDF: document order of the <joint> elements). Another library loading
// the same robot may list them differently (Pinocchio and RBDL walk the tree depth-first too,
// but visit a link's children in their own order; Drake numbers mobilizers level by level;
// MuJoCo follows the MJCF body order). A JointPermutation records the correspondence, built from
// the joint names, and reorders joint-indexed entries of vectors and matrices in both
// directions.
//
// Generalized vectors and matrices may carry `base` leading entries that are not joints (6 for
// a moving base, 0 for a welded one, or any other count): those stay where they are and are
// never permuted. The base block itself (its representation, its frame) is the business of
// floating_base.hpp, not of this header.
//
// Header-only, no dependency on the other libraries. Every function checks its arguments'
// sizes in every build (this is glue code, where layout mistakes are the usual bug) and throws
// std::invalid_argument with a message that names the function.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "liedyn/model/model.hpp"

namespace liedyn {
namespace interop {

/// The joint names of `model` in the order Pinocchio lists them when it loads the same URDF:
/// depth-first from the base, a link's children visited in the byte order of their joints'
/// names (its URDF reader keeps a link's child joints sorted by name), where liedyn keeps the
/// file's order. Equal to liedyn's order exactly when every link's children appear in the file
/// in name order (Solo-12, say; not Talos, whose torso comes before its legs in the file).
template <class S>
std::vector<std::string> pinocchio_urdf_joint_order(const Model<S>& model) {
  std::vector<std::string> names;
  names.reserve(model.num_joints());
  std::vector<int> stack{0};  // bodies still to visit; the next one on top
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (i > 0) names.push_back(model.joint_name(i));
    std::vector<int> children = model.children(i);
    std::sort(children.begin(), children.end(), [&](int a, int b) {
      return model.joint_name(a) > model.joint_name(b);  // descending: the first name on top
    });
    stack.insert(stack.end(), children.begin(), children.end());
  }
  return names;
}

/// A bijection between our joint order and another library's order of the same joints.
/// Indices are 0-based joint positions in each list: our joint k is body k + 1 (velocity index
/// model.offset() + k); their joint j is the j-th joint after their floating base (if any).
/// A default-constructed JointPermutation is the identity for any number of joints.
class JointPermutation {
 public:
  /// The identity, valid for any number of joints (the other library orders them as we do).
  JointPermutation() = default;

  /// From the other library's joint names, in its order (its floating-base joint, e.g.
  /// Pinocchio's "root_joint" or MuJoCo's free joint, excluded). Every name must be one of the
  /// model's joint names, each exactly once, and every joint of the model must be named.
  /// Throws std::invalid_argument naming the first unknown, repeated or missing joint.
  template <class S>
  static JointPermutation from_names(const Model<S>& model,
                                     const std::vector<std::string>& their_names) {
    const int n = model.num_joints();
    if (static_cast<int>(their_names.size()) != n)
      throw std::invalid_argument(
          "liedyn::interop::JointPermutation::from_names: " + std::to_string(their_names.size()) +
          " names for a model with " + std::to_string(n) + " joints");
    std::vector<int> theirs_of_ours(n, -1);
    for (int j = 0; j < n; ++j) {
      const int body = model.joint_id(their_names[j]);
      if (body < 1)
        throw std::invalid_argument(
            "liedyn::interop::JointPermutation::from_names: the model has no joint named '" +
            their_names[j] + "'");
      if (theirs_of_ours[body - 1] >= 0)
        throw std::invalid_argument("liedyn::interop::JointPermutation::from_names: joint '" +
                                    their_names[j] + "' is named twice");
      theirs_of_ours[body - 1] = j;
    }
    return from_indices(model, std::move(theirs_of_ours));
  }

  /// from_indices for the joints of `model`, whose coordinate counts it records: a joint of
  /// several coordinates (spherical, free, planar, universal) moves as one block of nq entries
  /// in a configuration vector and of nv in a velocity-sized one.
  template <class S>
  static JointPermutation from_indices(const Model<S>& model, std::vector<int> theirs_of_ours) {
    if (static_cast<int>(theirs_of_ours.size()) != model.num_joints())
      throw std::invalid_argument("liedyn::interop::JointPermutation::from_indices: " +
                                  std::to_string(theirs_of_ours.size()) +
                                  " indices for a model with " +
                                  std::to_string(model.num_joints()) + " joints");
    JointPermutation p = from_indices(std::move(theirs_of_ours));
    for (int k = 0; k < model.num_joints(); ++k) {
      p.nq_.push_back(model.joint_nq(k + 1));
      p.nv_.push_back(model.joint_nv(k + 1));
    }
    return p;
  }

  /// From an explicit map: theirs_of_ours[k] is the position, in their list, of our joint k
  /// (0-based), each joint one coordinate (1-DoF joints; see the overload taking the model for
  /// the others). Throws std::invalid_argument if it is not a permutation of 0..size−1.
  static JointPermutation from_indices(std::vector<int> theirs_of_ours) {
    JointPermutation p;
    const int n = static_cast<int>(theirs_of_ours.size());
    p.ours_of_theirs_.assign(n, -1);
    for (int k = 0; k < n; ++k) {
      const int j = theirs_of_ours[k];
      if (j < 0 || j >= n || p.ours_of_theirs_[j] >= 0)
        throw std::invalid_argument(
            "liedyn::interop::JointPermutation::from_indices: not a permutation of 0.." +
            std::to_string(n - 1));
      p.ours_of_theirs_[j] = k;
    }
    p.theirs_of_ours_ = std::move(theirs_of_ours);
    p.sized_ = true;
    return p;
  }

  /// True for the default identity and for any permutation that maps every joint to itself.
  bool is_identity() const {
    for (int k = 0; k < static_cast<int>(theirs_of_ours_.size()); ++k)
      if (theirs_of_ours_[k] != k) return false;
    return true;
  }
  /// Number of joints it was built for; −1 for the default identity (fits any size).
  int size() const { return sized_ ? static_cast<int>(theirs_of_ours_.size()) : -1; }
  /// Position in their list of our joint k (0-based).
  int theirs_of_ours(int k) const { return sized_ ? theirs_of_ours_.at(k) : k; }
  /// Position in our list of their joint j (0-based).
  int ours_of_theirs(int j) const { return sized_ ? ours_of_theirs_.at(j) : j; }
  /// Whether it knows each joint's coordinate counts (built from a model), as a permutation of
  /// a model with multi-DoF joints must.
  bool has_joint_widths() const { return !nv_.empty(); }
  /// True when it was built for a model whose joints have these coordinate counts (or for one
  /// coordinate per joint, if `model`'s joints all have one).
  template <class S>
  bool fits(const Model<S>& model) const {
    if (!sized_) return true;
    if (size() != model.num_joints()) return false;
    for (int k = 0; k < size(); ++k)
      if (width(nq_, k) != model.joint_nq(k + 1) || width(nv_, k) != model.joint_nv(k + 1))
        return false;
    return true;
  }

  /// A vector in their order from one in ours: out[base + theirs(k)] = v[base + k]; the first
  /// `base` entries are copied unchanged. v.size() must be base + size().
  template <class Derived>
  Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, 1> vector_to_theirs(
      const Eigen::MatrixBase<Derived>& v, int base) const {
    Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, 1> out(v.size());
    for_each_block("vector_to_theirs", v.size(), base,
                   [&](Block b) { out.segment(b.theirs, b.width) = v.segment(b.ours, b.width); });
    out.head(base) = v.head(base);  // base is checked by now
    return out;
  }
  /// The inverse of vector_to_theirs: out[base + k] = v[base + theirs(k)].
  template <class Derived>
  Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, 1> vector_to_ours(
      const Eigen::MatrixBase<Derived>& v, int base) const {
    Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, 1> out(v.size());
    for_each_block("vector_to_ours", v.size(), base,
                   [&](Block b) { out.segment(b.ours, b.width) = v.segment(b.theirs, b.width); });
    out.head(base) = v.head(base);
    return out;
  }

  /// Rows reordered to their order (rows 0..base−1 unchanged); the columns are left alone.
  template <class Derived>
  Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> rows_to_theirs(
      const Eigen::MatrixBase<Derived>& m, int base) const {
    Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> out(m.rows(), m.cols());
    for_each_block("rows_to_theirs", m.rows(), base, [&](Block b) {
      out.middleRows(b.theirs, b.width) = m.middleRows(b.ours, b.width);
    });
    out.topRows(base) = m.topRows(base);
    return out;
  }
  /// Rows reordered from their order to ours (the inverse of rows_to_theirs).
  template <class Derived>
  Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> rows_to_ours(
      const Eigen::MatrixBase<Derived>& m, int base) const {
    Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> out(m.rows(), m.cols());
    for_each_block("rows_to_ours", m.rows(), base, [&](Block b) {
      out.middleRows(b.ours, b.width) = m.middleRows(b.theirs, b.width);
    });
    out.topRows(base) = m.topRows(base);
    return out;
  }
  /// Columns reordered to their order (columns 0..base−1 unchanged); the rows are left alone.
  template <class Derived>
  Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> cols_to_theirs(
      const Eigen::MatrixBase<Derived>& m, int base) const {
    Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> out(m.rows(), m.cols());
    for_each_block("cols_to_theirs", m.cols(), base, [&](Block b) {
      out.middleCols(b.theirs, b.width) = m.middleCols(b.ours, b.width);
    });
    out.leftCols(base) = m.leftCols(base);
    return out;
  }
  /// Columns reordered from their order to ours (the inverse of cols_to_theirs).
  template <class Derived>
  Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> cols_to_ours(
      const Eigen::MatrixBase<Derived>& m, int base) const {
    Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> out(m.rows(), m.cols());
    for_each_block("cols_to_ours", m.cols(), base, [&](Block b) {
      out.middleCols(b.ours, b.width) = m.middleCols(b.theirs, b.width);
    });
    out.leftCols(base) = m.leftCols(base);
    return out;
  }
  /// Rows and columns reordered to their order: P m Pᵀ for a generalized (base + n) square
  /// matrix such as M, M⁻¹ or a derivative ∂τ̄/∂q̇.
  template <class Derived>
  Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> matrix_to_theirs(
      const Eigen::MatrixBase<Derived>& m, int base) const {
    return cols_to_theirs(rows_to_theirs(m, base), base);
  }
  /// Rows and columns reordered from their order to ours: Pᵀ m P.
  template <class Derived>
  Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> matrix_to_ours(
      const Eigen::MatrixBase<Derived>& m, int base) const {
    return cols_to_ours(rows_to_ours(m, base), base);
  }

  /// The (base + n) × (base + n) permutation matrix P with theirs = P · ours (identity on the
  /// base block), for vectors of n joint entries (velocity-sized: n = nv_joints). `n` is needed
  /// for the default identity, which has no size of its own.
  template <class S = double>
  Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> matrix(int base, int n) const {
    if (base < 0 || n < 0) fail_length("matrix", Eigen::Index(base) + n, base);
    Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> P =
        Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>::Zero(base + n, base + n);
    for (int b = 0; b < base; ++b) P(b, b) = S(1);
    for_each_block("matrix", base + n, base, [&](Block b) {
      for (Eigen::Index e = 0; e < b.width; ++e) P(b.theirs + e, b.ours + e) = S(1);
    });
    return P;
  }

 private:
  /// One joint's entries: where they start in our vector and in theirs, and how many.
  struct Block {
    Eigen::Index ours, theirs, width;
  };
  /// Joint k's entry count in `widths` (nq_ or nv_), 1 without widths.
  static int width(const std::vector<int>& widths, int k) { return widths.empty() ? 1 : widths[k]; }

  /// f(block) for every joint of a vector (or the rows or columns of a matrix) of `length`
  /// entries, the first `base` of them not joints. The joints' widths are their nv when the
  /// joint entries number Σ nv, their nq when Σ nq (the two sums differ exactly when some joint
  /// has nq ≠ nv, and then its layouts differ too). Throws std::invalid_argument for a length
  /// that fits neither.
  template <class F>
  void for_each_block(const char* who, Eigen::Index length, int base, F&& f) const {
    const Eigen::Index entries = length - base;
    if (base < 0 || entries < 0) fail_length(who, length, base);
    if (!sized_) {
      f(Block{base, base, entries});
      return;
    }
    const int n = size();
    Eigen::Index sum_nq = 0, sum_nv = 0;
    for (int k = 0; k < n; ++k) {
      sum_nq += width(nq_, k);
      sum_nv += width(nv_, k);
    }
    const std::vector<int>& widths = entries == sum_nv ? nv_ : nq_;
    if (entries != sum_nv && entries != sum_nq) fail_length(who, length, base);
    std::vector<Eigen::Index> their_start(static_cast<std::size_t>(n) + 1, base);
    for (int j = 0; j < n; ++j)
      their_start[j + 1] = their_start[j] + width(widths, ours_of_theirs_[j]);
    Eigen::Index ours = base;
    for (int k = 0; k < n; ++k) {
      const int w = width(widths, k);
      f(Block{ours, their_start[theirs_of_ours_[k]], w});
      ours += w;
    }
  }

  [[noreturn]] void fail_length(const char* who, Eigen::Index length, int base) const {
    throw std::invalid_argument(
        std::string("liedyn::interop::JointPermutation::") + who + ": length " +
        std::to_string(length) + " with " + std::to_string(base) +
        " base entries does not fit a permutation of " + std::to_string(theirs_of_ours_.size()) +
        " joints" + (has_joint_widths() ? " (nq or nv entries)" : ""));
  }

  bool sized_ = false;
  std::vector<int> theirs_of_ours_;
  std::vector<int> ours_of_theirs_;
  std::vector<int> nq_, nv_;  // our joint k's coordinate counts; empty: one each
};

}  // namespace interop
}  // namespace liedyn
