// liedyn — numdiff: geometric finite differences of functions of the state
// x = (H, s, ν, r) ∈ SE(3) × Rⁿ × R⁶ × Rⁿ, and of functions of a plain vector.
//
// A user-facing tool (docs/conventions.md §5): check an analytic derivative, or differentiate a
// function nobody wrote a derivative for. Everything is templated on the scalar S, so the same
// call runs in long double (or liedyn::float128, numdiff/float128.hpp) to push the round-off
// floor down: cast the model and the state (`model.template cast<long double>()`,
// `x.template cast<long double>()`) and call again.
//
// Columns and perturbations (the tangent δx = (η, δs, δtwist, δr), state.hpp):
//   η (6)      H ← H exp(±δ e_k^)  right perturbation, η linear first (docs/conventions.md §3)
//   δs (n)     s ← s ⊕ ±δ e_k, each joint on its own group (Joint::integrate; s ± δ e_k for
//              a 1-DoF joint)
//   δtwist (6) the base twist in opt.twist_representation, t ← t ± δ e_k, then ν = t at H in
//              body form (Body: ν ± δ e_k itself)
//   δr (n)     r ← r ± δ e_k
// A welded base has only (δs, δr).
//
// WHAT IS HELD FIXED (docs/conventions.md §3): the η columns hold the base twist fixed *in
// opt.twist_representation*. With Body, ν is unchanged while H moves (Pinocchio's dtau_dq
// convention, the paper's D1ν). With Inertial, w = ^A X_0 ν is held fixed, so ν is recomputed
// at the perturbed pose, ν' = ^0X_A(H') w (the paper's Table 5, D1). With Mixed, m = [^A ȯ_0;
// ^A ω] is held fixed, ν' = blockdiag(R'ᵀ, R'ᵀ) m. The twist columns are then derivatives with
// respect to that same twist variable (Inertial: D3w = D3 · ^0X_A). Joint columns are
// ordinary partials (every other variable fixed).
//
// Step: opt.step = δ > 0 is used as given; 0 (the default) picks ε^(1/3) (central) or ε^(1/2)
// (forward), ε the scalar's machine epsilon — the bottom of the error "V" for O(1) data. With
// opt.relative_step (default on), the step of a vector coordinate c is δ·max(1, |c|); the pose
// coordinates η and a multi-DoF joint's δs are centred at 0 and use δ. The effective step is the
// representable one, (c + δ) − c, so the division uses exactly the difference that was applied.
//
// f is called as f(const State<S>&) (resp. f(const VectorX<S>&)) and may return any Eigen
// vector or matrix expression convertible to a plain matrix (a matrix is flattened column-major)
// or a single scalar S. The result has m rows, m = its size, and one column per tangent
// coordinate. Cost: 2 (central) or 1 (forward, plus one at x) evaluations of f per column.
// These helpers allocate freely: they are not meant for a real-time loop.
#pragma once

#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "liedyn/model/state.hpp"

