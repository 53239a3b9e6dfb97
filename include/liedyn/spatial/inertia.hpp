// liedyn — spatial algebra: rigid-body spatial inertia.
//
// Stored as (m, h = m c, I_o) about the frame's origin, c the centre of mass and I_o the
// rotational inertia about the origin. Its 6×6 form, linear first (docs/conventions.md §1):
//   M = [m 1, −h^; h^, I_o],   I_o = I_c − m c^ c^.
// M maps a motion (twist/acceleration) in that frame to a force (momentum/wrench) in it.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>

#include "liedyn/spatial/se3/se3.hpp"

namespace liedyn {

/// A rigid body's spatial inertia about a frame's origin, stored as (m, h = m c, I_o); its 6×6
/// form is [m 1, −h^; h^, I_o], linear first (docs/conventions.md §1).
template <class S>
class SpatialInertia {
 public:
  using Scalar = S;

  SpatialInertia() : m_(S(0)), h_(Vector3<S>::Zero()), Io_(Matrix3<S>::Zero()) {}
  /// The zero inertia (m = 0, h = 0, I_o = 0): a massless body.
  static SpatialInertia Zero() { return SpatialInertia(); }
  /// The raw (m, h = m c, I_o) form; no validity check.
  static SpatialInertia from_moments(const S& m, const Vector3<S>& h, const Matrix3<S>& I_origin) {
    SpatialInertia I;
    I.m_ = m;
    I.h_ = h;
    I.Io_ = I_origin;
    return I;
  }
  /// From mass, centre of mass c and rotational inertia I_c about the centre of mass, all in
  /// the body frame.
  static SpatialInertia from_mass_com_inertia(const S& m, const Vector3<S>& c,
                                              const Matrix3<S>& I_c) {
    const Matrix3<S> C = hat(c);
    return from_moments(m, Vector3<S>(m * c), Matrix3<S>(I_c - m * C * C));
  }
  /// The same inertia with its rotational part replaced by the symmetric part (I + Iᵀ)/2. A
  /// rotated inertia R D Rᵀ (URDF rpy, CAD exports) is symmetric only to round-off; the model
  /// builder stores this form, after validation, so that mass matrices come out exactly symmetric.
  SpatialInertia symmetrized() const {
    return from_moments(m_, h_, Matrix3<S>(S(0.5) * (Io_ + Io_.transpose())));
  }
  /// From the 6×6 matrix form (its symmetric rigid-body structure is assumed).
  template <class Derived>
  static SpatialInertia from_matrix(const Eigen::MatrixBase<Derived>& M) {
    const Matrix3<S> Hx = M.template block<3, 3>(3, 0);
    return from_moments(M(0, 0), vee(Hx), Matrix3<S>(M.template block<3, 3>(3, 3)));
  }

  /// The mass m.
  const S& mass() const { return m_; }
  /// First moment of mass h = m c.
  const Vector3<S>& first_moment() const { return h_; }
  /// Rotational inertia about the frame's origin.
  const Matrix3<S>& inertia_origin() const { return Io_; }
  /// Centre of mass (zero for a massless body).
  Vector3<S> com() const { return m_ > S(0) ? Vector3<S>(h_ / m_) : Vector3<S>::Zero(); }
  /// Rotational inertia about the centre of mass.
  Matrix3<S> inertia_com() const {
    if (!(m_ > S(0))) return Io_;
    const Matrix3<S> C = hat(h_);
    return Io_ + C * C / m_;
  }

