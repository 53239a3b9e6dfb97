// liedyn — numdiff: an IEEE binary128 scalar (113-bit significand, ε ≈ 1.9e-34) usable as S in
// every liedyn template, for finite-difference references far below double's round-off.
//
// liedyn::float128 wraps the compiler's __float128 in a class so that
//   * the library's `using std::sin; sin(x)` calls and Eigen's numext functions find its
//     math functions by argument-dependent lookup (a built-in type has no namespace, and
//     libstdc++ before GCC 13 has no std:: overloads for it);
//   * Eigen gets a NumTraits and std::numeric_limits gets a specialization.
// The math comes from glibc's libm (sinf128, cosf128, sqrtf128, atan2f128, ... — glibc ≥ 2.26,
// the _Float128 interfaces of ISO/IEC TS 18661-3), which every C++ program links anyway: no
// libquadmath, no extra link flag. Everything is software-emulated, far slower than double
// (docs/finite-differences.md). Compiles to nothing where the type or the library functions are
// missing; test LIEDYN_HAS_FLOAT128.
//
// Conversions: implicit from any arithmetic type (exact from float, double, integers; long
// double is rounded to 113 bits, exact too), explicit to arithmetic types
// (static_cast<double>(x)). to_string(x) prints all 36 significant digits.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include <Eigen/Core>

#if defined(__SIZEOF_FLOAT128__) && defined(__GLIBC__) && defined(__HAVE_FLOAT128) && \
    defined(__GLIBC_PREREQ)
#if __HAVE_FLOAT128 && __GLIBC_PREREQ(2, 26)
#define LIEDYN_HAS_FLOAT128 1
#endif
#endif

#ifdef LIEDYN_HAS_FLOAT128

#include <stdlib.h>  // strfromf128

namespace liedyn {

class float128 {
 public:
  using builtin = __float128;

  float128() = default;
  constexpr float128(builtin v) : v_(v) {}  // NOLINT: implicit, like the built-in promotions
  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  constexpr float128(T v) : v_(static_cast<builtin>(v)) {}  // NOLINT

  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  explicit constexpr operator T() const {
    return static_cast<T>(v_);
  }
  constexpr builtin value() const { return v_; }

  float128& operator+=(const float128& o) {
    v_ += o.v_;
    return *this;
  }
  float128& operator-=(const float128& o) {
    v_ -= o.v_;
    return *this;
  }
  float128& operator*=(const float128& o) {
    v_ *= o.v_;
    return *this;
  }
  float128& operator/=(const float128& o) {
    v_ /= o.v_;
    return *this;
  }
  constexpr float128 operator-() const { return float128(-v_); }
  constexpr float128 operator+() const { return *this; }

  friend constexpr float128 operator+(const float128& a, const float128& b) {
    return float128(a.v_ + b.v_);
  }
  friend constexpr float128 operator-(const float128& a, const float128& b) {
    return float128(a.v_ - b.v_);
  }
  friend constexpr float128 operator*(const float128& a, const float128& b) {
    return float128(a.v_ * b.v_);
  }
  friend constexpr float128 operator/(const float128& a, const float128& b) {
    return float128(a.v_ / b.v_);
  }
  friend constexpr bool operator==(const float128& a, const float128& b) { return a.v_ == b.v_; }
  friend constexpr bool operator!=(const float128& a, const float128& b) { return a.v_ != b.v_; }
  friend constexpr bool operator<(const float128& a, const float128& b) { return a.v_ < b.v_; }
  friend constexpr bool operator<=(const float128& a, const float128& b) { return a.v_ <= b.v_; }
  friend constexpr bool operator>(const float128& a, const float128& b) { return a.v_ > b.v_; }
  friend constexpr bool operator>=(const float128& a, const float128& b) { return a.v_ >= b.v_; }

