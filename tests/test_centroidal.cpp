// liedyn tests — the centre of mass, centroidal dynamics and their state derivatives
// (algorithm/centroidal.hpp), energy (energy.hpp), the Coriolis matrix (coriolis.hpp),
// configuration-level Lie-group operations (model/configuration.hpp), the allocation-free
// integrator step and the actuated discrete linearization (linearization.hpp).
//
// Oracles, independent of the code under test:
//   * physics identities: h_G = A_G ν̄, ḣ_G = A_G q̈ + Ȧ_G ν̄, ḣ_G = [m g; 0] + the base wrench of
//     RNEA (with gravity and external wrenches) carried to the CoM (Newton–Euler of the whole
//     robot), ṗ_com = J_com ν̄, T = ½ ν̄ᵀ M ν̄ (crba), U = −m gᵀ p_com, C ν̄ = coriolis_force;
//   * time derivatives along the motion by a 4-point stencil in long double (d/dt h_G = ḣ_G,
//     d/dt p_com = ṗ_com, Ṁ for the skew-symmetry of Ṁ − 2C);
//   * long-double geometric central differences (numdiff) of p_com, h_G and ḣ_G for the state
//     derivatives, in every base-twist representation, and forward-mode automatic differentiation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <liedyn/algorithm/centroidal.hpp>
#include <liedyn/algorithm/coriolis.hpp>
#include <liedyn/algorithm/crba.hpp>
#include <liedyn/algorithm/energy.hpp>
#include <liedyn/algorithm/linearization.hpp>
#include <liedyn/model/configuration.hpp>
#include <liedyn/numdiff/finite_differences.hpp>
#include <liedyn/testing/samples.hpp>

#if defined(LIEDYN_HAS_URDF) && defined(__has_include)
#if __has_include(<liedyn/model/urdf.hpp>)
#include <liedyn/model/urdf.hpp>
#define LIEDYN_TEST_CENTROIDAL_URDF 1
#endif
#endif

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using liedyn::ComFrame;
using liedyn::Configuration;
using liedyn::Data;
using liedyn::ExternalWrenches;
using liedyn::Force;
using liedyn::MatrixX;
using liedyn::Model;
using liedyn::RandomModelOptions;
using liedyn::SE3;
using liedyn::State;
using liedyn::Vector3;
using liedyn::Vector6;
using liedyn::VectorX;
using Rep = liedyn::TwistRepresentation;
using LD = long double;
namespace test = liedyn::test;