  /// The 6×6 matrix [m 1, −h^; h^, I_o] (linear first), mapping a twist in this frame to a
  /// momentum in it.
  Matrix6<S> matrix() const {
    Matrix6<S> M;
    matrix_into(M);
    return M;
  }
  /// matrix() written into M, entry by entry, so that a kernel filling a stored 6×6 per body
  /// pays neither a call nor a 288-byte copy of a returned value.
  LIEDYN_ALWAYS_INLINE void matrix_into(Matrix6<S>& M) const {
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) {
        M(r, c) = r == c ? m_ : S(0);
        M(r + 3, c + 3) = Io_(r, c);
      }
    // h^ = [0 −h_z h_y; h_z 0 −h_x; −h_y h_x 0] in the lower-left block, its negative upper right.
    const S hx = h_(0), hy = h_(1), hz = h_(2);
    const S Hx[3][3] = {{S(0), -hz, hy}, {hz, S(0), -hx}, {-hy, hx, S(0)}};
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) {
        M(r + 3, c) = Hx[r][c];
        M(r, c + 3) = -Hx[r][c];
      }
  }

  /// scale · column k of matrix() (k = 0, 1, 2): the momentum of a linear velocity of `scale`
  /// along e_k, (m e_k; h × e_k) scaled, read off m and h.
  template <class Out>
  LIEDYN_ALWAYS_INLINE void linear_column_into(int k, const Eigen::MatrixBase<Out>& out_,
                                               const S& scale = S(1)) const {
    auto& out = const_cast<Eigen::MatrixBase<Out>&>(out_);
    const int a = (k + 1) % 3, b = (k + 2) % 3;  // h × e_k = h_b e_a − h_a e_b
    out(k) = scale * m_;
    out(a) = out(b) = out(3 + k) = S(0);
    out(3 + a) = scale * h_(b);
    out(3 + b) = -scale * h_(a);
  }
  /// scale · column 3 + k of matrix() (k = 0, 1, 2): the momentum of an angular velocity of
  /// `scale` about e_k, (−h × e_k; I_o e_k) scaled, read off h and I_o.
  template <class Out>
  LIEDYN_ALWAYS_INLINE void angular_column_into(int k, const Eigen::MatrixBase<Out>& out_,
                                                const S& scale = S(1)) const {
    auto& out = const_cast<Eigen::MatrixBase<Out>&>(out_);
    const int a = (k + 1) % 3, b = (k + 2) % 3;
    out(a) = -scale * h_(b);
    out(b) = scale * h_(a);
    out(k) = S(0);
    for (int r = 0; r < 3; ++r) out(3 + r) = scale * Io_(r, k);
  }

  /// M v: momentum (or wrench) of a body moving with twist (acceleration) v.
  LIEDYN_PRODUCT_INLINE Force<S> operator*(const Motion<S>& v) const {
#if LIEDYN_PER_COORDINATE_PRODUCTS
    const auto l = detail::load3(v.vector().data()), w = detail::load3(v.vector().data() + 3);
    return store(momentum_linear(l, w), momentum_angular(l, w));
#else
    return Force<S>(Vector3<S>(m_ * v.linear() - h_.cross(v.angular())),
                    Vector3<S>(h_.cross(v.linear()) + Io_ * v.angular()));
#endif
  }
  /// I a + v ×̄* (I v): the net wrench on a body of this inertia moving with twist v and
  /// acceleration a, all in this frame (the Newton–Euler equation, Featherstone's RBDA ch. 2).
  /// Written in registers: rnea calls it once per body, and I * a + v.cross(I * v) left both
  /// products and the cross product out of line there.
  LIEDYN_ALWAYS_INLINE Force<S> net_wrench(const Motion<S>& a, const Motion<S>& v) const {
    Vector6<S> r;
    net_wrench_coordinates(a, v, r.data());
    return Force<S>(r);
  }
  /// net_wrench written into `out` (may not alias a or v), for a kernel that keeps it in its
  /// Data: no temporary to copy out of (arithmetic/registers.hpp says why that matters).
  LIEDYN_ALWAYS_INLINE void net_wrench(const Motion<S>& a, const Motion<S>& v,
                                       Force<S>& out) const {
    net_wrench_coordinates(a, v, out.vector().data());
  }
  /// v ×̄* (I v): the velocity-product (bias) wrench of a body of this inertia moving with twist
  /// v, both in this frame (net_wrench at zero acceleration; aba's p_i).
  LIEDYN_ALWAYS_INLINE Force<S> bias_wrench(const Motion<S>& v) const {
    detail::Vec3<S> fl, fn;
    velocity_product(v, fl, fn);
    return store(fl, fn);
  }
  /// bias_wrench written into `out` (may not alias v), as net_wrench's form with `out`.
  LIEDYN_ALWAYS_INLINE void bias_wrench(const Motion<S>& v, Force<S>& out) const {
    detail::Vec3<S> fl, fn;
    velocity_product(v, fl, fn);
    detail::store3(out.vector().data(), fl);
    detail::store3(out.vector().data() + 3, fn);
  }
  /// M applied to each column of a 6×k block of motions.
  template <class DIn, class DOut>
  void apply_columns(const Eigen::MatrixBase<DIn>& in, const Eigen::MatrixBase<DOut>& out_) const {
    auto& out = const_cast<Eigen::MatrixBase<DOut>&>(out_);
    for (Eigen::Index k = 0; k < in.cols(); ++k) {
      const Vector3<S> l = in.col(k).template head<3>();
      const Vector3<S> a = in.col(k).template tail<3>();
      out.col(k).template head<3>() = m_ * l - h_.cross(a);
      out.col(k).template tail<3>() = h_.cross(l) + Io_ * a;
    }
  }

  /// The time derivative of this inertia's matrix when its body moves with twist v (both in
  /// the same frame): v×̄* M − M v×. It has the rigid structure with zero mass:
  /// ḣ = ω × h + m v_lin, İ_o = ω^ I_o − I_o ω^ − (v_lin^ h^ + h^ v_lin^). Symmetric.
  /// Formed without products of hat matrices: with W = ω^, −I_o ω^ = (W I_o)ᵀ, and
  /// v_lin^ h^ = h v_linᵀ − (v_lin·h) 1. Always inlined: the derivative passes call it per body,
  /// and out of line its 3×3 result would go through memory.
  LIEDYN_ALWAYS_INLINE SpatialInertia variation(const Motion<S>& v) const {
    const Vector3<S> w = v.angular(), l = v.linear();
    Matrix3<S> WI;
    for (int c = 0; c < 3; ++c) WI.col(c) = w.cross(Io_.col(c));
    Matrix3<S> D;
    for (int a = 0; a < 3; ++a)
      for (int b = a; b < 3; ++b) D(a, b) = WI(a, b) + WI(b, a) - h_(a) * l(b) - l(a) * h_(b);
    const S lh2 = S(2) * l.dot(h_);
    D(0, 0) += lh2;
    D(1, 1) += lh2;
    D(2, 2) += lh2;
    D(1, 0) = D(0, 1);
    D(2, 0) = D(0, 2);
    D(2, 1) = D(1, 2);
    return from_moments(S(0), Vector3<S>(w.cross(h_) + m_ * l), D);
  }

  /// The inertia of both bodies rigidly joined; both must be expressed in the same frame.
  SpatialInertia operator+(const SpatialInertia& o) const {
    return from_moments(m_ + o.m_, Vector3<S>(h_ + o.h_), Matrix3<S>(Io_ + o.Io_));
  }
  /// Adds the inertia `o` (same frame) in place.
  SpatialInertia& operator+=(const SpatialInertia& o) {
    m_ += o.m_;
    h_ += o.h_;
    Io_ += o.Io_;
    return *this;
  }

  /// Given this inertia in frame B and X = ^A H_B, the same body's inertia in frame A:
  /// _A X^B M ^B X_A.
  SpatialInertia transformed(const SE3<S>& X) const {
    return rotated(X.rotation()).translated(X.translation());
  }
  /// transformed(X) for a pure rotation X = (R, 0): frame A shares B's origin, R = ^A R_B.
  LIEDYN_ALWAYS_INLINE SpatialInertia rotated(const Matrix3<S>& R) const {
    const Matrix3<S> RI = R * Io_;
    Matrix3<S> I;
    // Upper triangle computed and mirrored: the result (and every composite inertia and mass
    // matrix built from it) is exactly symmetric.
    for (int a = 0; a < 3; ++a)
      for (int b = a; b < 3; ++b) {
        I(a, b) = RI.row(a).dot(R.row(b));
        I(b, a) = I(a, b);
      }
    return from_moments(m_, Vector3<S>(R * h_), I);
  }
  /// transformed(X) for a pure translation X = (1, p): frame A is frame B with its origin moved
  /// to −p, i.e. p is B's origin in A.
  SpatialInertia translated(const Vector3<S>& p) const {
    // I_A = I_o − m p^p^ − p^h^ − h^p^. With a^b^ = b aᵀ − (a·b) 1 and g = h + m p/2 the last
    // three terms are −(g pᵀ + p gᵀ) + 2 (p·g) 1: a third of the multiplications of the 3×3
    // products. On the diagonal the g_a p_a terms cancel exactly, so they are left out rather
    // than added and subtracted (which cost a light body far away ten digits' worth of ulps).
    const Vector3<S> g = h_ + (S(0.5) * m_) * p;
    const Vector3<S> gp = g.cwiseProduct(p);
    Matrix3<S> I;
    I(0, 0) = Io_(0, 0) + S(2) * (gp(1) + gp(2));
    I(1, 1) = Io_(1, 1) + S(2) * (gp(0) + gp(2));
    I(2, 2) = Io_(2, 2) + S(2) * (gp(0) + gp(1));
    for (int a = 0; a < 2; ++a)
      for (int b = a + 1; b < 3; ++b) {
        I(a, b) = Io_(a, b) - g(a) * p(b) - p(a) * g(b);
        I(b, a) = I(a, b);
      }
    return from_moments(m_, Vector3<S>(h_ + m_ * p), I);
  }
  /// *this += o.transformed(X), with o in frame B, X = ^A H_B and *this in frame A: a child's
  /// composite inertia added to its parent's. The same arithmetic as transformed(X) (and the same
  /// digits kept on the diagonal), coefficient by coefficient with no temporaries: Eigen's form
  /// passes each intermediate 3×3 through memory (arithmetic/registers.hpp says why that stalls).
  SpatialInertia& add_transformed(const SpatialInertia& o, const SE3<S>& X) {
    const S* R = X.rotation().data();  // column-major: R(a, b) = R[a + 3 b]
    const S* Io = o.Io_.data();
    S RI[9];  // R I_o, column-major
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a)
        RI[a + 3 * b] = R[a] * Io[3 * b] + R[a + 3] * Io[1 + 3 * b] + R[a + 6] * Io[2 + 3 * b];
    S hr[3], Ir[3][3];  // R h and the upper triangle of R I_o Rᵀ
    for (int a = 0; a < 3; ++a) {
      hr[a] = R[a] * o.h_(0) + R[a + 3] * o.h_(1) + R[a + 6] * o.h_(2);
      for (int b = a; b < 3; ++b)
        Ir[a][b] = RI[a] * R[b] + RI[a + 3] * R[b + 3] + RI[a + 6] * R[b + 6];
    }
    add_translated(o.m_, hr, Ir, X.translation().data());
    return *this;
  }
  /// add_transformed(o, X) for X = (Rot(e_K, θ), p), given c = cos θ and s = sin θ: the
  /// rotation mixes two coordinates, 16 multiplications for R I_o Rᵀ instead of 45 (a revolute
  /// joint whose placement is unrotated: Joint::add_inertia_to_parent).
  template <int K>
  LIEDYN_ALWAYS_INLINE SpatialInertia& add_transformed_about_axis(const SpatialInertia& o,
                                                                  const S& c, const S& s,
                                                                  const Vector3<S>& p) {
    // Rot(e_K, θ) maps e_a to c e_a + s e_b and e_b to −s e_a + c e_b (Joint::rotate_about).
    constexpr int a = (K + 1) % 3, b = (K + 2) % 3;
    const Matrix3<S>& I = o.Io_;
    S hr[3], Ir[3][3];
    hr[K] = o.h_(K);
    hr[a] = c * o.h_(a) - s * o.h_(b);
    hr[b] = s * o.h_(a) + c * o.h_(b);
    // Column K turns as a vector; the (a, b) block is R₂ B R₂ᵀ, B the block and R₂ = [c −s; s c].
    const S IaK = c * I(a, K) - s * I(b, K), IbK = s * I(a, K) + c * I(b, K);
    const S Paa = c * I(a, a) - s * I(a, b), Pab = c * I(a, b) - s * I(b, b);
    const S Pba = s * I(a, a) + c * I(a, b), Pbb = s * I(a, b) + c * I(b, b);
    Ir[K][K] = I(K, K);
    Ir[std::min(a, K)][std::max(a, K)] = IaK;
    Ir[std::min(b, K)][std::max(b, K)] = IbK;
    Ir[a][a] = c * Paa - s * Pab;
    Ir[b][b] = s * Pba + c * Pbb;
    Ir[std::min(a, b)][std::max(a, b)] = s * Paa + c * Pab;
    add_translated(o.m_, hr, Ir, p.data());
    return *this;
  }

  /// Given this inertia in frame A and X = ^A H_B, the inertia in frame B: _B X^A M ^A X_B.
  SpatialInertia transformed_inverse(const SE3<S>& X) const { return transformed(X.inverse()); }

  /// Physically valid: finite, m > 0, I_c symmetric positive definite, and its principal
  /// moments satisfy the triangle inequalities λ_i + λ_j ≥ λ_k (up to a tolerance relative to
  /// |I_c| + m|c|², the round-off of recovering I_c from the stored I_o).
  /// With `allow_degenerate`, the limits real robot files use are accepted too: a massless body
  /// (m = 0, h = 0) and a positive semi-definite I_c (a point mass, a thin rod). On failure,
  /// `why` (if given) says which rule failed.
  bool is_physically_valid(std::string* why = nullptr, bool allow_degenerate = false) const {
    auto fail = [&](const char* msg) {
      if (why) *why = msg;
      return false;
    };
    if (!(m_ == m_) || !h_.allFinite() || !Io_.allFinite() || !(m_ - m_ == S(0)))
      return fail("non-finite mass or inertia");
    if (m_ < S(0)) return fail("negative mass");
    if (m_ == S(0) && !allow_degenerate) return fail("mass must be positive");
    if (m_ == S(0) && h_.cwiseAbs().maxCoeff() > S(0))
      return fail("massless body with a non-zero first moment");
    const Matrix3<S> Ic = inertia_com();
    // I_c = I_o − m ĉ ĉᵀ loses the round-off of I_o, whose size is |I_c| + m|c|²: a point mass
    // away from the origin has I_c ≈ 0 and round-off of the order of ε m|c|².
    const S scale = std::max<S>(Ic.cwiseAbs().maxCoeff(), Io_.cwiseAbs().maxCoeff());
    const S tol = S(64) * Eigen::NumTraits<S>::epsilon() * (scale > S(0) ? scale : S(1));
    if ((Ic - Ic.transpose()).cwiseAbs().maxCoeff() > tol)
      return fail("rotational inertia is not symmetric");
    const Eigen::SelfAdjointEigenSolver<Matrix3<S>> es(Matrix3<S>((Ic + Ic.transpose()) * S(0.5)),
                                                       Eigen::EigenvaluesOnly);
    const Vector3<S> l = es.eigenvalues();  // ascending
    if (!allow_degenerate && !(l(0) > S(0)))
      return fail("rotational inertia is not positive definite");
    if (l(0) < -tol) return fail("rotational inertia is not positive semi-definite");
    if (l(0) + l(1) < l(2) - tol) return fail("principal moments violate the triangle inequality");
    return true;
  }

  /// The same inertia in scalar type T.
  template <class T>
  SpatialInertia<T> cast() const {
    return SpatialInertia<T>::from_moments(T(m_), h_.template cast<T>(), Io_.template cast<T>());
  }
  /// Eigen's relative test on the 6×6 matrices.
  bool isApprox(const SpatialInertia& o,
                const S& prec = Eigen::NumTraits<S>::dummy_precision()) const {
    return matrix().isApprox(o.matrix(), prec);
  }

 private:
  // *this += the inertia (m, h_r, I_r), about a frame with this frame's axes whose origin is p
  // here (I_r's upper triangle given): translated(p)'s arithmetic, the same digits kept on the
  // diagonal, coefficient by coefficient with no temporaries — Eigen's form passes each
  // intermediate 3×3 through memory (arithmetic/registers.hpp says why that stalls).
  LIEDYN_ALWAYS_INLINE void add_translated(const S& m, const S (&hr)[3], const S (&Ir)[3][3],
                                           const S* p) {
    S g[3];
    for (int a = 0; a < 3; ++a) g[a] = hr[a] + (S(0.5) * m) * p[a];
    S* I = Io_.data();
    for (int a = 0; a < 3; ++a) {
      const int b = a == 2 ? 0 : a + 1, c = b == 2 ? 0 : b + 1;
      I[4 * a] += Ir[a][a] + S(2) * (g[b] * p[b] + g[c] * p[c]);
    }
    for (int a = 0; a < 2; ++a)
      for (int b = a + 1; b < 3; ++b) {
        const S Iab = Ir[a][b] - g[a] * p[b] - p[a] * g[b];
        I[a + 3 * b] += Iab;
        I[b + 3 * a] += Iab;
      }
    for (int a = 0; a < 3; ++a) h_(a) += hr[a] + m * p[a];
    m_ += m;
  }

  // The two halves of I v = (m v_l − h × ω; h × v_l + I_o ω) in registers.
  LIEDYN_ALWAYS_INLINE detail::Vec3<S> momentum_linear(const detail::Vec3<S>& l,
                                                       const detail::Vec3<S>& w) const {
    return m_ * l - detail::cross3(detail::load3(h_.data()), w);
  }
  LIEDYN_ALWAYS_INLINE detail::Vec3<S> momentum_angular(const detail::Vec3<S>& l,
                                                        const detail::Vec3<S>& w) const {
    return detail::cross3(detail::load3(h_.data()), l) + detail::mul3(Io_, w);
  }
  // v ×̄* (I v) = (ω × p_l; v_l × p_l + ω × p_ω), p = I v: its force and moment halves.
  LIEDYN_ALWAYS_INLINE void velocity_product(const Motion<S>& v, detail::Vec3<S>& force,
                                             detail::Vec3<S>& moment) const {
    using detail::cross3;
    const auto vl = detail::load3(v.vector().data()), vw = detail::load3(v.vector().data() + 3);
    const auto pl = momentum_linear(vl, vw), pw = momentum_angular(vl, vw);
    force = cross3(vw, pl);
    moment = cross3(vl, pl) + cross3(vw, pw);
  }
  LIEDYN_ALWAYS_INLINE static Force<S> store(const detail::Vec3<S>& linear,
                                             const detail::Vec3<S>& angular) {
    Vector6<S> r;
    detail::store3(r.data(), linear);
    detail::store3(r.data() + 3, angular);
    return Force<S>(r);
  }
  /// net_wrench's coordinates into out[0..5].
  LIEDYN_ALWAYS_INLINE void net_wrench_coordinates(const Motion<S>& a, const Motion<S>& v,
                                                   S* out) const {
    detail::Vec3<S> fl, fn;
    velocity_product(v, fl, fn);
    const auto al = detail::load3(a.vector().data()), aw = detail::load3(a.vector().data() + 3);
    detail::store3(out, momentum_linear(al, aw) + fl);
    detail::store3(out + 3, momentum_angular(al, aw) + fn);
  }

  S m_;
  Vector3<S> h_;
  Matrix3<S> Io_;
};

}  // namespace liedyn
