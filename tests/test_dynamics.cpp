// liedyn tests — the dynamics kernels: crba (mass matrix), aba (forward dynamics), immamb (the
// paper's Table 9 inverse mass matrix, fixed), against eidamb/rnea and the textbook reference
// routes of reference_dynamics.hpp, the shared reference numbers (fig4_like_case.json) and
// physics (momentum and energy conservation, a single rigid body's Newton–Euler equations).
//
// Oracles, all independent of the kernel under test:
//   * crba == the mass matrix from nv RNEA passes with unit accelerations;
//   * aba == M⁻¹ (τ̄ − h) with that M and a dense Cholesky solve; rnea(aba(τ̄)) == τ̄;
//   * immamb == crba⁻¹ (M · Minv == I) == the columns aba(h + e_k);
//   * the reference numbers of an independent numpy implementation (tests/data/);
//   * conservation laws along an RK4 (RKMK on SE(3)) trajectory integrated with aba.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/crba.hpp>
#include <liedyn/algorithm/eidamb.hpp>
#include <liedyn/algorithm/eidamb_derivatives.hpp>
#include <liedyn/algorithm/immamb.hpp>
#include <liedyn/algorithm/linearization.hpp>
#include <liedyn/algorithm/ltdl.hpp>
#include <liedyn/algorithm/reference_dynamics.hpp>
#include <liedyn/algorithm/rnea.hpp>
#include <liedyn/testing/samples.hpp>
#include <liedyn/testing/textbook.hpp>

#if defined(LIEDYN_HAS_URDF) && defined(__has_include)
#if __has_include(<liedyn/model/urdf.hpp>)
#include <liedyn/model/urdf.hpp>
#define LIEDYN_TEST_DYNAMICS_URDF 1
#endif
#endif

#include "support/fig4_case.hpp"
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using Catch::Matchers::Contains;
using liedyn::CrbaRoute;
using liedyn::Data;
using liedyn::ExternalWrenches;
using liedyn::Force;
using liedyn::Matrix3;
using liedyn::Matrix6;
using liedyn::MatrixX;
using liedyn::Model;
using liedyn::ModelBuilder;
using liedyn::ModelError;
using liedyn::Motion;
using liedyn::RandomModelOptions;
using liedyn::SE3;
using liedyn::SpatialInertia;
using liedyn::State;
using liedyn::TwistRepresentation;
using liedyn::Vector3;
using liedyn::Vector6;
using liedyn::VectorX;
using liedyn::test::relative_error;