namespace {

constexpr Rep kReps[] = {Rep::Body, Rep::Inertial, Rep::Mixed};

struct NamedModel {
  std::string name;
  Model<double> model;
};

/// Random trees and chains (moving and welded, armature on some) and, with the URDF loader,
/// the shipped quadruped solo12 and humanoid talos.
std::vector<NamedModel> models() {
  std::vector<NamedModel> ms;
  std::mt19937 rng(test::default_seed);
  RandomModelOptions o;
  ms.push_back({"random moving chain", liedyn::random_model<double>(6, rng, o)});
  o.branching = 3;
  o.armature = 0.05;
  ms.push_back({"random moving tree + armature", liedyn::random_model<double>(11, rng, o)});
  o = RandomModelOptions{};
  o.moving_base = false;
  o.branching = 2;
  ms.push_back({"random welded tree", liedyn::random_model<double>(7, rng, o)});
#ifdef LIEDYN_TEST_CENTROIDAL_URDF
  ms.push_back(
      {"solo12", liedyn::load_urdf_file(std::string(LIEDYN_TEST_DATA_DIR) + "/solo12.urdf")});
  ms.push_back(
      {"talos", liedyn::load_urdf_file(std::string(LIEDYN_TEST_DATA_DIR) + "/talos.urdf")});
#endif
  return ms;
}

template <class T>
VectorX<T> random_vector(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  VectorX<T> v(n);
  for (int k = 0; k < n; ++k) v(k) = T(u(rng));
  return v;
}

/// A state at time t on a smooth motion through x with velocity (ν̄, q̈) at t = 0: all d/dt at
/// t = 0 needs (see d_dt).
template <class T>
State<T> along_motion(const Model<T>& m, const State<T>& x, const VectorX<T>& ddq, const T& t) {
  State<T> y = x;
  const int n = m.num_joints(), off = m.offset();
  y.s += t * x.r;
  y.r += t * ddq.segment(off, n);
  if (m.has_moving_base()) {
    y.H = x.H * SE3<T>::exp(Vector6<T>(t * x.nu));
    y.nu += t * ddq.template head<6>();
  }
  return y;
}

/// d/dt f(t) at 0 by the 4-point stencil in long double: error O(h⁴ f⁽⁵⁾) + O(ε / h) ≈ 1e-15.
/// Any smooth curve through x with the right velocity gives the same first derivative.
template <class F>
Eigen::Matrix<LD, Eigen::Dynamic, Eigen::Dynamic> d_dt(F&& f) {
  const LD h = 1e-4L;
  const auto fm2 = f(-2 * h), fm1 = f(-h), fp1 = f(h), fp2 = f(2 * h);
  return (fm2 - LD(8) * fm1 + LD(8) * fp1 - fp2) / (LD(12) * h);
}

template <class T>
VectorX<T> as_dynamic(const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>& m) {
  return Eigen::Map<const VectorX<T>>(m.data(), m.size());
}

/// Base-frame wrench → centroidal frame, written out independently of the kernel: the wrench
/// transform to the frame with origin p_com and A's axes.
template <class T>
Vector6<T> to_centroidal(const SE3<T>& H, const Vector3<T>& p_com, const Vector6<T>& f0) {
  const Force<T> fA = H.act(Force<T>(f0));
  Vector6<T> out;
  out << fA.linear(), Vector3<T>(fA.angular()) - p_com.cross(Vector3<T>(fA.linear()));
  return out;
}

/// Identities of the kernels in scalar T, tolerance Tolerance<T>.
template <class T>
void check_identities(const Model<double>& model_d, std::uint32_t seed) {
  const Model<T> model = model_d.template cast<T>();
  Data<T> data(model);
  std::mt19937 rng(seed);
  const State<T> x = liedyn::random_state(model_d, rng).template cast<T>();
  const VectorX<T> ddq = random_vector<T>(model.nv(), rng);
  const VectorX<T> v = x.velocity(model);
  const int nb = model.num_bodies();
  const double tol = test::tolerance<T>();
  const T mass = model.total_mass();
  const SE3<T> H = liedyn::base_pose(model, x);

  // CoM position against Σ m_i p_i / m from forward kinematics.
  liedyn::forward_poses(model, data, x);
  Vector3<T> moment = Vector3<T>::Zero();
  for (int i = 0; i < nb; ++i)
    moment += data.kinematics.H_world[i].rotation() * model.inertia(i).first_moment() +
              model.inertia(i).mass() * data.kinematics.H_world[i].translation();
  const Vector3<T> p_ref = moment / mass;
  const Vector3<T> p = liedyn::center_of_mass(model, data, x);
  LIEDYN_CHECK_CLOSE(p, p_ref, tol);
  const Vector3<T> p_base = liedyn::center_of_mass(model, data, x, ComFrame::Base);
  LIEDYN_CHECK_CLOSE(Vector3<T>(H.rotation() * p_base + H.translation()), p_ref, tol);

  // h_G = A_G ν̄; ṗ_com = J_com ν̄ = h_G,lin / m, in both frames.
  const Vector6<T> hG = liedyn::centroidal_momentum(model, data, x);
  const Vector6<T> AGv = liedyn::centroidal_momentum_matrix(model, data, x) * v;
  LIEDYN_CHECK_CLOSE(AGv, hG, tol);
  const Vector3<T> pdot = liedyn::center_of_mass_velocity(model, data, x);
  LIEDYN_CHECK_CLOSE(pdot, Vector3<T>(hG.template head<3>() / mass), tol);
  const Vector3<T> Jv = liedyn::center_of_mass_jacobian(model, data, x) * v;
  LIEDYN_CHECK_CLOSE(Jv, pdot, tol);
  const Vector3<T> Jv_base = liedyn::center_of_mass_jacobian(model, data, x, ComFrame::Base) * v;
  LIEDYN_CHECK_CLOSE(Jv_base, Vector3<T>(H.rotation().transpose() * pdot), tol);
  LIEDYN_CHECK_CLOSE(liedyn::center_of_mass_velocity(model, data, x, ComFrame::Base), Jv_base, tol);

  // ḣ_G = A_G q̈ + Ȧ_G ν̄.
  const Vector6<T> hdot = liedyn::centroidal_momentum_rate(model, data, x, ddq);
  const Vector6<T> drift = liedyn::centroidal_momentum_drift(model, data, x);
  const Vector6<T> AGa = liedyn::centroidal_momentum_matrix(model, data, x) * ddq;
  LIEDYN_CHECK_CLOSE(Vector6<T>(AGa + drift), hdot, tol);
  const Vector3<T> pddot = liedyn::center_of_mass_acceleration(model, data, x, ddq);
  LIEDYN_CHECK_CLOSE(pddot, Vector3<T>(hdot.template head<3>() / mass), tol);
  LIEDYN_CHECK_CLOSE(liedyn::center_of_mass_acceleration(model, data, x, ddq, ComFrame::Base),
                     Vector3<T>(H.rotation().transpose() * pddot), tol);

  // Newton–Euler of the whole robot: ḣ_G = [m g; 0] + (the wrench that holds or drives the base)
  // + Σ external wrenches, all carried to the CoM. RNEA's data.inverse_dynamics.f[0] is the wrench
  // on the base (τ̄_b for a moving base, the weld's reaction for a welded one).
  ExternalWrenches<T> fext;
  for (int i = 0; i < nb; ++i) fext.push_back(Force<T>(random_vector<T>(6, rng)));
  const ExternalWrenches<T>* const cases[] = {nullptr, &fext};
  for (const ExternalWrenches<T>* fe : cases) {
    liedyn::rnea(model, data, x, ddq, fe);
    const Vector6<T> f0 = data.inverse_dynamics.f[0].vector();
    Vector6<T> rhs = to_centroidal(H, p_ref, f0);
    rhs.template head<3>() += mass * model.gravity();
    if (fe) {
      liedyn::forward_poses(model, data, x);
      for (int i = 0; i < nb; ++i)
        rhs += to_centroidal(SE3<T>(), p_ref,
                             Vector6<T>(data.kinematics.H_world[i].act((*fe)[i]).vector()));
    }
    // The sum cancels gravity's moment about A's origin, of size m |g| |p_com|: the error is
    // relative to that (long double would otherwise see the ~1e4 ε of the cancellation).
    const long double scale =
        std::max({1.0L, test::to_long_double(hdot.cwiseAbs().maxCoeff()),
                  test::to_long_double(mass * model.gravity().norm() * (T(1) + p_ref.norm()))});
    LIEDYN_CHECK_BELOW(test::scaled_error(rhs, hdot, scale), tol);
  }

  // Energy: T = ½ ν̄ᵀ M ν̄ (armature excluded: it is no body's kinetic energy), U = −m gᵀ p_com.
  MatrixX<T> M = liedyn::crba(model, data, x);
  for (int i = 1; i < nb; ++i) M(model.v_index(i), model.v_index(i)) -= model.joint(i).armature;
  const T Tkin = liedyn::kinetic_energy(model, data, x);
  const T Tref = T(0.5) * v.dot(M * v);
  LIEDYN_CHECK_CLOSE((Vector3<T>() << Tkin, T(0), T(0)).finished(),
                     (Vector3<T>() << Tref, T(0), T(0)).finished(), tol);
  const T U = liedyn::potential_energy(model, data, x);
  const T Uref = -mass * model.gravity().dot(p_ref);
  LIEDYN_CHECK_CLOSE((Vector3<T>() << U, T(0), T(0)).finished(),
                     (Vector3<T>() << Uref, T(0), T(0)).finished(), tol);

  // C ν̄ = the velocity-product terms.
  const VectorX<T> Cv = liedyn::coriolis_matrix(model, data, x) * v;
  const VectorX<T> V = liedyn::coriolis_force(model, data, x);
  LIEDYN_CHECK_CLOSE(Cv, V, tol);
}

}  // namespace

