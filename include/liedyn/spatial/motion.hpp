// liedyn — spatial algebra: 6D motion vectors (twists, accelerations) and force vectors
// (wrenches, momenta), and their cross products.
//
// Conventions (docs/conventions.md §1): LINEAR FIRST. A motion is [v_lin; ω], a force
// is [force; moment]. The twist cross product is v× = [ω^, v_lin^; 0, ω^]; the wrench cross
// product ("bar times star") is v×̄* = −(v×)ᵀ = [ω^, 0; v_lin^, ω^]. Featherstone's book is
// angular first — do not mix.
#pragma once

#include "liedyn/arithmetic/registers.hpp"
#include "liedyn/spatial/fwd.hpp"
#include "liedyn/spatial/skew.hpp"

namespace liedyn {

/// A 6D motion vector [linear; angular]: a twist ^C v_{A,B}, an acceleration, a joint screw
/// axis Γ. It carries no frame information: the frame it is expressed in is the caller's
/// bookkeeping, as in the paper's tables.
template <class S>
class Motion {
 public:
  using Scalar = S;
  using Vector = Vector6<S>;

  Motion() : data_(Vector::Zero()) {}
  /// From a 6-vector [v; ω], linear part first.
  template <class Derived>
  explicit Motion(const Eigen::MatrixBase<Derived>& v) : data_(v) {}
  /// From the linear part v and the angular part ω: the motion [v; ω].
  template <class D1, class D2>
  Motion(const Eigen::MatrixBase<D1>& linear, const Eigen::MatrixBase<D2>& angular) {
    data_ << linear, angular;
  }
  /// The zero motion [0; 0].
  static Motion Zero() { return Motion(); }

  /// Writable view of the linear part v (first three coordinates) of the motion [v; ω].
  auto linear() { return data_.template head<3>(); }
  /// The linear part v (first three coordinates) of the motion [v; ω].
  auto linear() const { return data_.template head<3>(); }
  /// Writable view of the angular part ω (last three coordinates) of the motion [v; ω].
  auto angular() { return data_.template tail<3>(); }
  /// The angular part ω (last three coordinates) of the motion [v; ω].
  auto angular() const { return data_.template tail<3>(); }
  /// Writable 6-vector [v; ω], linear first.
  Vector& vector() { return data_; }
  /// The 6-vector [v; ω], linear first.
  const Vector& vector() const { return data_; }
  /// Coordinate k of [v; ω]: 0..2 linear, 3..5 angular.
  S operator[](int k) const { return data_[k]; }

  // The arithmetic below is written per coordinate rather than as Eigen 6-vector expressions: its
  // operands are mostly fresh results of the scalar-form operators (see detail::Vec3), and a
  // 2-wide packet load of two separately stored coordinates stalls store forwarding.
  /// Coordinate-wise sum; both motions must be expressed in the same frame (not checked).
  Motion operator+(const Motion& o) const {
    Vector r;
    for (int k = 0; k < 6; ++k) r[k] = data_[k] + o.data_[k];
    return Motion(r);
  }
  /// Coordinate-wise difference; both motions must be expressed in the same frame (not checked).
  Motion operator-(const Motion& o) const {
    Vector r;
    for (int k = 0; k < 6; ++k) r[k] = data_[k] - o.data_[k];
    return Motion(r);
  }
  /// The negated motion −[v; ω].
  Motion operator-() const { return Motion(Vector(-data_)); }
  /// The motion scaled by a.
  Motion operator*(const S& a) const {
    Vector r;
    for (int k = 0; k < 6; ++k) r[k] = data_[k] * a;
    return Motion(r);
  }
  /// Adds `o` (same frame, not checked) in place.
  Motion& operator+=(const Motion& o) {
    for (int k = 0; k < 6; ++k) data_[k] += o.data_[k];
    return *this;
  }
  /// Subtracts `o` (same frame, not checked) in place.
  Motion& operator-=(const Motion& o) {
    for (int k = 0; k < 6; ++k) data_[k] -= o.data_[k];
    return *this;
  }
  /// Eigen's relative test on the 6-vectors: ‖this − o‖ ≤ prec · min(‖this‖, ‖o‖).
  bool isApprox(const Motion& o, const S& prec = Eigen::NumTraits<S>::dummy_precision()) const {
    return data_.isApprox(o.data_, prec);
  }

