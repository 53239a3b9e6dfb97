// Tests of include/liedyn/numdiff/: geometric finite differences on SE(3) × Rⁿ × R⁶ × Rⁿ, what
// the pose columns hold fixed, the error floors in double, long double and float128.
#include <catch2/catch.hpp>

#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/numdiff.hpp>
#include <liedyn/numdiff/float128.hpp>
#include <liedyn/testing/samples.hpp>

#include <cfloat>
#include <cmath>
#include <vector>

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace liedyn;
using liedyn::numdiff::DifferenceScheme;
using liedyn::numdiff::NumDiffOptions;
using liedyn::numdiff::StateBlock;
using liedyn::test::relative_error;

namespace {

constexpr TwistRepresentation kReps[3] = {TwistRepresentation::Body, TwistRepresentation::Inertial,
                                          TwistRepresentation::Mixed};

template <class S>
NumDiffOptions<S> options(DifferenceScheme scheme,
                          TwistRepresentation rep = TwistRepresentation::Body, S step = S(0)) {
  NumDiffOptions<S> opt;
  opt.scheme = scheme;
  opt.twist_representation = rep;
  opt.step = step;
  return opt;
}

/// A small branched robot: base ─R─ 1 ─H─ 2 ─P─ 3, base ─R─ 4 ─R─ 5, frame "tool" on 3, "foot"
/// on 5. Built in double; other scalars use .cast<S>() (rigid only to double precision: its
/// unit axes and rotations carry double's rounding, ≈ 1e-16, which is below long double's
/// finite-difference floor ≈ 1e-13 but not float128's ≈ 1e-23).
Model<double> native_model(BaseType base) {
  using S = double;
  auto X = [](double a, double b, double c, double d, double e, double f) {
    Vector6<S> xi;
    xi << S(a), S(b), S(c), S(d), S(e), S(f);
    return SE3<S>::exp(xi);
  };
  auto I = [](double m, double cx, double cy, double cz, double ix, double iy, double iz) {
    return SpatialInertia<S>::from_mass_com_inertia(
        S(m), Vector3<S>(S(cx), S(cy), S(cz)),
        Matrix3<S>(Vector3<S>(S(ix), S(iy), S(iz)).asDiagonal()));
  };
  ModelBuilder<S> b(base, "base", I(3.0, 0.1, -0.05, 0.02, 0.2, 0.25, 0.3));
  if (base == BaseType::Welded) b.set_welded_base_pose(X(0.3, -0.2, 0.5, 0.4, -0.7, 0.2));
  b.add_body("base", "l1",
             JointSpec<S>::revolute("j1", Vector3<S>(S(0.3), S(-0.5), S(0.8)),
                                    X(0.1, 0.2, 0.3, 0.5, 0.1, -0.4)),
             I(1.2, 0.0, 0.1, 0.0, 0.05, 0.06, 0.07));
  b.add_body("l1", "l2",
             JointSpec<S>::helical("j2", Vector3<S>(S(-0.2), S(0.9), S(0.1)), S(0.13),
                                   X(0.4, -0.1, 0.2, -0.3, 0.6, 0.2)),
             I(0.9, 0.05, 0.0, 0.1, 0.04, 0.05, 0.06));
  b.add_body("l2", "l3",
             JointSpec<S>::prismatic("j3", Vector3<S>(S(0.6), S(0.2), S(-0.7)),
                                     X(-0.2, 0.3, 0.1, 0.2, 0.2, 0.9)),
             I(0.7, 0.0, 0.0, 0.05, 0.03, 0.03, 0.04));
  b.add_body(
      "base", "l4",
      JointSpec<S>::revolute("j4", Vector3<S>(S(1), S(0), S(0)), X(-0.3, 0.1, -0.2, 0.0, 0.5, 0.0)),
      I(1.1, 0.1, 0.0, 0.0, 0.05, 0.05, 0.05));
  b.add_body("l4", "l5",
             JointSpec<S>::revolute("j5", Vector3<S>(S(0.1), S(0.1), S(1)),
                                    X(0.0, -0.4, 0.1, 0.7, -0.2, 0.3)),
             I(0.6, 0.0, 0.05, 0.0, 0.02, 0.03, 0.02));
  b.add_frame("tool", "l3", X(0.1, 0.0, 0.2, 0.3, -0.4, 0.5));
  b.add_frame("foot", "l5", X(0.0, 0.3, -0.1, -0.6, 0.2, 0.1));
  return b.build();
}

/// A fixed state for native_model (exactly representable numbers, so every scalar sees the same).
template <class S>
State<S> native_state(const Model<S>& model) {
  State<S> x(model);
  if (model.has_moving_base()) {
    Vector6<S> xi;
    xi << S(0.5), S(-0.25), S(0.75), S(1.25), S(-0.5), S(2.0);
    x.H = SE3<S>::exp(xi);
    x.nu << S(0.5), S(-1.0), S(0.25), S(0.75), S(-0.5), S(1.0);
  }
  for (int i = 0; i < model.num_joints(); ++i) {
    x.s[i] = S(0.375) * S(i + 1) - S(1);
    x.r[i] = S(0.625) - S(0.25) * S(i);
  }
  return x;
}

/// log(H̄⁻¹ ^A H_F(x)) for frame f, with H̄ = H_F(x̄) exp(−ξ₀^) a fixed reference off the frame's
/// pose at x̄. Its derivative at x̄ w.r.t. (η, s) is Jr⁻¹(ξ₀) times the frame's body Jacobian,
/// and zero w.r.t. the velocities. (With ξ₀ = 0 the function would be exactly linear along
/// every coordinate — log(exp(t ξ)) = t ξ — and finite differences would show no truncation
/// error at all.)
template <class S>
struct FrameLog {
  const Model<S>* model;
  int frame;
  SE3<S> H_ref;
  Vector6<S> operator()(const State<S>& x) const {
    Data<S> data(*model);
    forward_poses(*model, data, x);
    return H_ref.inverse_times(frame_pose(*model, data, frame)).log();
  }
};

template <class S>
Vector6<S> reference_offset() {
  Vector6<S> xi0;
  xi0 << S(0.25), S(-0.5), S(0.375), S(-0.625), S(0.75), S(0.5);
  return xi0;
}

template <class S>
FrameLog<S> frame_log(const Model<S>& model, int frame, const State<S>& x_ref) {
  Data<S> data(model);
  forward_poses(model, data, x_ref);
  return FrameLog<S>{
      &model, frame,
      frame_pose(model, data, frame) * SE3<S>::exp(Vector6<S>(-reference_offset<S>()))};
}

/// The analytic (η, s) Jacobian of FrameLog at x: Jr⁻¹(ξ₀) J_body (6 × nv).
template <class S>
MatrixX<S> frame_log_jacobian(const Model<S>& model, const State<S>& x, int frame) {
  Data<S> data(model);
  Matrix6X<S> J(6, model.nv());
  frame_jacobian(model, data, x, frame, TwistRepresentation::Body, J);
  return SE3<S>::right_jacobian_inverse(reference_offset<S>()) * J;
}

/// relative_error computed in S itself (test_support's goes through long double, which would
/// hide float128's digits): ‖A − B‖_max / max(1, ‖B‖_max), NaN → +inf.
template <class S>
double relative_error_in(const MatrixX<S>& A, const MatrixX<S>& B) {
  if (A.rows() != B.rows() || A.cols() != B.cols()) return std::numeric_limits<double>::infinity();
  const S diff = (A - B).cwiseAbs().maxCoeff(), ref = B.cwiseAbs().maxCoeff();
  const double e = static_cast<double>(S(diff / (ref > S(1) ? ref : S(1))));
  return e == e ? e : std::numeric_limits<double>::infinity();
}

/// Max relative error over the (η, s) columns of numdiff of FrameLog against the analytic body
/// Jacobian, for one base step.
template <class S>
double frame_log_error(const Model<S>& model, const State<S>& x, int frame, DifferenceScheme scheme,
                       S step) {
  const MatrixX<S> J = frame_log_jacobian(model, x, frame);
  const FrameLog<S> f = frame_log(model, frame, x);
  const NumDiffOptions<S> opt = options<S>(scheme, TwistRepresentation::Body, step);
  double err = 0;
  if (model.has_moving_base())
    err = relative_error_in<S>(numdiff::jacobian_wrt_pose(model, f, x, opt),
                               MatrixX<S>(J.leftCols(6)));
  err = std::max(err, relative_error_in<S>(numdiff::jacobian_wrt_joint_positions(model, f, x, opt),
                                           MatrixX<S>(J.rightCols(model.num_joints()))));
  return err;
}

/// The bottom of the error "V": min over steps 10^-1 … 10^-max_exp of frame_log_error.
template <class S>
double error_floor(DifferenceScheme scheme, int max_exp) {
  const Model<S> model = native_model(BaseType::Moving).cast<S>();
  const State<S> x = native_state(model);
  const int frame = model.frame_id("tool");
  double best = 1e300;
  for (int e = 1; e <= max_exp; ++e) {
    using std::pow;
    const S step = S(pow(S(10), S(-e)));
    best = std::min(best, frame_log_error(model, x, frame, scheme, step));
  }
  return best;
}

/// The bottom of the error V for the pose columns of f(x) = log(H̄⁻¹ H), H̄ = H exp(−ξ₀^), whose
/// exact derivative is Jr⁻¹(ξ₀) — for steps 10^-1 … 10^-max_exp.
template <class S>
double pose_log_floor(int max_exp) {
  const Model<S> model = native_model(BaseType::Moving).cast<S>();
  const State<S> x = native_state(model);
  const Vector6<S> xi0 = reference_offset<S>();
  const SE3<S> H_ref = x.H * SE3<S>::exp(Vector6<S>(-xi0));
  auto f = [&](const State<S>& y) { return H_ref.inverse_times(y.H).log(); };
  const MatrixX<S> expected = SE3<S>::right_jacobian_inverse(xi0);
  double best = 1e300;
  for (int e = 1; e <= max_exp; ++e) {
    using std::pow;
    const S step = S(pow(S(10), S(-e)));
    const NumDiffOptions<S> opt =
        options<S>(DifferenceScheme::Central, TwistRepresentation::Body, step);
    best = std::min(best,
                    relative_error_in<S>(numdiff::jacobian_wrt_pose(model, f, x, opt), expected));
  }
  return best;
}

}  // namespace

