// liedyn — arithmetic: three scalars held in registers, the inner arithmetic of the spatial
// operators (SE3's actions, the cross products, the inertia's products) and of the joints' fast
// cases.
#pragma once

#include "liedyn/arithmetic/types.hpp"

// The spatial operators a kernel calls once per body (SE3's actions, the cross products, the
// Newton–Euler wrench) are a few dozen flops: inlined, their operands stay in registers. GCC
// leaves them out of line inside a large kernel unless told, and the call then costs as much as
// the arithmetic (measured: BENCHMARKS.md).
#if defined(__GNUC__)
#define LIEDYN_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define LIEDYN_ALWAYS_INLINE inline
#endif
// The converse, for a kernel's rare branch (a multi-DoF joint's steps in a kernel whose 1-DoF
// steps are inlined): kept out of line, it leaves the common path's code as compact as before.
#if defined(__GNUC__)
#define LIEDYN_NEVER_INLINE __attribute__((noinline))
#else
#define LIEDYN_NEVER_INLINE
#endif

// SpatialInertia * Motion and the wrench cross product, the bulk of the derivative passes: with
// AVX the per-coordinate form, inlined, is much faster there; with SSE2 alone Eigen's 3-vector
// form, left to the compiler, is a little faster (both measured: BENCHMARKS.md, design
// measurements). The two forms are the same arithmetic up to rounding.
#if defined(__AVX__)
#define LIEDYN_PER_COORDINATE_PRODUCTS 1
#define LIEDYN_PRODUCT_INLINE LIEDYN_ALWAYS_INLINE
#else
#define LIEDYN_PER_COORDINATE_PRODUCTS 0
#define LIEDYN_PRODUCT_INLINE inline
#endif

namespace liedyn {

namespace detail {

// Three scalars, for the spatial operators' inner arithmetic. Eigen evaluates a 3×3 matrix times
// a 3-vector (or a cross product of 3-segments of a 6-vector) as 2-wide packets plus horizontal
// adds and passes the halves through the stack, where a 16-byte reload of two 8-byte stores
// stalls store forwarding. Written out coefficient by coefficient the same arithmetic stays in
// registers; SE3's actions, the motion cross product and the Newton–Euler wrench use this form,
// always inlined, and so do SpatialInertia * Motion and the wrench cross product where AVX is
// available (above; BENCHMARKS.md has the timings that decided each). Any scalar type works (AD
// too). The same stall follows a result returned by value: its coordinates are stored one by one
// into a temporary, and the copy into its destination reads them back in 16-byte halves that
// each straddle two stores. Hence the forms that write into an output argument (SE3's actions,
// SpatialInertia::net_wrench, the joints' motion_to_child), which a kernel uses for what it keeps
// in its Data.
template <class S>
struct Vec3 {
  S x, y, z;
};
template <class S>
inline Vec3<S> load3(const S* a) {
  return {a[0], a[1], a[2]};
}
/// Coefficients offset, offset + 1, offset + 2 of an Eigen vector (or a matrix column).
template <class Derived>
inline Vec3<typename Derived::Scalar> load3(const Eigen::MatrixBase<Derived>& a,
                                            Eigen::Index offset) {
  return {a(offset), a(offset + 1), a(offset + 2)};
}
/// Writes a into coefficients offset, offset + 1, offset + 2 of an Eigen vector or column.
template <class Derived>
inline void store3(const Eigen::MatrixBase<Derived>& out_, Eigen::Index offset,
                   const Vec3<typename Derived::Scalar>& a) {
  auto& out = const_cast<Eigen::MatrixBase<Derived>&>(out_);
  out(offset) = a.x;
  out(offset + 1) = a.y;
  out(offset + 2) = a.z;
}
template <class S>
inline void store3(S* out, const Vec3<S>& a) {
  out[0] = a.x;
  out[1] = a.y;
  out[2] = a.z;
}
template <class S>
inline Vec3<S> operator+(const Vec3<S>& a, const Vec3<S>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class S>
inline Vec3<S> operator-(const Vec3<S>& a, const Vec3<S>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class S>
inline Vec3<S> operator*(const S& s, const Vec3<S>& a) {
  return {s * a.x, s * a.y, s * a.z};
}
template <class S>
inline Vec3<S> cross3(const Vec3<S>& a, const Vec3<S>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
/// R a.
template <class S>
inline Vec3<S> mul3(const Matrix3<S>& R, const Vec3<S>& a) {
  return {R(0, 0) * a.x + R(0, 1) * a.y + R(0, 2) * a.z,
          R(1, 0) * a.x + R(1, 1) * a.y + R(1, 2) * a.z,
          R(2, 0) * a.x + R(2, 1) * a.y + R(2, 2) * a.z};
}
/// Rᵀ a.
template <class S>
inline Vec3<S> mul3_transpose(const Matrix3<S>& R, const Vec3<S>& a) {
  return {R(0, 0) * a.x + R(1, 0) * a.y + R(2, 0) * a.z,
          R(0, 1) * a.x + R(1, 1) * a.y + R(2, 1) * a.z,
          R(0, 2) * a.x + R(1, 2) * a.y + R(2, 2) * a.z};
}

}  // namespace detail

}  // namespace liedyn