namespace {

using AD6 = liedyn::test::AD6;

template <class S>
struct IsAD : std::false_type {};
template <class D>
struct IsAD<Eigen::AutoDiffScalar<D>> : std::true_type {};

template <class S>
double eps() {
  return static_cast<double>(
      std::numeric_limits<typename liedyn::test::RealOf<S>::type>::epsilon());
}

/// relative_error() of the values and, for an AutoDiffScalar, also of the derivatives
/// (max |dA − dB| / max(1, max |dB|)): the identities must hold to first order in the seeds too.
template <class DA, class DB>
double full_error(const Eigen::MatrixBase<DA>& A, const Eigen::MatrixBase<DB>& B) {
  using S = typename DA::Scalar;
  double e = relative_error(A, B);
  if constexpr (IsAD<S>::value) {
    if (A.rows() != B.rows() || A.cols() != B.cols())
      return std::numeric_limits<double>::infinity();
    double diff = 0, ref = 1;
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      for (Eigen::Index i = 0; i < A.rows(); ++i) {
        // By value: for an expression (Identity, a product) A(i, j) is a temporary.
        const auto da = A(i, j).derivatives();
        const auto db = B(i, j).derivatives();
        for (Eigen::Index k = 0; k < da.size(); ++k) {
          const double d = std::fabs(da(k) - db(k));
          if (!(d == d)) return std::numeric_limits<double>::infinity();
          diff = std::max(diff, d);
          ref = std::max(ref, std::fabs(double(db(k))));
        }
      }
    e = std::max(e, diff / ref);
  }
  return e;
}

template <class S>
VectorX<S> random_vec(int n, std::mt19937& rng, double lo = -1, double hi = 1) {
  std::uniform_real_distribution<double> u(lo, hi);
  VectorX<S> v(n);
  for (int k = 0; k < n; ++k) v(k) = S(u(rng));
  return v;
}

/// R = Rz(yaw) Ry(pitch) Rx(roll) (ZYX / Cardan angles), from the pitch's sine and cosine so that
/// pitch = ±90° is exact (cos = 0): the parameterization's gimbal lock.
template <class S>
Matrix3<S> rotation_zyx(double yaw, double sin_pitch, double cos_pitch, double roll) {
  Matrix3<double> Rz, Ry, Rx;
  Rz << std::cos(yaw), -std::sin(yaw), 0, std::sin(yaw), std::cos(yaw), 0, 0, 0, 1;
  Ry << cos_pitch, 0, sin_pitch, 0, 1, 0, -sin_pitch, 0, cos_pitch;
  Rx << 1, 0, 0, 0, std::cos(roll), -std::sin(roll), 0, std::sin(roll), std::cos(roll);
  return Matrix3<double>(Rz * Ry * Rx).cast<S>();
}

/// Random states of `model`: one plain random_state, and four with the base attitude at and next
/// to ZYX gimbal lock (pitch = ±90° exactly and ±(90° − 1e-6)), random yaw and roll.
/// The states are drawn for the double model and cast (random_state does not compile for
/// AutoDiffScalar, and a Model<AD> cannot be cast back to double).
template <class S>
std::vector<State<S>> test_states(const Model<double>& md, std::mt19937& rng) {
  std::vector<State<S>> xs;
  xs.push_back(liedyn::random_state(md, rng).template cast<S>());
  if (!md.has_moving_base()) return xs;
  std::uniform_real_distribution<double> u(-M_PI, M_PI);
  const double near = M_PI / 2 - 1e-6;
  const double pitch_sc[4][2] = {
      {1.0, 0.0}, {-1.0, 0.0}, {std::sin(near), std::cos(near)}, {-std::sin(near), std::cos(near)}};
  for (const auto& sc : pitch_sc) {
    State<S> x = liedyn::random_state(md, rng).template cast<S>();
    x.H.rotation() = rotation_zyx<S>(u(rng), sc[0], sc[1], u(rng));
    xs.push_back(x);
  }
  return xs;
}

/// Seeds the first (up to) 6 joint positions as the AutoDiff directions (no-op for plain scalars).
template <class S>
void seed_joint_positions(State<S>& x) {
  if constexpr (IsAD<S>::value) {
    for (int k = 0; k < std::min<int>(6, static_cast<int>(x.s.size())); ++k)
      x.s(k).derivatives() = Eigen::Matrix<double, 6, 1>::Unit(k);
  } else {
    (void)x;
  }
}

/// The errors of the core identities at one state.
struct IdentityErrors {
  double eid_vs_rnea = 0;   ///< eidamb vs rnea
  double crba_vs_id = 0;    ///< crba vs the mass matrix from ID columns
  double aba_vs_llt = 0;    ///< aba vs M⁻¹(τ̄ − h) by LLT
  double rnea_of_aba = 0;   ///< rnea(aba(τ̄)) vs τ̄
  double minv_times_m = 0;  ///< immamb · crba vs I
  double minv_vs_aba = 0;   ///< immamb vs the columns aba(h + e_k)
  double ltdl_vs_llt = 0;   ///< ltdl_solve(τ̄ − h) on crba's M vs M⁻¹(τ̄ − h) by LLT
  double ltdl_inverse_vs_immamb = 0;  ///< ltdl_inverse vs immamb
  double cond = 0;                    ///< κ₂(M), from its eigenvalues (double)
  bool symmetric = false;             ///< M and Minv exactly symmetric (both triangles written)
  bool positive_definite = false;
  bool sparsity = false;  ///< M_ij exactly 0 across branches; crba repeats M after other kernels
};

template <class S>
IdentityErrors identity_errors(const Model<S>& model, const State<S>& x, std::mt19937& rng) {
  IdentityErrors e;
  Data<S> data(model);
  const int nv = model.nv(), off = model.offset();

  const VectorX<S> ddq = random_vec<S>(nv, rng);
  const VectorX<S> tau_rnea = liedyn::rnea(model, data, x, ddq);
  const VectorX<S> tau_eid = liedyn::eidamb(model, data, x, ddq);
  e.eid_vs_rnea = full_error(tau_eid, tau_rnea);

  const MatrixX<S> M = liedyn::crba(model, data, x.s);
  MatrixX<S> M_id;
  liedyn::mass_matrix_from_inverse_dynamics(model, data, x, M_id);
  e.crba_vs_id = full_error(M, M_id);
  // crba's other route (walk up the body frames / through the base frame) on the same model.
  const CrbaRoute other = liedyn::crba_automatic_route(model) == CrbaRoute::Walk
                              ? CrbaRoute::BaseFrame
                              : CrbaRoute::Walk;
  e.crba_vs_id = std::max(e.crba_vs_id, full_error(liedyn::crba(model, data, x.s, other), M_id));

  const VectorX<S> tau = random_vec<S>(nv, rng, -5, 5);
  const VectorX<S> acc = liedyn::aba(model, data, x, tau);
  const VectorX<S> acc_llt = liedyn::forward_dynamics_llt(model, data, x, tau);
  e.aba_vs_llt = full_error(acc, acc_llt);
  e.rnea_of_aba = full_error(liedyn::rnea(model, data, x, acc), tau);

  const MatrixX<S> Minv = liedyn::immamb(model, data, x.s);
  const MatrixX<S> MMinv = M * Minv;
  e.minv_times_m = full_error(MMinv, MatrixX<S>::Identity(nv, nv));
  const VectorX<S> h = liedyn::bias_force(model, data, x);
  MatrixX<S> cols(nv, nv);
  for (int k = 0; k < nv; ++k) {
    VectorX<S> t = h;
    t(k) += S(1);
    cols.col(k) = liedyn::aba(model, data, x, t);
  }
  e.minv_vs_aba = full_error(Minv, cols);

  // The sparse LᵀDL factors of crba's M: the solve against LLT, the inverse against immamb.
  data.M = M;
  liedyn::ltdl_factorize(model, data);
  VectorX<S> acc_ltdl = tau - h;
  liedyn::ltdl_solve(model, data, acc_ltdl);
  e.ltdl_vs_llt = full_error(acc_ltdl, acc_llt);
  const MatrixX<S> Minv_ltdl = liedyn::ltdl_inverse(model, data);
  e.ltdl_inverse_vs_immamb = full_error(Minv_ltdl, Minv);

  e.symmetric = (M - M.transpose()).cwiseAbs().maxCoeff() == S(0) &&
                (Minv - Minv.transpose()).cwiseAbs().maxCoeff() == S(0) &&
                (Minv_ltdl - Minv_ltdl.transpose()).cwiseAbs().maxCoeff() == S(0);
  e.positive_definite = Eigen::LLT<MatrixX<S>>(M).info() == Eigen::Success;

  MatrixX<double> Md(nv, nv);
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nv; ++i) Md(i, j) = liedyn::test::to_double(M(i, j));
  const Eigen::SelfAdjointEigenSolver<MatrixX<double>> es(Md, Eigen::EigenvaluesOnly);
  e.cond = es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff();

  e.sparsity = true;
  for (int i = 1; i < model.num_bodies(); ++i)
    for (int j = i + 1; j < model.num_bodies(); ++j)
      if (j >= model.subtree_end(i) && M(off + i - 1, off + j - 1) != S(0)) e.sparsity = false;
  // crba does not clear data.M (its zeros between branches are never written): after the other
  // kernels on the same data, eidamb_derivatives' own M included, it gives the same M, bit for bit.
  liedyn::eidamb_derivatives(model, data, x, ddq);
  if (!(liedyn::crba(model, data, x.s) == M)) e.sparsity = false;
  return e;
}

}  // namespace