TEST_CASE("numdiff: the base pose's log has derivative Jr inverse", "[numdiff]") {
  const Model<double> model = figure4_model<double>();
  const int n = model.num_joints();
  std::mt19937 gen = test::make_rng(21);
  for (int trial = 0; trial < 3; ++trial) {
    const State<double> x = random_state(model, gen);
    const Vector6<double> xi = test::random_twist<double>(gen, 2.0);
    const SE3<double> H_ref = x.H * SE3<double>::exp(Vector6<double>(-xi));
    auto f = [&](const State<double>& y) { return H_ref.inverse_times(y.H).log(); };
    // log(H̄⁻¹ H exp(η^)) = ξ + Jr⁻¹(ξ) η + O(η²); nothing else moves it.
    Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(6, tangent_size(model));
    expected.leftCols(6) = SE3<double>::right_jacobian_inverse(xi);
    for (TwistRepresentation rep : kReps) {
      const Eigen::MatrixXd Jc =
          numdiff::state_jacobian(model, f, x, options<double>(DifferenceScheme::Central, rep));
      const Eigen::MatrixXd Jf =
          numdiff::state_jacobian(model, f, x, options<double>(DifferenceScheme::Forward, rep));
      REQUIRE(Jc.rows() == 6);
      REQUIRE(Jc.cols() == 12 + 2 * n);
      // Tolerance, central: bottom of the V, ε^(2/3) ≈ 4e-11 times third derivatives of O(10).
      CHECK(relative_error(Jc, expected) < 1e-9);
      // Tolerance, forward: ε^(1/2) ≈ 1.5e-8 times second derivatives of O(10).
      CHECK(relative_error(Jf, expected) < 1e-6);
      // And the forward scheme is really worse than the central one (both can fail).
      CHECK(relative_error(Jc, expected) < relative_error(Jf, expected));
    }
  }
}

