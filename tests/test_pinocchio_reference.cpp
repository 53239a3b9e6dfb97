// liedyn tests — the strongest external check: Pinocchio 3.7's numbers for two real robots
// (tests/data/{solo12,talos}.seed{1,2}.txt, format in tests/data/README.pinocchio.md),
// reproduced by loading the same URDFs with liedyn's loader, converting Pinocchio's q, v, a,
// tau into our state with the interop converters (joint order mapped by name), running our
// kernels and converting the outputs back to Pinocchio's layout:
//   τ        rnea and eidamb at (q, v, a)                      vs  vec rnea
//   h, G     bias_force, gravity_force                         vs  vec nle, vec gravity_torque
//   M        crba, and eidamb_derivatives' M                   vs  mat crba, mat dtau_da
//   q̈        aba at (q, v, tau)                                vs  vec aba
//   M⁻¹      immamb, and linearize's M⁻¹                        vs  mat Minv, mat dddq_dtau
//   ∂τ/∂q, ∂τ/∂v   eidamb_derivatives (Body) at a              vs  mat dtau_dq, dtau_dv
//   ∂q̈/∂q, ∂q̈/∂v   linearize (Body) at tau: bottom rows of A   vs  mat dddq_dq, dddq_dv
//   poses    forward_poses                                     vs  oMi
// Every comparison: ‖ours − theirs‖_max / max(1, ‖theirs‖_max) < 1e-9, i.e. relative to the
// matrix (max) norm — Talos' M⁻¹ reaches 1e5 (light grippers), so entrywise relative errors of
// its small entries carry the conditioning, not our error. Pinocchio's own consistency checks in
// the same files are ~1e-13 relative; 1e-9 leaves four orders for the two libraries' different
// operation orders while catching any convention slip (those are O(1e-2) and up).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/crba.hpp>
#include <liedyn/algorithm/eidamb.hpp>
#include <liedyn/algorithm/eidamb_derivatives.hpp>
#include <liedyn/algorithm/immamb.hpp>
#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/algorithm/linearization.hpp>
#include <liedyn/algorithm/rnea.hpp>
#include <liedyn/interop/all.hpp>
#include <liedyn/model/urdf.hpp>

#include "support/pinocchio_dump.hpp"
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using liedyn::Data;
using liedyn::MatrixX;
using liedyn::Model;
using liedyn::SE3;
using liedyn::State;
using liedyn::TwistRepresentation;
using liedyn::VectorX;
using liedyn::interop::JointPermutation;
using liedyn::interop::Library;
using liedyn::test::relative_error;

namespace {

const std::string kData = LIEDYN_TEST_DATA_DIR;

/// Relative to the matrix (max) norm, see the header; the one tolerance of this file.
constexpr double kTol = 1e-9;

struct Case {
  const char* robot;
  const char* dump;
};
const Case kCases[] = {{"solo12", "solo12.seed1.txt"},
                       {"solo12", "solo12.seed2.txt"},
                       {"talos", "talos.seed1.txt"},
                       {"talos", "talos.seed2.txt"}};

/// Records the worst error of each quantity per robot, for the summary lines.
struct Worst {
  std::string robot;
  std::map<std::string, double> err;
  double check(const std::string& what, double e) {
    double& w = err[robot + ": " + what];
    w = std::max(w, e);
    return e;
  }
};

}  // namespace