TEST_CASE("centroidal: identities hold on random trees and robots in every scalar type",
          "[centroidal]") {
  std::uint32_t seed = 11;
  for (const NamedModel& nm : models()) {
    INFO(nm.name);
    for (int trial = 0; trial < 2; ++trial, ++seed) {
      check_identities<double>(nm.model, seed);
      check_identities<LD>(nm.model, seed);
      check_identities<float>(nm.model, seed);
      check_identities<test::ADN<2>>(nm.model, seed);
    }
  }
}

TEST_CASE("centroidal: time derivatives along the motion and the skew-symmetry of Mdot - 2C",
          "[centroidal]") {
  std::uint32_t seed = 101;
  for (const NamedModel& nm : models()) {
    INFO(nm.name);
    const Model<LD> model = nm.model.cast<LD>();
    Data<LD> data(model);
    Data<double> data_d(nm.model);
    std::mt19937 rng(seed++);
    const State<LD> x = liedyn::random_state(model, rng);
    const VectorX<LD> ddq = random_vector<LD>(model.nv(), rng);
    const State<double> xd = x.cast<double>();
    const VectorX<double> ddq_d = ddq.cast<double>();

    // d/dt h_G = ḣ_G and d/dt p_com = ṗ_com along the motion (long-double stencil, kernels in
    // double).
    const auto hG_dot = d_dt([&](LD t) {
      return Eigen::Matrix<LD, Eigen::Dynamic, Eigen::Dynamic>(
          liedyn::centroidal_momentum(model, data, along_motion(model, x, ddq, t)));
    });
    LIEDYN_CHECK_CLOSE(liedyn::centroidal_momentum_rate(nm.model, data_d, xd, ddq_d),
                       as_dynamic(hG_dot), 1e-12);
    const auto p_dot = d_dt([&](LD t) {
      return Eigen::Matrix<LD, Eigen::Dynamic, Eigen::Dynamic>(
          liedyn::center_of_mass(model, data, along_motion(model, x, ddq, t)));
    });
    LIEDYN_CHECK_CLOSE(liedyn::center_of_mass_velocity(nm.model, data_d, xd), as_dynamic(p_dot),
                       1e-12);

    // Ṁ = d/dt M(s + t r); Ṁ − 2C must be skew-symmetric: its symmetric part, relative to ‖Ṁ‖.
    const auto Mdot = d_dt([&](LD t) {
      return Eigen::Matrix<LD, Eigen::Dynamic, Eigen::Dynamic>(
          liedyn::crba(model, data, VectorX<LD>(x.s + t * x.r)));
    });
    const MatrixX<double> C = liedyn::coriolis_matrix(nm.model, data_d, xd);
    const MatrixX<LD> K = Mdot - LD(2) * test::to_long_double(C);
    const MatrixX<LD> sym = K + K.transpose();
    const LD scale = std::max<LD>(1, Mdot.cwiseAbs().maxCoeff());
    LIEDYN_CHECK_BELOW(test::scaled_error(sym, MatrixX<LD>::Zero(sym.rows(), sym.cols()), scale),
                       1e-12);
  }
}