TEST_CASE("numdiff: what the pose columns hold fixed", "[numdiff][representation]") {
  const Model<double> model = native_model(BaseType::Moving);
  Data<double> data(model);
  std::mt19937 gen = test::make_rng(22);
  const State<double> x = random_state(model, gen);
  const SE3<double>& H = x.H;
  const Matrix6<double> AdH = H.velocity_transform();
  const Matrix3<double>& R = H.rotation();
  // f(x) = w = ^A X_0 ν, the inertial base twist.
  auto w_of = [](const State<double>& y) {
    return base_twist_from_body(y.H, y.nu, TwistRepresentation::Inertial);
  };
  // Tolerance: central differences of smooth functions with O(1) derivatives: ≈ 1e-10.
  const double tol = 1e-9;
  {  // Body: ν held fixed. w(H exp(η)) = Ad_H Ad_exp(η) ν ⇒ ∂w/∂η = −Ad_H ad_ν, ∂w/∂ν = Ad_H.
    const NumDiffOptions<double> opt =
        options<double>(DifferenceScheme::Central, TwistRepresentation::Body);
    CHECK(relative_error(numdiff::jacobian_wrt_pose(model, w_of, x, opt),
                         Eigen::MatrixXd(-AdH * ad(x.nu))) < tol);
    CHECK(relative_error(numdiff::jacobian_wrt_twist(model, w_of, x, opt), Eigen::MatrixXd(AdH)) <
          tol);
  }
  {  // Inertial: w held fixed ⇒ ∂w/∂η = 0, ∂w/∂w = I.
    const NumDiffOptions<double> opt =
        options<double>(DifferenceScheme::Central, TwistRepresentation::Inertial);
    CHECK(relative_error(numdiff::jacobian_wrt_pose(model, w_of, x, opt),
                         Eigen::MatrixXd::Zero(6, 6)) < tol);
    CHECK(relative_error(numdiff::jacobian_wrt_twist(model, w_of, x, opt),
                         Eigen::MatrixXd::Identity(6, 6)) < tol);
  }
  {  // Mixed: m = [ȯ; ω] held fixed, w = [ȯ + o × ω; ω], o(η) = o + R ρ + O(η²)
     // ⇒ ∂w/∂η = [−ω^ R, 0; 0, 0], ∂w/∂m = [I, o^; 0, I].
    const NumDiffOptions<double> opt =
        options<double>(DifferenceScheme::Central, TwistRepresentation::Mixed);
    const Vector3<double> omega = R * x.nu.tail<3>();
    Matrix6<double> D1 = Matrix6<double>::Zero(), D3 = Matrix6<double>::Identity();
    D1.topLeftCorner<3, 3>() = -hat(omega) * R;
    D3.topRightCorner<3, 3>() = hat(H.translation());
    CHECK(relative_error(numdiff::jacobian_wrt_pose(model, w_of, x, opt), Eigen::MatrixXd(D1)) <
          tol);
    CHECK(relative_error(numdiff::jacobian_wrt_twist(model, w_of, x, opt), Eigen::MatrixXd(D3)) <
          tol);
  }
  // For any function: ∂f/∂η|ν = ∂f/∂η|w + ∂f/∂w · ∂w/∂η|ν (chain rule; docs/conventions.md §3:
  // D1ν = D1 − D3 ad_ν in the body-twist form). A nonlinear f of (H, s, ν, r): the mixed
  // acceleration bias of a frame.
  const int tool = model.frame_id("tool");
  auto bias = [&](const State<double>& y) {
    Data<double> d(model);
    return frame_acceleration_bias(model, d, y, tool, TwistRepresentation::Mixed);
  };
  const Eigen::MatrixXd D1nu =
      numdiff::jacobian_wrt_pose(model, bias, x, options<double>(DifferenceScheme::Central));
  const NumDiffOptions<double> inertial =
      options<double>(DifferenceScheme::Central, TwistRepresentation::Inertial);
  const Eigen::MatrixXd D1w = numdiff::jacobian_wrt_pose(model, bias, x, inertial);
  const Eigen::MatrixXd D3w = numdiff::jacobian_wrt_twist(model, bias, x, inertial);
  const Eigen::MatrixXd D3nu =
      numdiff::jacobian_wrt_twist(model, bias, x, options<double>(DifferenceScheme::Central));
  // Tolerance: each of the three numerical blocks is good to ≈ 1e-10 (entries O(1–10)).
  CHECK(relative_error(D1nu, Eigen::MatrixXd(D1w - D3w * AdH * ad(x.nu))) < 1e-8);
  CHECK(relative_error(D3w, Eigen::MatrixXd(D3nu * H.inverse().velocity_transform())) < 1e-8);
  // They really differ: the test would catch a pose column that ignores the representation.
  CHECK(relative_error(D1nu, D1w) > 1e-3);
}