 private:
  builtin v_;
};

// Math functions, found by argument-dependent lookup (glibc libm's _Float128 interfaces).
inline float128 abs(const float128& x) { return fabsf128(x.value()); }
inline float128 fabs(const float128& x) { return fabsf128(x.value()); }
inline float128 sqrt(const float128& x) { return sqrtf128(x.value()); }
inline float128 cbrt(const float128& x) { return cbrtf128(x.value()); }
inline float128 sin(const float128& x) { return sinf128(x.value()); }
inline float128 cos(const float128& x) { return cosf128(x.value()); }
inline float128 tan(const float128& x) { return tanf128(x.value()); }
inline float128 asin(const float128& x) { return asinf128(x.value()); }
inline float128 acos(const float128& x) { return acosf128(x.value()); }
inline float128 atan(const float128& x) { return atanf128(x.value()); }
inline float128 atan2(const float128& y, const float128& x) {
  return atan2f128(y.value(), x.value());
}
inline float128 exp(const float128& x) { return expf128(x.value()); }
inline float128 log(const float128& x) { return logf128(x.value()); }
inline float128 pow(const float128& x, const float128& y) { return powf128(x.value(), y.value()); }
inline float128 floor(const float128& x) { return floorf128(x.value()); }
inline float128 ceil(const float128& x) { return ceilf128(x.value()); }
inline float128 fmod(const float128& x, const float128& y) {
  return fmodf128(x.value(), y.value());
}
inline float128 ldexp(const float128& x, int e) { return ldexpf128(x.value(), e); }
inline float128 hypot(const float128& x, const float128& y) {
  return hypotf128(x.value(), y.value());
}
inline bool isfinite(const float128& x) {
  return x.value() == x.value() && x.value() - x.value() == 0;
}
inline bool isnan(const float128& x) { return x.value() != x.value(); }
inline bool isinf(const float128& x) { return x.value() == x.value() && !isfinite(x); }

/// All 36 significant digits.
inline std::string to_string(const float128& x) {
  char buf[64];
  strfromf128(buf, sizeof buf, "%.36g", x.value());
  return buf;
}

}  // namespace liedyn

namespace std {
template <>
class numeric_limits<liedyn::float128> {
  using T = liedyn::float128;

 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int radix = 2;
  static constexpr int digits = 113;
  static constexpr int digits10 = 33;
  static constexpr int max_digits10 = 36;
  static constexpr int min_exponent = -16381;
  static constexpr int max_exponent = 16384;
  static constexpr float_round_style round_style = round_to_nearest;
  static T epsilon() { return liedyn::ldexp(T(1), -112); }
  static T min() { return liedyn::ldexp(T(1), -16382); }
  static T max() { return liedyn::ldexp(T(2) - epsilon(), 16383); }
  static T lowest() { return -max(); }
  static T round_error() { return T(0.5); }
  static T infinity() { return T(std::numeric_limits<double>::infinity()); }
  static T quiet_NaN() { return T(std::numeric_limits<double>::quiet_NaN()); }
  static T signaling_NaN() { return T(std::numeric_limits<double>::signaling_NaN()); }
  static T denorm_min() { return liedyn::ldexp(T(1), -16494); }
};
}  // namespace std

namespace Eigen {
template <>
struct NumTraits<liedyn::float128> : GenericNumTraits<liedyn::float128> {
  using Real = liedyn::float128;
  using NonInteger = liedyn::float128;
  using Nested = liedyn::float128;
  using Literal = liedyn::float128;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 0,
    ReadCost = 1,
    AddCost = 10,  // software emulation
    MulCost = 20
  };
  static inline Real epsilon() { return std::numeric_limits<Real>::epsilon(); }
  static inline Real dummy_precision() { return Real(1e-30); }
  static inline Real highest() { return std::numeric_limits<Real>::max(); }
  static inline Real lowest() { return std::numeric_limits<Real>::lowest(); }
  static inline Real infinity() { return std::numeric_limits<Real>::infinity(); }
  static inline Real quiet_NaN() { return std::numeric_limits<Real>::quiet_NaN(); }
  static inline int digits10() { return 33; }
  static inline int digits() { return 113; }
};
}  // namespace Eigen

#endif  // LIEDYN_HAS_FLOAT128