namespace {
/// The three derivative blocks as one (3 + 6 + 6) × 2nv matrix, from the kernel in scalar T.
template <class T>
MatrixX<T> analytic_derivatives(const Model<T>& model, Data<T>& data, const State<T>& x,
                                const VectorX<T>& ddq, Rep rep) {
  liedyn::centroidal_derivatives(model, data, x, ddq, rep);
  MatrixX<T> D(15, 2 * model.nv());
  D << data.centroidal.com_dx, data.centroidal.momentum_dx, data.centroidal.rate_dx;
  return D;
}
}  // namespace

TEST_CASE("centroidal: state derivatives match long-double geometric finite differences",
          "[centroidal]") {
  std::uint32_t seed = 201;
  for (const NamedModel& nm : models()) {
    INFO(nm.name);
    const Model<LD> model = nm.model.cast<LD>();
    Data<LD> data(model);
    Data<double> data_d(nm.model);
    std::mt19937 rng(seed++);
    const State<LD> x = liedyn::random_state(model, rng);
    const VectorX<LD> ddq = random_vector<LD>(model.nv(), rng);
    auto f = [&](const State<LD>& y) {
      VectorX<LD> out(15);
      out << liedyn::center_of_mass(model, data, y), liedyn::centroidal_momentum(model, data, y),
          liedyn::centroidal_momentum_rate(model, data, y, ddq);
      return out;
    };
    for (Rep rep : kReps) {
      INFO(liedyn::to_string(rep));
      liedyn::numdiff::NumDiffOptions<LD> opt;
      opt.twist_representation = rep;
      opt.step = 1e-6L;  // central: truncation ~1e-13 relative, round-off ε/δ ~1e-13
      const MatrixX<LD> N = liedyn::numdiff::state_jacobian(model, f, x, opt);
      const MatrixX<double> D = analytic_derivatives(nm.model, data_d, x.cast<double>(),
                                                     VectorX<double>(ddq.cast<double>()), rep);
      LIEDYN_CHECK_CLOSE(D, N, 1e-9);
      const MatrixX<LD> D_ld = analytic_derivatives(model, data, x, ddq, rep);
      LIEDYN_CHECK_CLOSE(D_ld, N, 1e-9);
      // float: the float tolerance (its own rounding, ε ≈ 1.2e-7; the state is rounded to float
      // too).
      const Model<float> model_f = nm.model.cast<float>();
      Data<float> data_f(model_f);
      const MatrixX<float> D_f = analytic_derivatives(model_f, data_f, x.cast<float>(),
                                                      VectorX<float>(ddq.cast<float>()), rep);
      LIEDYN_CHECK_CLOSE(D_f, N, test::tolerance<float>());
    }
  }
}