TEST_CASE("Pinocchio reference: the joint orders and the state conversion",
          "[pinocchio][interop]") {
  for (const Case& c : kCases) {
    INFO(c.dump);
    const Model<double> model = liedyn::load_urdf_file(kData + "/" + c.robot + ".urdf");
    const liedyn::test::PinocchioDump d = liedyn::test::read_pinocchio_dump(kData + "/" + c.dump);
    REQUIRE(d.nv == model.nv());
    REQUIRE(d.nq == model.nv() + 1);
    CHECK(d.gravity.isApprox(model.gravity(), 0.0));  // same physical g, exactly
    const JointPermutation perm = JointPermutation::from_names(model, d.joint_names);
    WARN(c.dump << ": Pinocchio's joint order "
                << (perm.is_identity() ? "equals ours" : "differs from ours"));
    // Every Pinocchio joint of these robots is an axis-aligned revolute joint.
    for (const std::string& t : d.joint_types)
      CHECK((t == "JointModelRX" || t == "JointModelRY" || t == "JointModelRZ"));

    const VectorX<double>& q = d.vec("q");
    const VectorX<double>& v = d.vec("v");
    const State<double> x = liedyn::interop::state_from(Library::Pinocchio, model, q, v, perm);
    // Back to Pinocchio's vectors (its quaternion may have w < 0: compare up to sign).
    VectorX<double> q_back = liedyn::interop::configuration_to(Library::Pinocchio, model, x, perm);
    if (q(6) < 0) q_back.segment<4>(3) *= -1.0;
    // Round-trip of a unit quaternion through a rotation matrix: a few ulps.
    CHECK(relative_error(q_back, q) < 1e-14);
    CHECK(liedyn::interop::velocity_to(Library::Pinocchio, model, x, perm) == v);

    // Forward kinematics: our body poses are Pinocchio's joint frames (oMi), base = joint 1.
    Data<double> data(model);
    liedyn::forward_poses(model, data, x);
    double worst = relative_error(data.kinematics.H_world[0].matrix(), d.oMi.at(1).matrix());
    for (std::size_t k = 0; k < d.joint_names.size(); ++k) {
      const int body = model.joint_id(d.joint_names[k]);
      worst = std::max(worst, relative_error(data.kinematics.H_world[body].matrix(),
                                             d.oMi.at(d.joint_index[k]).matrix()));
    }
    CHECK(worst < kTol);
  }
}

TEST_CASE(
    "Pinocchio reference: inverse dynamics, mass matrix, forward dynamics, inverse mass matrix",
    "[pinocchio][interop]") {
  Worst worst;
  for (const Case& c : kCases) {
    INFO(c.dump);
    worst.robot = c.robot;
    const Model<double> model = liedyn::load_urdf_file(kData + "/" + c.robot + ".urdf");
    const liedyn::test::PinocchioDump d = liedyn::test::read_pinocchio_dump(kData + "/" + c.dump);
    const JointPermutation perm = JointPermutation::from_names(model, d.joint_names);
    const State<double> x =
        liedyn::interop::state_from(Library::Pinocchio, model, d.vec("q"), d.vec("v"), perm);
    const VectorX<double> ddq =
        liedyn::interop::acceleration_from(Library::Pinocchio, model, x, d.vec("a"), perm);
    const VectorX<double> tau_in =
        liedyn::interop::force_from(Library::Pinocchio, model, x.H, d.vec("tau"), perm);
    Data<double> data(model);
    auto pin_vec = [&](const VectorX<double>& ours) {
      return liedyn::interop::force_to(Library::Pinocchio, model, x.H, ours, perm);
    };
    auto pin_mat = [&](const MatrixX<double>& ours) {
      return liedyn::interop::matrix_to(Library::Pinocchio, model, x.H, ours, perm);
    };

    // τ = rnea(q, v, a): two independent routes of ours.
    const VectorX<double> tau_rnea = pin_vec(liedyn::rnea(model, data, x, ddq));
    CHECK(worst.check("tau (rnea)", relative_error(tau_rnea, d.vec("rnea"))) < kTol);
    const VectorX<double> tau_eidamb = pin_vec(liedyn::eidamb(model, data, x, ddq));
    CHECK(worst.check("tau (eidamb)", relative_error(tau_eidamb, d.vec("rnea"))) < kTol);
    // h and its gravity part.
    CHECK(worst.check("nle", relative_error(pin_vec(liedyn::bias_force(model, data, x)),
                                            d.vec("nle"))) < kTol);
    CHECK(worst.check("gravity", relative_error(pin_vec(liedyn::gravity_force(model, data, x)),
                                                d.vec("gravity_torque"))) < kTol);

    // M.
    // solo12 (Σ depth = 2 n) and talos (6.4 n) take crba's walk route; the base-frame route,
    // for deep trees, is held to the same reference.
    CHECK(liedyn::crba_automatic_route(model) == liedyn::CrbaRoute::Walk);
    const MatrixX<double> M = pin_mat(liedyn::crba(model, data, x.s));
    CHECK(worst.check("M (crba)", relative_error(M, d.mat("crba"))) < kTol);
    const MatrixX<double> M_base =
        pin_mat(liedyn::crba(model, data, x.s, liedyn::CrbaRoute::BaseFrame));
    CHECK(worst.check("M (crba, base-frame route)", relative_error(M_base, d.mat("crba"))) < kTol);

    // q̈ = aba(q, v, tau).
    const VectorX<double> qdd = liedyn::interop::acceleration_to(
        Library::Pinocchio, model, x, liedyn::aba(model, data, x, tau_in), perm);
    CHECK(worst.check("ddq (aba)", relative_error(qdd, d.vec("aba"))) < kTol);

    // M⁻¹.
    const MatrixX<double> Minv = pin_mat(liedyn::immamb(model, data, x.s));
    CHECK(worst.check("Minv (immamb)", relative_error(Minv, d.mat("Minv"))) < kTol);
  }
  for (const auto& e : worst.err)
    WARN("Pinocchio reference, worst relative error of " << e.first << ": " << e.second);
}