namespace {

/// Kernel-agreement tolerances for scalar S.
///   direct: eidamb vs rnea, crba vs ID columns — sums of O(n) well-scaled products, measured
///           ≤ 25 ε_eff on trees of 100 bodies: 100 ε_eff.
///   solve:  anything through M⁻¹ (aba, immamb, rnea∘aba) — backward-stable solves, error
///           O(ε κ(M)); measured ≤ 0.45 ε_eff κ: 10 ε_eff κ(M) + the direct tolerance.
/// ε_eff = max(ε_S, ε_double): the models and states are drawn in double and cast, so in long
/// double the rotations are orthonormal only to ~1e-16 and the routes differ at that level.
template <class S>
double eps_eff() {
  return std::max(eps<S>(), static_cast<double>(std::numeric_limits<double>::epsilon()));
}

template <class S>
void check_kernels_agree(const std::string& name, const Model<double>& md, std::mt19937& rng) {
  const Model<S> model = md.template cast<S>();
  const double direct = 100 * eps_eff<S>();
  for (State<S> x : test_states<S>(md, rng)) {
    seed_joint_positions(x);
    const IdentityErrors e = identity_errors(model, x, rng);
    const double solve = 10 * eps_eff<S>() * e.cond + direct;
    INFO(name << " (nv " << model.nv() << ", kappa(M) " << e.cond << ")");
    CHECK(e.eid_vs_rnea < direct);
    CHECK(e.crba_vs_id < direct);
    CHECK(e.aba_vs_llt < solve);
    CHECK(e.rnea_of_aba < solve);
    CHECK(e.minv_times_m < solve);
    CHECK(e.minv_vs_aba < solve);
    CHECK(e.ltdl_vs_llt < solve);
    CHECK(e.ltdl_inverse_vs_immamb < solve);
    CHECK(e.symmetric);
    CHECK(e.positive_definite);
    CHECK(e.sparsity);
  }
}

/// The families every scalar type runs; `large` adds the trees of 50–100 bodies (double only:
/// they cost nv forward-dynamics columns each).
template <class S>
void check_all_families(bool large) {
  std::mt19937 rng(liedyn::test::default_seed + 40);
  check_kernels_agree<S>("figure4", liedyn::figure4_model<double>(), rng);
  check_kernels_agree<S>("random chain 10", liedyn::random_model<double>(10, rng), rng);
  RandomModelOptions o;
  o.branching = 3;
  check_kernels_agree<S>("random tree 15", liedyn::random_model<double>(15, rng, o), rng);
  o = {};
  o.moving_base = false;
  o.armature = 0.1;
  check_kernels_agree<S>("welded arm 8 with armature", liedyn::random_model<double>(8, rng, o),
                         rng);
  o = {};
  o.axis_aligned = true;
  o.branching = 2;
  check_kernels_agree<S>("axis-aligned tree 10", liedyn::random_model<double>(10, rng, o), rng);
  o.unrotated_placements = true;
  o.revolute_only = true;
  check_kernels_agree<S>("URDF-like tree 12 (aligned revolutes, unrotated placements)",
                         liedyn::random_model<double>(12, rng, o), rng);
  if (!large) return;
  check_kernels_agree<S>("random chain 100", liedyn::random_model<double>(100, rng), rng);
  o = {};
  o.branching = 3;
  check_kernels_agree<S>("random tree 100", liedyn::random_model<double>(100, rng, o), rng);
  o = {};
  o.branching = 10;
  o.armature = 0.05;
  check_kernels_agree<S>("bushy tree 100 with armature", liedyn::random_model<double>(100, rng, o),
                         rng);
  o = {};
  o.moving_base = false;
  check_kernels_agree<S>("welded chain 50", liedyn::random_model<double>(50, rng, o), rng);
  o.branching = 4;
  check_kernels_agree<S>("welded tree 60", liedyn::random_model<double>(60, rng, o), rng);
#ifdef LIEDYN_TEST_DYNAMICS_URDF
  for (const char* robot : {"quadruped", "humanoid"}) {
    const std::string path =
        std::string(LIEDYN_TEST_DATA_DIR) + "/../../examples/models/" + robot + ".urdf";
    check_kernels_agree<S>(robot, liedyn::load_urdf_file(path), rng);
  }
#endif
}

}  // namespace

// ---------------------------------------------------------------------------------------------
TEST_CASE("dynamics: eidamb, rnea, crba, aba and immamb agree (double, trees up to 100 bodies)",
          "[dynamics]") {
  check_all_families<double>(true);
}

TEMPLATE_TEST_CASE("dynamics: the kernel identities hold in other scalar types",
                   "[dynamics][scalar]", float, long double, AD6) {
  // For AD6 the first six joint positions carry derivative seeds, and the identities must hold
  // for the derivatives too (full_error).
  check_all_families<TestType>(false);
}

#ifdef LIEDYN_TEST_DYNAMICS_URDF
TEST_CASE("dynamics: crba and immamb keep the digits of light bodies far from the base (talos)",
          "[dynamics][rounding]") {
  // Talos' grippers weigh grams, a metre from the base: about the base origin their m·|p|²
  // terms exceed their inertia about the joint by ~1e4, and kernels that work there (Pinocchio's
  // world-frame CRBA and Minv, and ours once) lose those digits: 1.4e-12 on M's diagonal, 5.7e-13
  // on M⁻¹. Reference: long double (the mass matrix from inverse-dynamics columns for M, the
  // same immamb for M⁻¹, itself checked against that mass matrix).
  const Model<double> model =
      liedyn::load_urdf_file(std::string(LIEDYN_TEST_DATA_DIR) + "/talos.urdf");
  const Model<long double> model_l = model.cast<long double>();
  Data<double> data(model);
  Data<long double> data_l(model_l);
  std::mt19937 rng(liedyn::test::default_seed + 41);
  double worst_m = 0, worst_minv = 0, worst_residual_l = 0, worst_ltdl = 0, worst_linearize = 0;
  for (int t = 0; t < 10; ++t) {
    const State<double> x = liedyn::random_state(model, rng);
    const State<long double> x_l = x.cast<long double>();
    MatrixX<long double> M_l;
    liedyn::mass_matrix_from_inverse_dynamics(model_l, data_l, x_l, M_l);
    // Both of crba's routes: talos takes the walk, the base-frame one serves deep trees.
    CHECK(liedyn::crba_automatic_route(model) == CrbaRoute::Walk);
    for (CrbaRoute route : {CrbaRoute::BaseFrame, CrbaRoute::Walk}) {
      const MatrixX<double>& M = liedyn::crba(model, data, x.s, route);
      // Entry (i, j) against its natural scale sqrt(M_ii M_jj): the diagonal relative to itself.
      for (int j = 0; j < model.nv(); ++j)
        for (int i = 0; i < model.nv(); ++i)
          worst_m = std::max(
              worst_m, static_cast<double>(std::abs(static_cast<long double>(M(i, j)) - M_l(i, j)) /
                                           std::sqrt(M_l(i, i) * M_l(j, j))));
    }
    const MatrixX<long double> Minv_l = liedyn::immamb(model_l, data_l, x_l.s);
    worst_residual_l = std::max(
        worst_residual_l,
        static_cast<double>((M_l * Minv_l - MatrixX<long double>::Identity(model.nv(), model.nv()))
                                .cwiseAbs()
                                .maxCoeff()));
    const MatrixX<double> Minv = liedyn::immamb(model, data, x.s);
    worst_minv =
        std::max(worst_minv,
                 static_cast<double>((Minv.cast<long double>() - Minv_l).norm() / Minv_l.norm()));
    // The sparse LᵀDL inverse of crba's M keeps them too.
    liedyn::crba(model, data, x.s);
    liedyn::ltdl_factorize(model, data);
    worst_ltdl = std::max(
        worst_ltdl, static_cast<double>(
                        (liedyn::ltdl_inverse(model, data).cast<long double>() - Minv_l).norm() /
                        Minv_l.norm()));
    // The linearization's M⁻¹ (its B) comes from the M of its base-frame derivative pass.
    liedyn::linearize(model, data, x, VectorX<double>::Zero(model.nv()));
    worst_linearize = std::max(
        worst_linearize,
        static_cast<double>((data.Minv.cast<long double>() - Minv_l).norm() / Minv_l.norm()));
  }
  INFO("crba: worst scaled entry error "
       << worst_m << ", immamb: relative error " << worst_minv << ", ltdl: " << worst_ltdl
       << ", linearize: " << worst_linearize << ", long double reference: max |M Minv - I| "
       << worst_residual_l);
  // The reference is a long double one: its residual (measured 6.4e-17) is far below double's.
  CHECK(worst_residual_l < 1e-15);
  // A short sum of rounded terms per entry: measured 1.4e-15 and 6.9e-16 here, up to 3.1e-15 and
  // 1.5e-15 at other random states; 1e-14 (~50 ulps) leaves a factor 3 and still fails the
  // base-frame versions (1.4e-12, 5.7e-13) by 50x and more.
  CHECK(worst_m < 1e-14);
  CHECK(worst_minv < 1e-14);
  CHECK(worst_ltdl < 1e-14);
  // The base frame's loss, as for its D1..D4 (and Pinocchio's Minv, 5.7e-13): measured 4.0e-13,
  // 6.0e-13 at other states; 2e-12 leaves a factor 3. immamb and ltdl_inverse on crba's M are
  // the routes for M⁻¹ to the last digits.
  CHECK(worst_linearize < 2e-12);
}
#endif