TEST_CASE("numdiff: frame pose and twist derivatives equal the analytic frame Jacobian",
          "[numdiff][kinematics]") {
  std::mt19937 gen = test::make_rng(23);
  RandomModelOptions welded;
  welded.moving_base = false;
  welded.branching = 2;
  const std::vector<Model<double>> models = {
      native_model(BaseType::Moving), figure4_model<double>(), native_model(BaseType::Welded),
      random_model(6, gen, welded)};
  for (const Model<double>& model : models) {
    Data<double> data(model);
    const int nv = model.nv(), n = model.num_joints(), off = model.offset();
    const State<double> x = random_state(model, gen);
    for (int f = 0; f < static_cast<int>(model.frames().size()); ++f) {
      INFO("frame " << model.frame(f).name << ", nv " << nv);
      // Position level: (η, s) columns of log(H̄⁻¹ H_F(x)) are Jr⁻¹(ξ₀) times the body Jacobian.
      const Eigen::MatrixXd Jb = frame_log_jacobian(model, x, f);
      const FrameLog<double> flog = frame_log(model, f, x);
      for (DifferenceScheme scheme : {DifferenceScheme::Central, DifferenceScheme::Forward}) {
        const Eigen::MatrixXd N = numdiff::state_jacobian(model, flog, x, options<double>(scheme));
        REQUIRE(N.cols() == 2 * nv);
        Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(6, 2 * nv);
        expected.leftCols(nv) = Jb;
        // Tolerance: central ε^(2/3), forward ε^(1/2), times derivatives of O(1–10).
        CHECK(relative_error(N, expected) < (scheme == DifferenceScheme::Central ? 1e-9 : 1e-6));
      }
      // Velocity level: the twist is linear in [ν; r], so central differences are exact up to
      // round-off; in each numdiff representation the twist columns are J's base columns
      // times d ν / d twist.
      for (TwistRepresentation rep : kReps) {
        Matrix6X<double> J(6, nv);
        frame_jacobian(model, data, x, f, rep, J);
        auto vel = [&](const State<double>& y) {
          Data<double> d(model);
          return frame_velocity(model, d, y, f, rep);
        };
        for (TwistRepresentation nd_rep : kReps) {
          const NumDiffOptions<double> opt = options<double>(DifferenceScheme::Central, nd_rep);
          // Tolerance: round-off ε |v| / δ ≈ 2e-16 · 10 / 6e-6 ≈ 4e-10.
          CHECK(relative_error(numdiff::jacobian_wrt_joint_velocities(model, vel, x, opt),
                               Eigen::MatrixXd(J.rightCols(n))) < 1e-9);
          const Eigen::MatrixXd Jt = numdiff::jacobian_wrt_twist(model, vel, x, opt);
          if (!model.has_moving_base()) {
            CHECK(Jt.cols() == 0);
            CHECK(Jt.rows() == 6);
            continue;
          }
          Matrix6<double> dnu_dt = Matrix6<double>::Identity();  // ν = dnu_dt · twist
          for (int k = 0; k < 6; ++k)
            dnu_dt.col(k) =
                base_twist_to_body(x.H, Vector6<double>(Vector6<double>::Unit(k)), nd_rep);
          CHECK(relative_error(Jt, Eigen::MatrixXd(J.leftCols(6) * dnu_dt)) < 1e-9);
        }
      }
      (void)off;
    }
  }
}