TEST_CASE(
    "centroidal: joint-position and joint-velocity derivatives match automatic differentiation",
    "[centroidal]") {
  using AD = test::ADN<6>;
  std::uint32_t seed = 301;
  for (const NamedModel& nm : models()) {
    INFO(nm.name);
    const Model<AD> model = nm.model.cast<AD>();
    Data<AD> data(model);
    Data<double> data_d(nm.model);
    std::mt19937 rng(seed++);
    const State<double> xd = liedyn::random_state(nm.model, rng);
    const VectorX<double> ddq = random_vector<double>(nm.model.nv(), rng);
    const int n = nm.model.num_joints(), off = nm.model.offset(), nv = nm.model.nv();
    State<AD> x = xd.cast<AD>();
    // Seeds: δs of the first three joints, δr of the first three (or fewer).
    const int k = std::min(3, n);
    for (int j = 0; j < k; ++j) {
      x.s(j).derivatives() = Eigen::Matrix<double, 6, 1>::Unit(j);
      x.r(j).derivatives() = Eigen::Matrix<double, 6, 1>::Unit(3 + j);
    }
    const VectorX<AD> ddq_ad = ddq.cast<AD>();
    VectorX<AD> out(15);
    out << liedyn::center_of_mass(model, data, x), liedyn::centroidal_momentum(model, data, x),
        liedyn::centroidal_momentum_rate(model, data, x, ddq_ad);
    MatrixX<double> J(15, 2 * k), D(15, 2 * k);
    for (int r = 0; r < 15; ++r)
      for (int c = 0; c < 2 * k; ++c) J(r, c) = out(r).derivatives()(c < k ? c : 3 + c - k);
    liedyn::centroidal_derivatives(nm.model, data_d, xd, ddq);
    MatrixX<double> all(15, 2 * nv);
    all << data_d.centroidal.com_dx, data_d.centroidal.momentum_dx, data_d.centroidal.rate_dx;
    D << all.middleCols(off, k), all.middleCols(2 * off + n, k);
    LIEDYN_CHECK_CLOSE(D, J, 1e-12);
  }
}