// ---------------------------------------------------------------------------------------------
TEST_CASE("dynamics: the figure-4 reference numbers (tau, M, h, Minv, forward dynamics)",
          "[dynamics][reference]") {
  const liedyn::test::Fig4Case ref = liedyn::test::Fig4Case::load();
  const Model<double> model = liedyn::figure4_model<double>();
  Data<double> data(model);
  const State<double> x = ref.state(model);
  // The reference's gravity input is −[g; 0] with g = (0, 0, −9.81): ours is the physical g.
  REQUIRE(model.gravity().isApprox(Vector3<double>(0, 0, -9.81)));
  const VectorX<double> ddq = ref.accelerations(model);

  // Tolerance: another implementation in double, printed with 17 digits; round-off ~1e-15
  // relative, and κ(M) ≈ 2e2 for M⁻¹ and the accelerations: 1e-10 relative as the issue states.
  const double tol = 1e-10;
  const VectorX<double> tau_ref = ref.vector("tau_bar");
  CHECK(relative_error(liedyn::eidamb(model, data, x, ddq), tau_ref) < tol);
  CHECK(relative_error(liedyn::rnea(model, data, x, ddq), tau_ref) < tol);
  CHECK(relative_error(liedyn::crba(model, data, x.s), ref.matrix("M")) < tol);
  CHECK(relative_error(liedyn::bias_force(model, data, x), ref.vector("h")) < tol);
  CHECK(relative_error(liedyn::immamb(model, data, x.s), ref.matrix("Minv")) < tol);
  const VectorX<double> u = ref.vector("u");
  CHECK(relative_error(liedyn::aba(model, data, x, u), ref.vector("acc")) < tol);
  CHECK(relative_error(liedyn::forward_dynamics_llt(model, data, x, u), ref.vector("acc")) < tol);
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("dynamics: bias, gravity and Coriolis terms split rnea", "[dynamics][rnea]") {
  std::mt19937 rng(liedyn::test::default_seed + 41);
  RandomModelOptions o;
  o.branching = 2;
  for (bool moving : {true, false}) {
    o.moving_base = moving;
    const Model<double> model = liedyn::random_model<double>(12, rng, o);
    Data<double> data(model);
    const State<double> x = liedyn::random_state(model, rng);
    const int nv = model.nv();
    const VectorX<double> ddq = random_vec<double>(nv, rng);
    INFO((moving ? "moving" : "welded") << " base");
    // Tolerance: the same sums in another order; entries ~1e2: 1e-13 relative.
    const VectorX<double> h = liedyn::bias_force(model, data, x);
    CHECK(relative_error(h, liedyn::rnea(model, data, x, VectorX<double>::Zero(nv))) < 1e-13);
    const VectorX<double> G = liedyn::gravity_force(model, data, x);
    State<double> rest = x;
    rest.nu.setZero();
    rest.r.setZero();
    CHECK(relative_error(G, liedyn::rnea(model, data, rest, VectorX<double>::Zero(nv))) < 1e-13);
    const VectorX<double> C = liedyn::coriolis_force(model, data, x);
    CHECK(relative_error(VectorX<double>(C + G), h) < 1e-13);
    // M q̈ + C + G = τ̄, with M from crba.
    const MatrixX<double> M = liedyn::crba(model, data, x.s);
    CHECK(relative_error(VectorX<double>(M * ddq + C + G), liedyn::rnea(model, data, x, ddq)) <
          1e-13);
    // Gravity off: G = 0 exactly; at rest C = 0 exactly.
    CHECK(liedyn::coriolis_force(model, data, rest).cwiseAbs().maxCoeff() == 0.0);
  }
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("dynamics: external wrenches enter every inverse and forward dynamics kernel alike",
          "[dynamics][external]") {
  std::mt19937 rng(liedyn::test::default_seed + 42);
  RandomModelOptions o;
  o.branching = 3;
  for (bool moving : {true, false}) {
    o.moving_base = moving;
    const Model<double> model = liedyn::random_model<double>(9, rng, o);
    Data<double> data(model);
    const State<double> x = liedyn::random_state(model, rng);
    const int nv = model.nv();
    ExternalWrenches<double> fext(static_cast<std::size_t>(model.num_bodies()));
    for (Force<double>& f : fext) f = Force<double>(random_vec<double>(6, rng, -3, 3));
    const VectorX<double> ddq = random_vec<double>(nv, rng);
    INFO((moving ? "moving" : "welded") << " base");
    const VectorX<double> tau = liedyn::rnea(model, data, x, ddq, &fext);
    // Tolerance: direct kernels 1e-13; through M⁻¹ (κ(M) < 1e4 here) 1e-10.
    CHECK(relative_error(liedyn::eidamb(model, data, x, ddq, &fext), tau) < 1e-13);
    CHECK(relative_error(liedyn::aba(model, data, x, tau, &fext), ddq) < 1e-10);
    CHECK(relative_error(liedyn::forward_dynamics_llt(model, data, x, tau, &fext), ddq) < 1e-10);
    // A wrench changes the answer (the argument is not ignored): without it τ̄ differs.
    CHECK(relative_error(liedyn::rnea(model, data, x, ddq), tau) > 1e-3);
    // Superposition: τ̄(f) = τ̄(0) − Σ J_iᵀ f_i is linear in f, so τ̄(2f) − τ̄(f) = τ̄(f) − τ̄(0).
    ExternalWrenches<double> f2 = fext;
    for (Force<double>& f : f2) f = Force<double>(Vector6<double>(2 * f.vector()));
    const VectorX<double> t0 = liedyn::rnea(model, data, x, ddq);
    const VectorX<double> t2 = liedyn::rnea(model, data, x, ddq, &f2);
    CHECK(relative_error(VectorX<double>(t2 - tau), VectorX<double>(tau - t0)) < 1e-12);
  }
}

// ---------------------------------------------------------------------------------------------
namespace {

/// Right-trivialized RKMK4 step of the free dynamics (τ̄ = 0) on SE(3) × Rⁿ × R⁶ × Rⁿ:
/// H = H0 exp(ξ^) with ξ̇ = Jr(ξ)⁻¹ ν, classical RK4 on (ξ, s, ν, r) from ξ = 0.
State<double> rkmk4_step(const Model<double>& model, Data<double>& data, const State<double>& x0,
                         double dt) {
  const int n = model.num_joints(), N = 12 + 2 * n;
  const VectorX<double> zero = VectorX<double>::Zero(model.nv());
  auto state_at = [&](const VectorX<double>& y) {
    State<double> x = x0;
    x.H = x0.H * SE3<double>::exp(Vector6<double>(y.head<6>()));
    x.s = y.segment(6, n);
    x.nu = y.segment<6>(6 + n);
    x.r = y.tail(n);
    return x;
  };
  auto f = [&](const VectorX<double>& y) {
    const State<double> x = state_at(y);
    VectorX<double> dy(N);
    dy.head<6>() = SE3<double>::right_jacobian_inverse(Vector6<double>(y.head<6>())) * x.nu;
    dy.segment(6, n) = x.r;
    dy.tail(6 + n) = liedyn::aba(model, data, x, zero);
    return dy;
  };
  VectorX<double> y(N);
  y << Vector6<double>::Zero(), x0.s, x0.nu, x0.r;
  const VectorX<double> k1 = f(y), k2 = f(y + dt / 2 * k1), k3 = f(y + dt / 2 * k2),
                        k4 = f(y + dt * k3);
  return state_at(y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4));
}

/// Total spatial momentum about and in the inertial frame A: _A X^0 (M[0:6, :] q̇).
Vector6<double> inertial_momentum(const Model<double>& model, Data<double>& data,
                                  const State<double>& x) {
  const MatrixX<double> M = liedyn::crba(model, data, x.s);
  const Force<double> h0(Vector6<double>(M.topRows(6) * x.velocity(model)));
  return x.H.act(h0).vector();
}

}  // namespace

TEST_CASE("dynamics: a free robot without gravity conserves momentum and kinetic energy under aba",
          "[dynamics][physics]") {
  std::mt19937 rng(liedyn::test::default_seed + 43);
  RandomModelOptions o;
  o.branching = 2;
  o.gravity_off = true;
  const Model<double> model = liedyn::random_model<double>(6, rng, o);
  REQUIRE(model.gravity().norm() == 0.0);
  Data<double> data(model);
  State<double> x = liedyn::random_state(model, rng);
  const Vector6<double> p0 = inertial_momentum(model, data, x);
  auto energy = [&](const State<double>& y) {
    const VectorX<double> q = y.velocity(model);
    return 0.5 * q.dot(liedyn::crba(model, data, y.s) * q);
  };
  const double E0 = energy(x);
  REQUIRE(E0 > 0.1);
  // 1 s with RK4 at dt = 1e-3: local error O(dt⁵) per step, global ~1e-12 relative for these
  // motions (|ν|, |r| ≲ 3); a wrong ABA term (a sign in c_i, a missing bias) drifts by O(1e-2).
  const double dt = 1e-3;
  double drift_p = 0, drift_E = 0;
  for (int k = 0; k < 1000; ++k) {
    x = rkmk4_step(model, data, x, dt);
    drift_p = std::max(drift_p, (inertial_momentum(model, data, x) - p0).norm() / p0.norm());
    drift_E = std::max(drift_E, std::fabs(energy(x) - E0) / E0);
  }
  WARN("momentum drift " << drift_p << ", energy drift " << drift_E);
  CHECK(drift_p < 1e-9);
  CHECK(drift_E < 1e-9);
}

TEST_CASE("dynamics: a single free rigid body obeys the Newton-Euler equations",
          "[dynamics][physics]") {
  // A lone base with its centre of mass off the body origin, a general inertia, gravity on, an
  // applied wrench: aba and eidamb against Newton and Euler written about the centre of mass.
  const double m = 2.5;
  const Vector3<double> c(0.1, -0.2, 0.05);
  Matrix3<double> Ic;
  Ic << 0.30, 0.02, -0.01, 0.02, 0.25, 0.03, -0.01, 0.03, 0.20;
  ModelBuilder<double> b(liedyn::BaseType::Moving, "body",
                         SpatialInertia<double>::from_mass_com_inertia(m, c, Ic));
  const Model<double> model = b.build();
  REQUIRE(model.nv() == 6);
  Data<double> data(model);
  State<double> x(model);
  x.H = SE3<double>::exp(Vector6<double>(0.3, -0.1, 0.7, 0.4, -0.9, 1.2));
  x.nu << 0.5, -0.3, 0.8, 1.1, -0.7, 0.4;
  const Vector3<double> F(1.0, -2.0, 3.0),
      n_origin(0.4, 0.1, -0.3);  // applied, body frame, about origin
  VectorX<double> tau(6);
  tau << F, n_origin;
  const VectorX<double> acc = liedyn::aba(model, data, x, tau);
  const Vector3<double> vdot = acc.head<3>(), wdot = acc.tail<3>();
  const Vector3<double> v = x.nu.head<3>(), w = x.nu.tail<3>();
  const Vector3<double> g_body = x.H.rotation().transpose() * model.gravity();
  // Newton: m a_c = F + m g, a_c the centre of mass's acceleration (in body coordinates).
  const Vector3<double> a_c = vdot + wdot.cross(c) + w.cross(v + w.cross(c));
  CHECK((m * a_c - (F + m * g_body)).norm() < 1e-12);
  // Euler about the centre of mass: I_c ω̇ + ω × I_c ω = n − c × F.
  CHECK((Ic * wdot + w.cross(Ic * w) - (n_origin - c.cross(F))).norm() < 1e-12);
  // And inverse dynamics gives back the applied wrench.
  CHECK(relative_error(liedyn::eidamb(model, data, x, acc), tau) < 1e-13);
  CHECK(relative_error(liedyn::rnea(model, data, x, acc), tau) < 1e-13);
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("dynamics: no heap allocation inside any kernel call", "[dynamics][allocation]") {
  std::mt19937 rng(liedyn::test::default_seed + 44);
  RandomModelOptions o;
  o.branching = 3;
  std::vector<Model<double>> models{liedyn::figure4_model<double>(),
                                    liedyn::random_model<double>(40, rng, o)};
  o.moving_base = false;
  models.push_back(liedyn::random_model<double>(10, rng, o));
  for (const Model<double>& model : models) {
    Data<double> data(model);
    const State<double> x = liedyn::random_state(model, rng);
    const VectorX<double> v = random_vec<double>(model.nv(), rng);
    ExternalWrenches<double> fext(static_cast<std::size_t>(model.num_bodies()));
    VectorX<double> w = v;
    std::size_t news = 0;
    {
      liedyn::test::NoAllocation guard;
      liedyn::rnea(model, data, x, v);
      liedyn::rnea(model, data, x, v, &fext);
      liedyn::eidamb(model, data, x, v);
      liedyn::bias_force(model, data, x);
      liedyn::gravity_force(model, data, x);
      liedyn::coriolis_force(model, data, x);
      liedyn::crba(model, data, x.s);
      liedyn::aba(model, data, x, v);
      liedyn::aba(model, data, x, v, &fext);
      liedyn::immamb(model, data, x.s);
      liedyn::crba(model, data, x.s);
      liedyn::ltdl_factorize(model, data);
      liedyn::ltdl_solve(model, data, w);
      liedyn::ltdl_solve(model, data, w.head(model.nv()));
      liedyn::ltdl_inverse(model, data);
      news = guard.allocations();
    }
    INFO("nv " << model.nv());
    CHECK(news == 0);
  }
}

TEST_CASE("dynamics: inputs of the wrong size are refused in checked builds",
          "[dynamics][errors]") {
  // Argument checks run in every build (config.hpp), release included.
  const Model<double> model = liedyn::figure4_model<double>();
  Data<double> data(model);
  const State<double> x(model);
  const VectorX<double> short_v = VectorX<double>::Zero(model.nv() - 1);
  CHECK_THROWS_WITH(liedyn::rnea(model, data, x, short_v), Contains("ddq") && Contains("13"));
  CHECK_THROWS_WITH(liedyn::eidamb(model, data, x, short_v), Contains("13"));
  CHECK_THROWS_WITH(liedyn::aba(model, data, x, short_v), Contains("tau") && Contains("13"));
  CHECK_THROWS_WITH(liedyn::crba(model, data, VectorX<double>::Zero(3)), Contains("7"));
  CHECK_THROWS_WITH(liedyn::immamb(model, data, VectorX<double>::Zero(3)), Contains("7"));
  State<double> bad = x;
  bad.r.resize(2);
  CHECK_THROWS_WITH(liedyn::bias_force(model, data, bad), Contains("state.r"));
  ExternalWrenches<double> few(2);
  CHECK_THROWS_WITH(liedyn::aba(model, data, x, VectorX<double>::Zero(model.nv()), &few),
                    Contains("one entry per body"));
}

TEST_CASE("dynamics: crba's automatic route switches at total depth 8 n, and both routes agree",
          "[dynamics][crba]") {
  // A chain of n joints has Σ depth = n (n + 1) / 2: 120 = 8·15 at n = 15 (the boundary, still
  // Walk) and 136 > 8·16 at n = 16 (BaseFrame).
  std::mt19937 rng(liedyn::test::default_seed + 44);
  for (const int n : {15, 16}) {
    INFO("chain of " << n);
    const Model<double> model = liedyn::random_model<double>(n, rng);
    REQUIRE(model.total_depth() == n * (n + 1) / 2);
    const CrbaRoute expected = n == 15 ? CrbaRoute::Walk : CrbaRoute::BaseFrame;
    CHECK(liedyn::crba_automatic_route(model) == expected);
    Data<double> data(model);
    const State<double> x = liedyn::random_state(model, rng);
    const MatrixX<double> M_auto = liedyn::crba(model, data, x);
    const MatrixX<double> M_expected = liedyn::crba(model, data, x, expected);
    CHECK(M_auto == M_expected);  // the automatic route IS that route: bit for bit
    const MatrixX<double> M_walk = liedyn::crba(model, data, x, CrbaRoute::Walk);
    const MatrixX<double> M_base = liedyn::crba(model, data, x, CrbaRoute::BaseFrame);
    // Different association orders of the same sums: rounding only, at double's tolerance.
    LIEDYN_CHECK_BELOW(liedyn::test::relative_error(M_walk, M_base),
                       liedyn::test::tolerance<double>());
  }
}

// ---------------------------------------------------------------------------------------------
// Textbook twins (algorithm/textbook.hpp): the fast kernels against RBDA's tables written with
// plain 6×6 matrices, on every family above, at random states (the gimbal-lock attitudes of
// test_states included) with random external wrenches; then the twins against identities and
// numbers that do not come from themselves.
namespace {

/// The largest relative differences, fast kernel vs twin, over the states of one family.
struct TwinErrors {
  double direct = 0;  ///< rnea, eidamb, bias/gravity/Coriolis terms, crba (both routes)
  double solve = 0;   ///< aba and immamb, through M⁻¹
  double cond = 0;    ///< κ₂(M) at the worst state
};

TwinErrors twin_errors(const Model<double>& model, std::mt19937& rng) {
  namespace tb = liedyn::textbook;
  TwinErrors e;
  Data<double> data(model);
  const int nv = model.nv();
  for (const State<double>& x : test_states<double>(model, rng)) {
    ExternalWrenches<double> fext(static_cast<std::size_t>(model.num_bodies()));
    for (Force<double>& f : fext) f = Force<double>(random_vec<double>(6, rng, -3, 3));
    const VectorX<double> ddq = random_vec<double>(nv, rng),
                          tau = random_vec<double>(nv, rng, -5, 5);
    auto direct = [&](const MatrixX<double>& fast, const MatrixX<double>& twin) {
      e.direct = std::max(e.direct, relative_error(fast, twin));
    };
    const VectorX<double> tau_twin = tb::rnea(model, x, ddq, &fext);
    direct(liedyn::rnea(model, data, x, ddq, &fext), tau_twin);
    direct(liedyn::eidamb(model, data, x, ddq, &fext), tau_twin);
    direct(liedyn::rnea(model, data, x, ddq), tb::rnea(model, x, ddq));
    direct(liedyn::bias_force(model, data, x, &fext), tb::bias_force(model, x, &fext));
    direct(liedyn::gravity_force(model, data, x), tb::gravity_force(model, x));
    direct(liedyn::coriolis_force(model, data, x), tb::coriolis_force(model, x));
    const MatrixX<double> M = tb::crba(model, x.s);
    direct(liedyn::crba(model, data, x.s, CrbaRoute::Walk), M);
    direct(liedyn::crba(model, data, x.s, CrbaRoute::BaseFrame), M);
    const Eigen::SelfAdjointEigenSolver<MatrixX<double>> es(M, Eigen::EigenvaluesOnly);
    e.cond = std::max(e.cond, es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff());
    auto solve = [&](const MatrixX<double>& fast, const MatrixX<double>& twin) {
      e.solve = std::max(e.solve, relative_error(fast, twin));
    };
    solve(liedyn::aba(model, data, x, tau, &fext), tb::aba(model, x, tau, &fext));
    solve(liedyn::immamb(model, data, x.s), tb::inverse_mass_matrix(model, x.s));
  }
  return e;
}

void check_twins(const std::string& name, const Model<double>& model, std::mt19937& rng) {
  const TwinErrors e = twin_errors(model, rng);
  INFO(name << " (nv " << model.nv() << ", kappa(M) " << e.cond << "): fast vs twin, direct "
            << e.direct << ", through M^-1 " << e.solve);
  // Direct kernels: the same sums of O(n·d) rounded products in other association orders and
  // frames; measured ≤ 5e-15 here (≤ 7e-15 at other seeds) on the 100-body trees, while a
  // convention error is O(1): 1e-12.
  LIEDYN_CHECK_BELOW(e.direct, 1e-12);
  // Through M⁻¹ (backward-stable solves on both sides): error O(ε κ(M)), measured 5.9e-12 at
  // κ = 2.4e7 here, ≤ 0.03 ε κ at other seeds: 10 ε κ(M) + 1e-12, as the tests above use.
  LIEDYN_CHECK_BELOW(e.solve, 10 * eps<double>() * e.cond + 1e-12);
}

}  // namespace

TEST_CASE("textbook twins: the fast kernels agree with RBDA's tables on every random family",
          "[dynamics][textbook]") {
  std::mt19937 rng(liedyn::test::default_seed + 45);
  check_twins("figure4", liedyn::figure4_model<double>(), rng);
  check_twins("random chain 10", liedyn::random_model<double>(10, rng), rng);
  RandomModelOptions o;
  o.branching = 3;
  check_twins("random tree 15", liedyn::random_model<double>(15, rng, o), rng);
  o = {};
  o.moving_base = false;
  o.armature = 0.1;
  check_twins("welded arm 8 with armature", liedyn::random_model<double>(8, rng, o), rng);
  o.branching = 3;
  check_twins("welded tree 12 with armature", liedyn::random_model<double>(12, rng, o), rng);
  o = {};
  o.axis_aligned = true;
  o.branching = 2;
  check_twins("axis-aligned tree 10", liedyn::random_model<double>(10, rng, o), rng);
  o.unrotated_placements = true;
  check_twins("axis-aligned tree 10, unrotated placements, mixed joints",
              liedyn::random_model<double>(10, rng, o), rng);
  o.revolute_only = true;
  check_twins("URDF-like tree 12 (aligned revolutes, unrotated placements)",
              liedyn::random_model<double>(12, rng, o), rng);
  o.moving_base = false;
  check_twins("welded URDF-like tree 12", liedyn::random_model<double>(12, rng, o), rng);
  o = {};
  check_twins("random chain 100", liedyn::random_model<double>(100, rng), rng);
  o.branching = 3;
  check_twins("random tree 100", liedyn::random_model<double>(100, rng, o), rng);
  o = {};
  o.branching = 10;
  o.armature = 0.05;
  check_twins("bushy tree 100 with armature", liedyn::random_model<double>(100, rng, o), rng);
  o = {};
  o.moving_base = false;
  check_twins("welded chain 50", liedyn::random_model<double>(50, rng, o), rng);
  o.branching = 4;
  check_twins("welded tree 60", liedyn::random_model<double>(60, rng, o), rng);
  // Spherical, free, planar and universal joints beside the screws: the twin's own X_J(q),
  // S(q) and c_J (joint_terms) against the joint files the fast kernels use.
  o = {};
  o.every_joint_type = true;
  o.branching = 3;
  check_twins("tree 21 of every joint type", liedyn::random_model<double>(21, rng, o), rng);
  o.moving_base = false;
  o.branching = 0;
  o.armature = 0.1;
  check_twins("welded chain 14 of every joint type with armature",
              liedyn::random_model<double>(14, rng, o), rng);
}

#ifdef LIEDYN_TEST_DYNAMICS_URDF
TEST_CASE("textbook twins: the fast kernels agree with RBDA's tables on the shipped robots",
          "[dynamics][textbook]") {
  std::mt19937 rng(liedyn::test::default_seed + 46);
  const std::string data_dir = LIEDYN_TEST_DATA_DIR;
  for (const std::string& path : {data_dir + "/../../examples/models/quadruped.urdf",
                                  data_dir + "/../../examples/models/humanoid.urdf",
                                  data_dir + "/solo12.urdf", data_dir + "/talos.urdf"})
    check_twins(path, liedyn::load_urdf_file(path), rng);
}
#endif

TEST_CASE("textbook twins: M qdd + h = tau, G + V = h and Minv M = I hold among the twins",
          "[dynamics][textbook]") {
  // Column k of the twin's crba against the twin's rnea for the unit acceleration e_k (minus
  // the bias): Table 6.2 against Table 5.1, two independent algorithms; Table 7.1 inverts 5.1.
  namespace tb = liedyn::textbook;
  std::mt19937 rng(liedyn::test::default_seed + 47);
  RandomModelOptions o;
  o.branching = 3;
  o.armature = 0.02;
  for (int variant = 0; variant < 4; ++variant) {
    const bool moving = variant % 2 == 0;
    o.moving_base = moving;
    o.every_joint_type = variant >= 2;  // spherical, free, planar and universal joints too
    const Model<double> model = liedyn::random_model<double>(14, rng, o);
    const int nv = model.nv();
    const State<double> x = liedyn::random_state(model, rng);
    ExternalWrenches<double> fext(static_cast<std::size_t>(model.num_bodies()));
    for (Force<double>& f : fext) f = Force<double>(random_vec<double>(6, rng, -3, 3));
    INFO((moving ? "moving" : "welded")
         << " base" << (o.every_joint_type ? ", every joint type" : ""));
    const MatrixX<double> M = tb::crba(model, x.s);
    const VectorX<double> h = tb::bias_force(model, x, &fext);
    MatrixX<double> cols(nv, nv);
    for (int k = 0; k < nv; ++k)
      cols.col(k) = tb::rnea(model, x, VectorX<double>(VectorX<double>::Unit(nv, k)), &fext) - h;
    // Tolerance: sums of well-scaled products in other orders (entries ~1e1): 1e-13 relative.
    LIEDYN_CHECK_BELOW(relative_error(M, cols), 1e-13);
    // Symmetric to rounding only: the twin forms I^c_0 as Σ Xᵀ I^c X, not one triangle.
    LIEDYN_CHECK_BELOW(relative_error(M, MatrixX<double>(M.transpose())), 1e-13);
    REQUIRE(Eigen::LLT<MatrixX<double>>(M).info() == Eigen::Success);
    const VectorX<double> ddq = random_vec<double>(nv, rng);
    LIEDYN_CHECK_BELOW(relative_error(VectorX<double>(M * ddq + h), tb::rnea(model, x, ddq, &fext)),
                       1e-13);
    const VectorX<double> h0 = tb::bias_force(model, x);
    const VectorX<double> GV = tb::gravity_force(model, x) + tb::coriolis_force(model, x);
    LIEDYN_CHECK_BELOW(relative_error(GV, h0), 1e-13);
    // Through M⁻¹ (κ(M) < 1e5 for these trees): 1e-10 relative.
    const VectorX<double> tau = random_vec<double>(nv, rng, -5, 5);
    LIEDYN_CHECK_BELOW(
        relative_error(tb::rnea(model, x, tb::aba(model, x, tau, &fext), &fext), tau), 1e-10);
    LIEDYN_CHECK_BELOW(relative_error(MatrixX<double>(tb::inverse_mass_matrix(model, x.s) * M),
                                      MatrixX<double>(MatrixX<double>::Identity(nv, nv))),
                       1e-10);
  }
}

TEST_CASE(
    "textbook twins: the figure-4 reference numbers and a single body's Newton-Euler equations",
    "[dynamics][textbook]") {
  // Numbers that do not come from liedyn: an independent numpy implementation of the paper's
  // tables (tests/data/fig4_like_case.json), and Newton and Euler about the centre of mass.
  namespace tb = liedyn::textbook;
  const liedyn::test::Fig4Case ref = liedyn::test::Fig4Case::load();
  const Model<double> model = liedyn::figure4_model<double>();
  const State<double> x = ref.state(model);
  const VectorX<double> ddq = ref.accelerations(model);
  // Tolerance: the same as the fast kernels' reference test — another implementation in double
  // printed with 17 digits, κ(M) ≈ 2e2: 1e-10 relative.
  const double tol = 1e-10;
  LIEDYN_CHECK_BELOW(relative_error(tb::rnea(model, x, ddq), ref.vector("tau_bar")), tol);
  LIEDYN_CHECK_BELOW(relative_error(tb::crba(model, x.s), ref.matrix("M")), tol);
  LIEDYN_CHECK_BELOW(relative_error(tb::bias_force(model, x), ref.vector("h")), tol);
  LIEDYN_CHECK_BELOW(relative_error(tb::inverse_mass_matrix(model, x.s), ref.matrix("Minv")), tol);
  LIEDYN_CHECK_BELOW(relative_error(tb::aba(model, x, ref.vector("u")), ref.vector("acc")), tol);

  // A lone free body, centre of mass off its origin, gravity on, an applied wrench.
  const double m = 2.5;
  const Vector3<double> c(0.1, -0.2, 0.05);
  Matrix3<double> Ic;
  Ic << 0.30, 0.02, -0.01, 0.02, 0.25, 0.03, -0.01, 0.03, 0.20;
  const Model<double> body =
      ModelBuilder<double>(liedyn::BaseType::Moving, "body",
                           SpatialInertia<double>::from_mass_com_inertia(m, c, Ic))
          .build();
  State<double> y(body);
  y.H = SE3<double>::exp(Vector6<double>(0.3, -0.1, 0.7, 0.4, -0.9, 1.2));
  y.nu << 0.5, -0.3, 0.8, 1.1, -0.7, 0.4;
  const Vector3<double> F(1.0, -2.0, 3.0), n_origin(0.4, 0.1, -0.3);
  VectorX<double> tau(6);
  tau << F, n_origin;
  const VectorX<double> acc = tb::aba(body, y, tau);
  const Vector3<double> vdot = acc.head<3>(), wdot = acc.tail<3>(), v = y.nu.head<3>(),
                        w = y.nu.tail<3>();
  const Vector3<double> a_c = vdot + wdot.cross(c) + w.cross(v + w.cross(c));
  // Tolerance: a handful of O(1) products: 1e-12 absolute.
  CHECK((m * a_c - (F + m * (y.H.rotation().transpose() * body.gravity()))).norm() < 1e-12);
  CHECK((Ic * wdot + w.cross(Ic * w) - (n_origin - c.cross(F))).norm() < 1e-12);
  LIEDYN_CHECK_BELOW(relative_error(tb::rnea(body, y, acc), tau), 1e-13);
}

}  // namespace LIEDYN_UNITY_ID