  /// v × m (twist cross product, the adjoint action ad_v m).
  LIEDYN_ALWAYS_INLINE Motion cross(const Motion& m) const {
    using detail::cross3;
    const auto v = detail::load3(data_.data()), w = detail::load3(data_.data() + 3);
    const auto mv = detail::load3(m.data_.data()), mw = detail::load3(m.data_.data() + 3);
    Vector r;
    detail::store3(r.data(), cross3(w, mv) + cross3(v, mw));
    detail::store3(r.data() + 3, cross3(w, mw));
    return Motion(r);
  }
  /// v ×̄* f (wrench cross product, −ad_vᵀ f).
  inline Force<S> cross(const Force<S>& f) const;

  /// The same motion seen from an origin moved by d, axes unchanged (d in these axes): the
  /// linear part becomes the velocity of the point at d, v + ω × d: the action of the transform
  /// (1, −d).
  LIEDYN_ALWAYS_INLINE Motion shifted(const Vector3<S>& d) const {
    const auto v = detail::load3(data_.data()), w = detail::load3(data_.data() + 3);
    Vector r;
    detail::store3(r.data(), v + detail::cross3(w, detail::load3(d.data())));
    detail::store3(r.data() + 3, w);
    return Motion(r);
  }
  /// The same motion in axes rotated by R (R maps these coordinates to the new ones), origin
  /// unchanged: (R v; R ω).
  LIEDYN_ALWAYS_INLINE Motion rotated(const Matrix3<S>& R) const {
    Vector r;
    detail::store3(r.data(), detail::mul3(R, detail::load3(data_.data())));
    detail::store3(r.data() + 3, detail::mul3(R, detail::load3(data_.data() + 3)));
    return Motion(r);
  }

  /// The 6×6 matrix v× = ad_v, acting on motions in v's frame.
  Matrix6<S> cross_matrix() const {
    // Coefficient by coefficient: the block form built two 3×3 temporaries and copied them in.
    const S vx = data_(0), vy = data_(1), vz = data_(2);
    const S wx = data_(3), wy = data_(4), wz = data_(5), o(0);
    Matrix6<S> m;
    m << o, -wz, wy, o, -vz, vy,  //
        wz, o, -wx, vz, o, -vx,   //
        -wy, wx, o, -vy, vx, o,   //
        o, o, o, o, -wz, wy,      //
        o, o, o, wz, o, -wx,      //
        o, o, o, -wy, wx, o;
    return m;
  }
  /// The 6×6 matrix v×̄* = −(v×)ᵀ, acting on wrenches in v's frame.
  Matrix6<S> cross_star_matrix() const { return -cross_matrix().transpose(); }

  /// The same motion with its coordinates converted to scalar type T.
  template <class T>
  Motion<T> cast() const {
    return Motion<T>(data_.template cast<T>());
  }

 private:
  Vector data_;
};

/// A 6D force vector [force; moment]: a wrench _C f, a momentum _C m, a bias wrench b.
template <class S>
class Force {
 public:
  using Scalar = S;
  using Vector = Vector6<S>;

  Force() : data_(Vector::Zero()) {}
  /// From a 6-vector [force; moment], force first.
  template <class Derived>
  explicit Force(const Eigen::MatrixBase<Derived>& f) : data_(f) {}
  /// From the force (linear part) and the moment (angular part): the wrench [force; moment].
  template <class D1, class D2>
  Force(const Eigen::MatrixBase<D1>& linear, const Eigen::MatrixBase<D2>& angular) {
    data_ << linear, angular;
  }
  /// The zero force vector [0; 0].
  static Force Zero() { return Force(); }