TEST_CASE("configuration: integrate, difference, interpolate and their Jacobians",
          "[centroidal][configuration]") {
  for (const NamedModel& nm : models()) {
    INFO(nm.name);
    const Model<LD> model = nm.model.cast<LD>();
    std::mt19937 rng(401);
    const Configuration<LD> q0 = liedyn::random_configuration(model, rng);
    const Configuration<LD> q1 = liedyn::random_configuration(model, rng);
    const int nv = model.nv();
    for (int i = 1; i <= model.num_joints(); ++i) {
      const auto& j = model.joint(i);
      if (std::isfinite(double(j.lower)) && std::isfinite(double(j.upper))) {
        CHECK(q0.s(i - 1) >= j.lower);
        CHECK(q0.s(i - 1) <= j.upper);
      }
    }
    // Round trip, and agreement with the full state's operations at zero velocity.
    const VectorX<LD> d = liedyn::difference(model, q0, q1);
    const Configuration<LD> q1b = liedyn::integrate(model, q0, d);
    LIEDYN_CHECK_CLOSE(q1b.H.matrix(), q1.H.matrix(), 1e-15);
    LIEDYN_CHECK_CLOSE(q1b.s, q1.s, 1e-15);
    State<LD> x0(model);
    x0.H = q0.H;
    x0.s = q0.s;
    VectorX<LD> dx = VectorX<LD>::Zero(2 * nv);
    dx.head(nv) = d;
    LIEDYN_CHECK_CLOSE(liedyn::integrate(model, x0, dx).H.matrix(), q1.H.matrix(), 1e-15);
    // Interpolation: endpoints, and the midpoint halfway along the geodesic.
    LIEDYN_CHECK_CLOSE(liedyn::interpolate(model, q0, q1, LD(0)).H.matrix(), q0.H.matrix(), 1e-15);
    LIEDYN_CHECK_CLOSE(liedyn::interpolate(model, q0, q1, LD(1)).H.matrix(), q1.H.matrix(), 1e-15);
    const Configuration<LD> mid = liedyn::interpolate(model, q0, q1, LD(0.5));
    LIEDYN_CHECK_CLOSE(liedyn::difference(model, q0, mid), VectorX<LD>(LD(0.5) * d), 1e-15);
    LIEDYN_CHECK_CLOSE(liedyn::difference(model, mid, q1), VectorX<LD>(LD(0.5) * d), 1e-15);
    // Jacobians against central differences (right perturbations, step 1e-7: error ~1e-13).
    const LD h = 1e-7L;
    MatrixX<LD> Jq, Jdq, J0, J1;
    liedyn::integrate_jacobians(model, q0, d, Jq, Jdq);
    liedyn::difference_jacobians(model, q0, q1, J0, J1);
    MatrixX<LD> Nq(nv, nv), Ndq(nv, nv), N0(nv, nv), N1(nv, nv);
    for (int c = 0; c < nv; ++c) {
      const VectorX<LD> e = VectorX<LD>::Unit(nv, c) * h;
      const Configuration<LD> ref = liedyn::integrate(model, q0, d);
      auto diff_at = [&](const Configuration<LD>& a) { return liedyn::difference(model, ref, a); };
      Nq.col(c) =
          (diff_at(liedyn::integrate(model, liedyn::integrate(model, q0, e), d)) -
           diff_at(liedyn::integrate(model, liedyn::integrate(model, q0, VectorX<LD>(-e)), d))) /
          (2 * h);
      Ndq.col(c) = (diff_at(liedyn::integrate(model, q0, VectorX<LD>(d + e))) -
                    diff_at(liedyn::integrate(model, q0, VectorX<LD>(d - e)))) /
                   (2 * h);
      N0.col(c) = (liedyn::difference(model, liedyn::integrate(model, q0, e), q1) -
                   liedyn::difference(model, liedyn::integrate(model, q0, VectorX<LD>(-e)), q1)) /
                  (2 * h);
      N1.col(c) = (liedyn::difference(model, q0, liedyn::integrate(model, q1, e)) -
                   liedyn::difference(model, q0, liedyn::integrate(model, q1, VectorX<LD>(-e)))) /
                  (2 * h);
    }
    LIEDYN_CHECK_CLOSE(Jq, Nq, 1e-10);
    LIEDYN_CHECK_CLOSE(Jdq, Ndq, 1e-10);
    LIEDYN_CHECK_CLOSE(J0, N0, 1e-10);
    LIEDYN_CHECK_CLOSE(J1, N1, 1e-10);
  }
}