TEST_CASE("numdiff: blocks, options and output shapes", "[numdiff][api]") {
  const Model<double> model = native_model(BaseType::Moving);
  const Model<double> welded = native_model(BaseType::Welded);
  const State<double> x = native_state(model), xw = native_state(welded);
  const int n = model.num_joints();
  // A function of everything, returning a 2 × 3 matrix (flattened column-major to m = 6).
  auto f = [&](const State<double>& y) {
    Eigen::Matrix<double, 2, 3> m;
    m << y.H.translation().transpose(), y.s.head<2>().transpose() * y.nu(5), y.r(0) * y.r(1);
    return m;
  };
  for (DifferenceScheme scheme : {DifferenceScheme::Central, DifferenceScheme::Forward}) {
    const NumDiffOptions<double> opt = options<double>(scheme, TwistRepresentation::Mixed);
    const Eigen::MatrixXd J = numdiff::state_jacobian(model, f, x, opt);
    REQUIRE(J.rows() == 6);
    REQUIRE(J.cols() == tangent_size(model));
    CHECK(relative_error(numdiff::jacobian_wrt_pose(model, f, x, opt),
                         Eigen::MatrixXd(J.middleCols(0, 6))) == 0);
    CHECK(relative_error(numdiff::jacobian_wrt_joint_positions(model, f, x, opt),
                         Eigen::MatrixXd(J.middleCols(6, n))) == 0);
    CHECK(relative_error(numdiff::jacobian_wrt_twist(model, f, x, opt),
                         Eigen::MatrixXd(J.middleCols(6 + n, 6))) == 0);
    CHECK(relative_error(numdiff::jacobian_wrt_joint_velocities(model, f, x, opt),
                         Eigen::MatrixXd(J.middleCols(12 + n, n))) == 0);
    const Eigen::MatrixXd Jw = numdiff::state_jacobian(welded, f, xw, opt);
    REQUIRE(Jw.cols() == 2 * n);
    CHECK(numdiff::state_jacobian_block(welded, f, xw, StateBlock::Pose, opt).cols() == 0);
    CHECK(numdiff::state_jacobian_block(welded, f, xw, StateBlock::Pose, opt).rows() == 6);
    CHECK(relative_error(
              numdiff::state_jacobian_block(welded, f, xw, StateBlock::JointVelocities, opt),
              Eigen::MatrixXd(Jw.rightCols(n))) == 0);
    // ∂(r₀ r₁)/∂r = [r₁, r₀, 0, ...] (row 5 of the flattened 2 × 3 matrix).
    Eigen::RowVectorXd expected = Eigen::RowVectorXd::Zero(n);
    expected(0) = x.r(1);
    expected(1) = x.r(0);
    // Tolerance: a bilinear function: central exact up to round-off, forward off by δ.
    CHECK(relative_error(Eigen::MatrixXd(J.block(5, 12 + n, 1, n)), Eigen::MatrixXd(expected)) <
          (scheme == DifferenceScheme::Central ? 1e-10 : 1e-7));
  }
  // A scalar-valued function gives one row.
  auto g = [](const State<double>& y) { return y.s.squaredNorm(); };
  const Eigen::MatrixXd Jg = numdiff::state_jacobian(model, g, x);
  REQUIRE(Jg.rows() == 1);
  // Tolerance: a quadratic: central exact up to round-off ε|s|²/δ.
  CHECK(relative_error(Eigen::MatrixXd(Jg.middleCols(6, n)),
                       Eigen::MatrixXd((2 * x.s).transpose())) < 1e-9);
  // Default steps.
  CHECK(numdiff::default_step<double>(DifferenceScheme::Central) ==
        Approx(std::cbrt(DBL_EPSILON)).epsilon(1e-12));
  CHECK(numdiff::default_step<double>(DifferenceScheme::Forward) ==
        Approx(std::sqrt(DBL_EPSILON)).epsilon(1e-12));
  CHECK_THROWS_AS(numdiff::state_jacobian(model, g, State<double>()), std::invalid_argument);
}