  /// Writable view of the force part (first three coordinates) of [force; moment].
  auto linear() { return data_.template head<3>(); }
  /// The force part (first three coordinates) of [force; moment].
  auto linear() const { return data_.template head<3>(); }
  /// Writable view of the moment part (last three coordinates), about the origin of the frame the
  /// vector is expressed in.
  auto angular() { return data_.template tail<3>(); }
  /// The moment part (last three coordinates), about the origin of the frame the vector is
  /// expressed in.
  auto angular() const { return data_.template tail<3>(); }
  /// Writable 6-vector [force; moment], force first.
  Vector& vector() { return data_; }
  /// The 6-vector [force; moment], force first.
  const Vector& vector() const { return data_; }
  /// Coordinate k of [force; moment]: 0..2 force, 3..5 moment.
  S operator[](int k) const { return data_[k]; }

  /// Coordinate-wise sum; both must be expressed in the same frame (not checked).
  Force operator+(const Force& o) const {
    Vector r;
    for (int k = 0; k < 6; ++k) r[k] = data_[k] + o.data_[k];
    return Force(r);
  }
  /// Coordinate-wise difference; both must be expressed in the same frame (not checked).
  Force operator-(const Force& o) const {
    Vector r;
    for (int k = 0; k < 6; ++k) r[k] = data_[k] - o.data_[k];
    return Force(r);
  }
  /// The negated force vector −[force; moment].
  Force operator-() const { return Force(Vector(-data_)); }
  /// The force vector scaled by a.
  Force operator*(const S& a) const {
    Vector r;
    for (int k = 0; k < 6; ++k) r[k] = data_[k] * a;
    return Force(r);
  }
  /// Adds `o` (same frame, not checked) in place.
  Force& operator+=(const Force& o) {
    for (int k = 0; k < 6; ++k) data_[k] += o.data_[k];
    return *this;
  }
  /// Subtracts `o` (same frame, not checked) in place.
  Force& operator-=(const Force& o) {
    for (int k = 0; k < 6; ++k) data_[k] -= o.data_[k];
    return *this;
  }
  /// The same force vector seen from an origin moved by d, axes unchanged (d in these axes): the
  /// moment is taken about the point at d, n − d × f: the action of the transform (1, −d).
  LIEDYN_ALWAYS_INLINE Force shifted(const Vector3<S>& d) const {
    const auto f = detail::load3(data_.data()), n = detail::load3(data_.data() + 3);
    Vector r;
    detail::store3(r.data(), f);
    detail::store3(r.data() + 3, n - detail::cross3(detail::load3(d.data()), f));
    return Force(r);
  }
  /// The same force vector in axes rotated by R, origin unchanged: (R f; R n).
  LIEDYN_ALWAYS_INLINE Force rotated(const Matrix3<S>& R) const {
    Vector r;
    detail::store3(r.data(), detail::mul3(R, detail::load3(data_.data())));
    detail::store3(r.data() + 3, detail::mul3(R, detail::load3(data_.data() + 3)));
    return Force(r);
  }

  /// Eigen's relative test on the 6-vectors: ‖this − o‖ ≤ prec · min(‖this‖, ‖o‖).
  bool isApprox(const Force& o, const S& prec = Eigen::NumTraits<S>::dummy_precision()) const {
    return data_.isApprox(o.data_, prec);
  }

  /// The same force vector with its coordinates converted to scalar type T.
  template <class T>
  Force<T> cast() const {
    return Force<T>(data_.template cast<T>());
  }