TEST_CASE("centroidal: the integrator step with an output and linearize_discrete_actuated",
          "[centroidal]") {
  for (const NamedModel& nm : models()) {
    INFO(nm.name);
    const Model<double>& model = nm.model;
    Data<double> data(model);
    std::mt19937 rng(501);
    const State<double> x = liedyn::random_state(model, rng);
    const VectorX<double> tau = random_vector<double>(model.nv(), rng);
    const State<double> y = liedyn::semi_implicit_euler_step(model, data, x, tau, 1e-3);
    State<double> out(model), in_place = x;
    liedyn::semi_implicit_euler_step(model, data, x, tau, 1e-3, out);
    liedyn::semi_implicit_euler_step(model, data, in_place, tau, 1e-3, in_place);
    // Same arithmetic: bit-identical.
    CHECK(out.H.matrix() == y.H.matrix());
    CHECK(out.s == y.s);
    CHECK(out.nu == y.nu);
    CHECK(out.r == y.r);
    CHECK(in_place.H.matrix() == y.H.matrix());
    CHECK(in_place.r == y.r);

    const int m = 3;
    const MatrixX<double> Sact = MatrixX<double>::Random(model.nv(), m);
    const VectorX<double> u = VectorX<double>::Random(m);
    for (Rep rep : kReps) {
      liedyn::LinearizationOptions<double> opt;
      opt.representation = rep;
      MatrixX<double> Bu;
      liedyn::linearize_discrete_actuated(model, data, x, Sact, u, 1e-3, Bu, opt);
      const MatrixX<double> A_act = data.linearization.A, BS = data.linearization.B * Sact;
      liedyn::linearize_discrete(model, data, x, VectorX<double>(Sact * u), 1e-3, opt);
      LIEDYN_CHECK_CLOSE(A_act, data.linearization.A, 1e-15);
      LIEDYN_CHECK_CLOSE(Bu, BS, 1e-15);
    }
  }
}

TEST_CASE(
    "centroidal: no heap allocation in the centroidal, energy, Coriolis, configuration and step "
    "calls",
    "[centroidal][allocation]") {
  for (const NamedModel& nm : models()) {
    INFO(nm.name << (test::NoAllocation::eigen_flag_available()
                         ? ""
                         : " (Eigen's malloc flag unavailable)"));
    const Model<double>& model = nm.model;
    Data<double> data(model);
    std::mt19937 rng(601);
    const State<double> x = liedyn::random_state(model, rng);
    const VectorX<double> ddq = random_vector<double>(model.nv(), rng);
    const VectorX<double> tau = random_vector<double>(model.nv(), rng);
    const Configuration<double> q0 = liedyn::random_configuration(model, rng);
    const Configuration<double> q1 = liedyn::random_configuration(model, rng);
    Configuration<double> qo = q0;
    VectorX<double> dq(model.nv());
    MatrixX<double> J0(model.nv(), model.nv()), J1(model.nv(), model.nv());
    State<double> out = x;
    const MatrixX<double> Sact = MatrixX<double>::Random(model.nv(), 4);
    const VectorX<double> u = VectorX<double>::Random(4);
    MatrixX<double> Bu(2 * model.nv(), 4);
    double sink = 0;
    std::size_t allocations = 0;
    {
      test::NoAllocation guard;
      sink += liedyn::center_of_mass(model, data, x)(0);
      sink += liedyn::center_of_mass(model, data, x, ComFrame::Base)(0);
      sink += liedyn::center_of_mass_velocity(model, data, x)(0);
      sink += liedyn::center_of_mass_acceleration(model, data, x, ddq)(0);
      sink += liedyn::center_of_mass_jacobian(model, data, x)(0, 0);
      sink += liedyn::centroidal_momentum(model, data, x)(0);
      sink += liedyn::centroidal_momentum_matrix(model, data, x)(0, 0);
      sink += liedyn::centroidal_momentum_drift(model, data, x)(0);
      sink += liedyn::centroidal_momentum_rate(model, data, x, ddq)(0);
      for (Rep rep : kReps) liedyn::centroidal_derivatives(model, data, x, ddq, rep);
      sink += liedyn::kinetic_energy(model, data, x) + liedyn::potential_energy(model, data, x);
      sink += liedyn::coriolis_matrix(model, data, x)(0, 0);
      liedyn::integrate(model, q0, ddq, qo);
      liedyn::difference(model, q0, q1, dq);
      liedyn::interpolate(model, q0, q1, 0.3, qo);
      liedyn::integrate_jacobians(model, q0, dq, J0, J1);
      liedyn::difference_jacobians(model, q0, q1, J0, J1);
      liedyn::semi_implicit_euler_step(model, data, x, tau, 1e-3, out);
      liedyn::semi_implicit_euler_step(model, data, out, tau, 1e-3, out);
      liedyn::linearize_discrete_actuated(model, data, x, Sact, u, 1e-3, Bu);
      allocations = guard.allocations();
    }
    CHECK(allocations == 0);
    CHECK(std::isfinite(sink));
  }
}

}  // namespace LIEDYN_UNITY_ID