TEST_CASE("numdiff: vector_jacobian of a function of a plain vector", "[numdiff][vector]") {
  auto f = [](const Eigen::VectorXd& u) {
    Eigen::Vector3d y;
    y << std::sin(u(0)) * u(1), std::exp(u(2)) + u(0) * u(0), u(0) * u(1) * u(2);
    return y;
  };
  const Eigen::Vector3d u(0.3, -1.2, 0.5);
  Eigen::Matrix3d expected;
  expected << std::cos(u(0)) * u(1), std::sin(u(0)), 0,  //
      2 * u(0), 0, std::exp(u(2)),                       //
      u(1) * u(2), u(0) * u(2), u(0) * u(1);
  const Eigen::MatrixXd Jc = numdiff::vector_jacobian(f, u);
  const Eigen::MatrixXd Jf =
      numdiff::vector_jacobian(f, u, options<double>(DifferenceScheme::Forward));
  // Tolerances: central ε^(2/3) ≈ 4e-11, forward ε^(1/2) ≈ 1.5e-8, times derivatives O(1).
  CHECK(relative_error(Jc, expected) < 1e-9);
  CHECK(relative_error(Jf, expected) < 1e-6);
  // A row-vector expression as input, a scalar as output.
  const Eigen::RowVector3d ur = u.transpose();
  const Eigen::MatrixXd Js =
      numdiff::vector_jacobian([](const Eigen::VectorXd& v) { return v.prod(); }, ur);
  REQUIRE(Js.rows() == 1);
  CHECK(relative_error(Js, Eigen::MatrixXd(expected.row(2))) < 1e-9);
  // Large coordinates: the relative step keeps the error relative (δ·|u| instead of δ).
  const Eigen::Vector2d big(3e4, -2e4);
  auto q = [](const Eigen::VectorXd& v) {
    return Eigen::Vector2d(v(0) * v(0) * v(1), std::cos(v(1) / 1e4));
  };
  Eigen::Matrix2d expected_q;
  expected_q << 2 * big(0) * big(1), big(0) * big(0), 0, -std::sin(big(1) / 1e4) / 1e4;
  const Eigen::MatrixXd Jq = numdiff::vector_jacobian(q, big);
  // Tolerance: relative to the largest entry (|∂f/∂u| ≈ 1e9): ε^(2/3) scale.
  CHECK(relative_error(Jq, expected_q) < 1e-9);
}