 private:
  Vector data_;
};

template <class S>
LIEDYN_PRODUCT_INLINE Force<S> Motion<S>::cross(const Force<S>& f) const {
  Vector6<S> r;
#if LIEDYN_PER_COORDINATE_PRODUCTS
  using detail::cross3;
  const auto v = detail::load3(data_.data()), w = detail::load3(data_.data() + 3);
  const auto fl = detail::load3(f.vector().data()), fw = detail::load3(f.vector().data() + 3);
  detail::store3(r.data(), cross3(w, fl));
  detail::store3(r.data() + 3, cross3(v, fl) + cross3(w, fw));
#else
  r << angular().cross(f.linear()), linear().cross(f.linear()) + angular().cross(f.angular());
#endif
  return Force<S>(r);
}

/// The power pairing ⟨v, f⟩ = vᵀ f.
template <class S>
S dot(const Motion<S>& v, const Force<S>& f) {
  return v.vector().dot(f.vector());
}

/// Scalar times motion: a m = m a.
template <class S>
Motion<S> operator*(const S& a, const Motion<S>& m) {
  return m * a;
}
/// Scalar times force vector: a f = f a.
template <class S>
Force<S> operator*(const S& a, const Force<S>& f) {
  return f * a;
}

namespace detail {
/// v × in column by column, written into out (kAdd false) or added to it (kAdd true).
template <bool kAdd, class S, class DerivedIn, class DerivedOut>
void motion_columns_cross(const Motion<S>& v, const Eigen::MatrixBase<DerivedIn>& in,
                          const Eigen::MatrixBase<DerivedOut>& out_) {
  auto& out = const_cast<Eigen::MatrixBase<DerivedOut>&>(out_);
  const Vec3<S> vl = load3(v.vector(), 0), w = load3(v.vector(), 3);
  for (Eigen::Index k = 0; k < in.cols(); ++k) {
    const Vec3<S> l = load3(in.col(k), 0), a = load3(in.col(k), 3);
    Vec3<S> lin = cross3(w, l) + cross3(vl, a), ang = cross3(w, a);
    if (kAdd) {
      lin = load3(out.col(k), 0) + lin;
      ang = load3(out.col(k), 3) + ang;
    }
    store3(out.col(k), 0, lin);
    store3(out.col(k), 3, ang);
  }
}
}  // namespace detail

/// out = v × in, column by column on 6×k blocks (no 6×6 matrix formed: a cross matrix times k
/// columns would cost twice the arithmetic); `out` may alias `in`.
template <class S, class DerivedIn, class DerivedOut>
void cross_motion_columns(const Motion<S>& v, const Eigen::MatrixBase<DerivedIn>& in,
                          const Eigen::MatrixBase<DerivedOut>& out) {
  detail::motion_columns_cross<false>(v, in, out);
}

/// out += v × in, column by column on 6×k blocks; `out` may alias `in`.
template <class S, class DerivedIn, class DerivedOut>
void add_cross_motion_columns(const Motion<S>& v, const Eigen::MatrixBase<DerivedIn>& in,
                              const Eigen::MatrixBase<DerivedOut>& out) {
  detail::motion_columns_cross<true>(v, in, out);
}

/// Column-wise wrench cross product on a 6×k block: out = v ×̄* in.
template <class S, class DerivedIn, class DerivedOut>
void cross_force_columns(const Motion<S>& v, const Eigen::MatrixBase<DerivedIn>& in,
                         const Eigen::MatrixBase<DerivedOut>& out_) {
  using namespace detail;
  auto& out = const_cast<Eigen::MatrixBase<DerivedOut>&>(out_);
  const Vec3<S> vl = load3(v.vector(), 0), w = load3(v.vector(), 3);
  for (Eigen::Index k = 0; k < in.cols(); ++k) {
    const Vec3<S> f = load3(in.col(k), 0), n = load3(in.col(k), 3);
    store3(out.col(k), 0, cross3(w, f));
    store3(out.col(k), 3, cross3(vl, f) + cross3(w, n));
  }
}

/// The wrench cross product of each motion column with one wrench h: out.col(k) = in.col(k) ×̄* h
/// (the derivative of a body-fixed wrench's coordinates as its frame turns by in.col(k));
/// `out` may alias `in`.
template <class S, class DerivedIn, class DerivedOut>
void motion_columns_cross_force(const Eigen::MatrixBase<DerivedIn>& in, const Force<S>& h,
                                const Eigen::MatrixBase<DerivedOut>& out_) {
  using namespace detail;
  auto& out = const_cast<Eigen::MatrixBase<DerivedOut>&>(out_);
  const Vec3<S> f = load3(h.vector(), 0), n = load3(h.vector(), 3);
  for (Eigen::Index k = 0; k < in.cols(); ++k) {
    const Vec3<S> l = load3(in.col(k), 0), w = load3(in.col(k), 3);
    store3(out.col(k), 0, cross3(w, f));
    store3(out.col(k), 3, cross3(l, f) + cross3(w, n));
  }
}

}  // namespace liedyn