TEST_CASE("Pinocchio reference: derivatives of inverse and forward dynamics",
          "[pinocchio][interop]") {
  Worst worst;
  for (const Case& c : kCases) {
    INFO(c.dump);
    worst.robot = c.robot;
    const Model<double> model = liedyn::load_urdf_file(kData + "/" + c.robot + ".urdf");
    const liedyn::test::PinocchioDump d = liedyn::test::read_pinocchio_dump(kData + "/" + c.dump);
    const JointPermutation perm = JointPermutation::from_names(model, d.joint_names);
    const State<double> x =
        liedyn::interop::state_from(Library::Pinocchio, model, d.vec("q"), d.vec("v"), perm);
    const VectorX<double> ddq =
        liedyn::interop::acceleration_from(Library::Pinocchio, model, x, d.vec("a"), perm);
    const VectorX<double> tau_in =
        liedyn::interop::force_from(Library::Pinocchio, model, x.H, d.vec("tau"), perm);
    Data<double> data(model);

    // ∂τ/∂q, ∂τ/∂v, ∂τ/∂a at (q, v, a): our D1ν..D4 and M with the body twist held fixed.
    liedyn::eidamb_derivatives(model, data, x, ddq, TwistRepresentation::Body);
    const auto id = liedyn::interop::inverse_dynamics_jacobians_to(
        Library::Pinocchio, model, x, ddq, data.tau, data.derivatives.D1, data.derivatives.D2,
        data.derivatives.D3, data.derivatives.D4, data.M, perm);
    CHECK(worst.check("dtau_dq", relative_error(id.dtau_dq, d.mat("dtau_dq"))) < kTol);
    CHECK(worst.check("dtau_dv", relative_error(id.dtau_dv, d.mat("dtau_dv"))) < kTol);
    CHECK(worst.check("dtau_da", relative_error(id.dtau_da, d.mat("dtau_da"))) < kTol);
    // The base columns alone, the part that depends on what is held fixed (docs/conventions.md
    // §3, §7).
    CHECK(worst.check("dtau_dq[:, 0:6]",
                      relative_error(id.dtau_dq.leftCols(6), d.mat("dtau_dq").leftCols(6))) < kTol);

    // ∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ at (q, v, tau): the bottom rows of the Body linearization A, and B.
    liedyn::LinearizationOptions<double> opt;
    opt.representation = TwistRepresentation::Body;
    liedyn::linearize(model, data, x, tau_in, opt);
    const auto fd = liedyn::interop::forward_dynamics_jacobians_to(
        Library::Pinocchio, model, x, tau_in, data.ddq, data.linearization.A, data.Minv, perm);
    CHECK(worst.check("ddq_dq", relative_error(fd.dddq_dq, d.mat("dddq_dq"))) < kTol);
    CHECK(worst.check("ddq_dv", relative_error(fd.dddq_dv, d.mat("dddq_dv"))) < kTol);
    CHECK(worst.check("ddq_dtau", relative_error(fd.dddq_dtau, d.mat("dddq_dtau"))) < kTol);

    // And the other way: our A, B rebuilt from Pinocchio's matrices equal linearize's.
    MatrixX<double> A, B;
    liedyn::interop::linearization_from_pinocchio(model, x, d.mat("dddq_dq"), d.mat("dddq_dv"),
                                                  d.mat("Minv"), A, B, perm);
    CHECK(worst.check("A from Pinocchio", relative_error(data.linearization.A, A)) < kTol);
    CHECK(worst.check("B from Pinocchio", relative_error(data.linearization.B, B)) < kTol);
  }
  for (const auto& e : worst.err)
    WARN("Pinocchio reference, worst relative error of " << e.first << ": " << e.second);
}

}  // namespace LIEDYN_UNITY_ID