TEST_CASE("numdiff: long double lowers the error floor of double", "[numdiff][precision]") {
  // The bottom of the V of central differences sits at ≈ ε^(2/3): 3.7e-11 (double) and
  // 2.3e-13 (x87 long double), a ratio of (2048)^(2/3) ≈ 160; forward ones at ε^(1/2), ≈ 45×.
  if (std::numeric_limits<long double>::digits < 64) {
    WARN("long double is double here: nothing to show");
    return;
  }
  const double d_central = error_floor<double>(DifferenceScheme::Central, 12);
  const double ld_central = error_floor<long double>(DifferenceScheme::Central, 12);
  const double d_forward = error_floor<double>(DifferenceScheme::Forward, 12);
  const double ld_forward = error_floor<long double>(DifferenceScheme::Forward, 14);
  INFO("central floors: double " << d_central << ", long double " << ld_central);
  INFO("forward floors: double " << d_forward << ", long double " << ld_forward);
  // Tolerances: the theoretical ratios with a factor ≈ 3 of head-room for the step grid (one
  // decade per step) and the constants of the truncation and round-off terms.
  CHECK(ld_central < d_central / 50);
  CHECK(ld_forward < d_forward / 15);
  // And the absolute floors are where the V analysis puts them (entries O(1), derivatives O(10)).
  CHECK(d_central < 1e-9);
  CHECK(ld_central < 1e-11);
  // In the round-off regime (a tiny step, δ = 1e-10) the error is ≈ ε/δ: 2048× lower.
  const Model<double> m_d = native_model(BaseType::Moving);
  const Model<long double> m_ld = m_d.cast<long double>();
  const int tool = m_d.frame_id("tool");
  const double e_d =
      frame_log_error(m_d, native_state(m_d), tool, DifferenceScheme::Central, 1e-10);
  const double e_ld =
      frame_log_error(m_ld, native_state(m_ld), tool, DifferenceScheme::Central, 1e-10L);
  INFO("round-off regime (step 1e-10): double " << e_d << ", long double " << e_ld);
  CHECK(e_ld < e_d / 300);
}

#ifdef LIEDYN_HAS_FLOAT128
TEST_CASE("numdiff: float128 pushes the floor far below long double",
          "[numdiff][precision][float128]") {
  using Q = float128;
  // SE(3) in float128: exp/log round trip at its own precision.
  Vector6<Q> xi;
  xi << Q(0.5), Q(-0.25), Q(0.75), Q(1.25), Q(-0.5), Q(2.0);
  const Vector6<Q> back = SE3<Q>::exp(xi).log();
  // Tolerance: a few hundred ε of binary128 (ε ≈ 1.9e-34).
  CHECK(static_cast<double>(Q((back - xi).cwiseAbs().maxCoeff())) < 1e-31);
  // The state_jacobian of f(x) = log(H̄⁻¹ H), H̄ = H exp(−ξ₀^), is [Jr⁻¹(ξ₀), 0]: its floor in
  // float128, long double and double. (A function of the pose only: the model, cast from
  // double, is rigid only to 1e-16 — see native_model — which would hide float128's floor.)
  const double q = pose_log_floor<Q>(22), ld = pose_log_floor<long double>(12),
               d = pose_log_floor<double>(10);
  INFO("central floors of log(H_ref^-1 H): float128 " << q << ", long double " << ld << ", double "
                                                      << d);
  // Tolerance: theory ε^(2/3) ≈ 3e-23 (float128), 2e-13 (long double), 4e-11 (double), times
  // derivatives of O(1); 1e-20 leaves a factor ≈ 300 for the step grid; a stray rounding to
  // double or long double anywhere would sit at ≥ 1e-19.
  CHECK(q < 1e-20);
  CHECK(q < ld / 1e6);
  CHECK(ld < d / 50);
}
#endif

}  // namespace LIEDYN_UNITY_ID