namespace liedyn {
namespace numdiff {

/// Central: [f(x ⊕ δ e_k) − f(x ⊕ −δ e_k)] / (2δ), error O(δ²). Forward:
/// [f(x ⊕ δ e_k) − f(x)] / δ, error O(δ), one evaluation per column plus one at x.
enum class DifferenceScheme { Central, Forward };

/// "central" or "forward".
inline const char* to_string(DifferenceScheme s) {
  return s == DifferenceScheme::Central ? "central" : "forward";
}

/// Options of the numdiff Jacobians: difference scheme, step δ, relative step scaling, and the
/// base-twist representation the pose and twist columns refer to.
template <class S>
struct NumDiffOptions {
  DifferenceScheme scheme = DifferenceScheme::Central;
  /// Base step δ; 0 picks the default (central ε^(1/3), forward ε^(1/2)).
  S step = S(0);
  /// Scale the step of each vector coordinate c by max(1, |c|).
  bool relative_step = true;
  /// The base-twist variable: the coordinates of the twist columns, and what the pose (η)
  /// columns hold fixed.
  TwistRepresentation twist_representation = TwistRepresentation::Body;
};

/// The default base step for `scheme` in scalar S: ε^(1/3) (central), ε^(1/2) (forward).
template <class S>
S default_step(DifferenceScheme scheme) {
  using std::pow;
  using std::sqrt;
  const S eps = S(Eigen::NumTraits<S>::epsilon());
  return scheme == DifferenceScheme::Central ? S(pow(eps, S(1) / S(3))) : S(sqrt(eps));
}

/// The blocks of the state's tangent space.
enum class StateBlock { Pose, JointPositions, Twist, JointVelocities };

namespace detail {

template <class T>
struct is_eigen : std::is_base_of<Eigen::EigenBase<std::decay_t<T>>, std::decay_t<T>> {};

/// f's value as a column vector of S.
template <class S, class T>
VectorX<S> as_vector(const T& value) {
  if constexpr (is_eigen<T>::value) {
    const MatrixX<S> m = value;  // evaluates expressions
    return Eigen::Map<const VectorX<S>>(m.data(), m.size());
  } else {
    return VectorX<S>::Constant(1, S(value));
  }
}

template <class S>
S base_step(const NumDiffOptions<S>& opt) {
  return opt.step > S(0) ? opt.step : default_step<S>(opt.scheme);
}

/// Step for a coordinate of value c.
template <class S>
S coordinate_step(const NumDiffOptions<S>& opt, const S& c) {
  using std::abs;
  const S d = base_step(opt);
  if (!opt.relative_step) return d;
  const S a = abs(c);
  return a > S(1) ? S(d * a) : d;
}

/// The finite-difference columns of g(k, h) (the function value with coordinate k moved by h,
/// coordinate value c(k)) for k in [0, ncols), written into `out` (m × ncols, sized on the
/// first evaluation). `f0` evaluates the function at the unperturbed point.
template <class S, class G, class Coord, class F0>
MatrixX<S> difference_columns(int ncols, G&& g, Coord&& coord, F0&& f0,
                              const NumDiffOptions<S>& opt) {
  MatrixX<S> out;
  VectorX<S> y0;
  const bool central = opt.scheme == DifferenceScheme::Central;
  if (!central || ncols == 0) y0 = f0();
  if (ncols == 0) return MatrixX<S>(y0.size(), 0);
  for (int k = 0; k < ncols; ++k) {
    const S c = coord(k);
    const S h = coordinate_step(opt, c);
    // The representable steps actually taken: c + hp == fl(c + h), c − hm == fl(c − h).
    const S hp = S(c + h) - c;
    VectorX<S> col;
    if (central) {
      const S hm = c - S(c - h);
      const VectorX<S> yp = g(k, hp);
      const VectorX<S> ym = g(k, S(-hm));
      if (yp.size() != ym.size())
        liedyn::detail::throw_invalid_argument("numdiff: f changed its output size");
      col = (yp - ym) / S(hp + hm);
    } else {
      const VectorX<S> yp = g(k, hp);
      if (yp.size() != y0.size())
        liedyn::detail::throw_invalid_argument("numdiff: f changed its output size");
      col = (yp - y0) / hp;
    }
    if (k == 0) out.resize(col.size(), ncols);
    else if (col.size() != out.rows())
      liedyn::detail::throw_invalid_argument("numdiff: f changed its output size");
    out.col(k) = col;
  }
  return out;
}

/// Index of the first column of `block` in the state tangent, and its width.
template <class S>
void block_range(const Model<S>& model, StateBlock block, int& first, int& width) {
  const int n = model.nv_joints();
  const bool moving = model.has_moving_base();
  switch (block) {
    case StateBlock::Pose:
      first = 0;
      width = moving ? 6 : 0;
      return;
    case StateBlock::JointPositions:
      first = moving ? 6 : 0;
      width = n;
      return;
    case StateBlock::Twist:
      first = moving ? 6 + n : n;
      width = moving ? 6 : 0;
      return;
    case StateBlock::JointVelocities:
      first = moving ? 12 + n : n;
      width = n;
      return;
  }
  first = width = 0;
}

/// Columns of one block of the state tangent.
/// `f0()` returns f(x) (called only when needed: forward scheme, or an empty block).
template <class S, class F, class F0>
MatrixX<S> state_block_columns(const Model<S>& model, F& f, F0& f0, const State<S>& x,
                               StateBlock block, const NumDiffOptions<S>& opt) {
  const TwistRepresentation rep = opt.twist_representation;
  const bool moving = model.has_moving_base();
  const int n = model.nv_joints();
  switch (block) {
    case StateBlock::Pose: {
      const int ncols = moving ? 6 : 0;
      // The base twist in `rep`, held fixed while H moves.
      const Vector6<S> t = base_twist_from_body(x.H, x.nu, rep);
      auto g = [&](int k, const S& h) {
        State<S> y = x;
        y.H = x.H * SE3<S>::exp(Vector6<S>(Vector6<S>::Unit(k) * h));
        y.nu = base_twist_to_body(y.H, t, rep);
        return as_vector<S>(f(static_cast<const State<S>&>(y)));
      };
      return difference_columns<S>(
          ncols, g, [](int) { return S(0); }, f0, opt);
    }
    case StateBlock::JointPositions: {
      // s ⊕ h e_k on each joint's group. A 1-DoF joint's coordinate is the vector coordinate
      // s_i itself (its step scales with |s_i|, s_i ⊕ h = s_i + h); a multi-DoF joint's tangent
      // coordinates are centred at 0, like η.
      VectorX<S> origin = VectorX<S>::Zero(n);
      for (int i = 1; i < model.num_bodies(); ++i)
        if (model.joint(i).one_dof()) origin[model.r_index(i)] = x.s[model.q_index(i)];
      auto g = [&](int k, const S& h) {
        State<S> y = x;
        VectorX<S> ds = VectorX<S>::Zero(n);
        ds[k] = h;
        liedyn::detail::integrate_joints(model, x.s, ds, y.s);
        return as_vector<S>(f(static_cast<const State<S>&>(y)));
      };
      return difference_columns<S>(
          n, g, [&](int k) { return origin[k]; }, f0, opt);
    }
    case StateBlock::Twist: {
      const int ncols = moving ? 6 : 0;
      const Vector6<S> t = base_twist_from_body(x.H, x.nu, rep);
      auto g = [&](int k, const S& h) {
        State<S> y = x;
        Vector6<S> tk = t;
        tk[k] = t[k] + h;
        y.nu = base_twist_to_body(x.H, tk, rep);
        return as_vector<S>(f(static_cast<const State<S>&>(y)));
      };
      return difference_columns<S>(
          ncols, g, [&](int k) { return t[k]; }, f0, opt);
    }
    case StateBlock::JointVelocities: {
      auto g = [&](int k, const S& h) {
        State<S> y = x;
        y.r[k] = x.r[k] + h;
        return as_vector<S>(f(static_cast<const State<S>&>(y)));
      };
      return difference_columns<S>(
          n, g, [&](int k) { return x.r[k]; }, f0, opt);
    }
  }
  return MatrixX<S>();
}

}  // namespace detail

/// The m × tangent_size(model) Jacobian of y = f(x) by finite differences, columns
/// (η, δs, δtwist, δr) for a moving base, (δs, δr) for a welded one; see the header for the
/// perturbations and for what the pose columns hold fixed.
template <class S, class F>
MatrixX<S> state_jacobian(const Model<S>& model, F&& f, const State<S>& x,
                          const NumDiffOptions<S>& opt = {}) {
  liedyn::detail::check_state_sizes("numdiff::state_jacobian", "x", model, x);
  // f(x), evaluated at most once and shared by the blocks.
  VectorX<S> y0;
  bool have_y0 = false;
  auto f0 = [&]() -> const VectorX<S>& {
    if (!have_y0) y0 = detail::as_vector<S>(f(x));
    have_y0 = true;
    return y0;
  };
  const StateBlock blocks[4] = {StateBlock::Pose, StateBlock::JointPositions, StateBlock::Twist,
                                StateBlock::JointVelocities};
  MatrixX<S> cols[4];
  for (int b = 0; b < 4; ++b)
    cols[b] = detail::state_block_columns(model, f, f0, x, blocks[b], opt);
  // Every block has m rows, an empty one too (it evaluated f at x).
  const Eigen::Index m = cols[0].rows();
  MatrixX<S> J(m, tangent_size(model));
  int first = 0;
  for (int b = 0; b < 4; ++b) {
    if (cols[b].rows() != m)
      liedyn::detail::throw_invalid_argument("numdiff: f changed its output size");
    J.middleCols(first, cols[b].cols()) = cols[b];
    first += static_cast<int>(cols[b].cols());
  }
  return J;
}

/// One block of state_jacobian (m × 6 for Pose and Twist — m × 0 for a welded base — and
/// m × n for the joint blocks), at the cost of that block only.
template <class S, class F>
MatrixX<S> state_jacobian_block(const Model<S>& model, F&& f, const State<S>& x, StateBlock block,
                                const NumDiffOptions<S>& opt = {}) {
  liedyn::detail::check_state_sizes("numdiff::state_jacobian_block", "x", model, x);
  auto f0 = [&]() { return detail::as_vector<S>(f(x)); };
  return detail::state_block_columns(model, f, f0, x, block, opt);
}

/// ∂f/∂η: H ← H exp(η^), the base twist held fixed in opt.twist_representation.
template <class S, class F>
MatrixX<S> jacobian_wrt_pose(const Model<S>& model, F&& f, const State<S>& x,
                             const NumDiffOptions<S>& opt = {}) {
  return state_jacobian_block(model, f, x, StateBlock::Pose, opt);
}
/// ∂f/∂s.
template <class S, class F>
MatrixX<S> jacobian_wrt_joint_positions(const Model<S>& model, F&& f, const State<S>& x,
                                        const NumDiffOptions<S>& opt = {}) {
  return state_jacobian_block(model, f, x, StateBlock::JointPositions, opt);
}
/// ∂f/∂(base twist in opt.twist_representation), H held fixed.
template <class S, class F>
MatrixX<S> jacobian_wrt_twist(const Model<S>& model, F&& f, const State<S>& x,
                              const NumDiffOptions<S>& opt = {}) {
  return state_jacobian_block(model, f, x, StateBlock::Twist, opt);
}
/// ∂f/∂r.
template <class S, class F>
MatrixX<S> jacobian_wrt_joint_velocities(const Model<S>& model, F&& f, const State<S>& x,
                                         const NumDiffOptions<S>& opt = {}) {
  return state_jacobian_block(model, f, x, StateBlock::JointVelocities, opt);
}

/// The m × size(x) Jacobian of y = f(x) for a function of a plain vector (a generalized force
/// τ̄, an acceleration, ...): x ← x ± δ e_k. opt.twist_representation is not used.
template <class F, class Derived>
MatrixX<typename Derived::Scalar> vector_jacobian(
    F&& f, const Eigen::MatrixBase<Derived>& x,
    const NumDiffOptions<typename Derived::Scalar>& opt =
        NumDiffOptions<typename Derived::Scalar>()) {
  using S = typename Derived::Scalar;
  const VectorX<S> x0 = x;  // a plain copy (x may be an expression or a row vector)
  VectorX<S> y = x0;
  auto f0 = [&]() { return detail::as_vector<S>(f(static_cast<const VectorX<S>&>(x0))); };
  auto g = [&](int k, const S& h) {
    y[k] = x0[k] + h;
    VectorX<S> out = detail::as_vector<S>(f(static_cast<const VectorX<S>&>(y)));
    y[k] = x0[k];
    return out;
  };
  return detail::difference_columns<S>(
      static_cast<int>(x0.size()), g, [&](int k) { return x0[k]; }, f0, opt);
}

}  // namespace numdiff
}  // namespace liedyn
