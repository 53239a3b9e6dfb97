// A robot standing on its contacts: point feet (solo12) or rigid soles (talos).
//
//   liedyn_contact_standing ROBOT.urdf point|rigid FRAME... [JOINT=ANGLE...]
//
// At rest in the given posture (base level, joints at the given angles, others at zero), it
// finds joint torques that hold the robot still — the contact forces λ that carry the gravity
// of the whole robot with the least norm (the base rows of M q̈ + h − τ̄ = Jᵀ λ at q̈ = 0, ν̄ = 0,
// no base wrench: J_bᵀ λ = h_b), then τ = h_j − J_jᵀ λ — and runs constrained forward dynamics
// (exact KKT route) with them. It prints the contact forces in the inertial axes (mixed sense)
// and checks, exiting non-zero otherwise:
//   * q̈ = 0 (to rounding): the torques hold the robot;
//   * the vertical forces sum to the weight m g, and the forces and moments about the centre of
//     mass balance gravity (Newton–Euler of the whole robot at rest);
// then shows what the same contacts do with no torques at all (the robot sags: q̈ ≠ 0).
#include <cstdio>
#include <string>
#include <vector>

#include <Eigen/QR>

#include <liedyn/algorithm/constrained_dynamics.hpp>
#include <liedyn/model/urdf.hpp>

using namespace liedyn;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s ROBOT.urdf point|rigid FRAME... [JOINT=ANGLE...]\n", argv[0]);
    return 2;
  }
  const Model<double> model = load_urdf_file(argv[1]);
  const bool point = std::string(argv[2]) == "point";
  State<double> x(model);
  std::vector<ConstraintSpec<double>> specs;
  for (int k = 3; k < argc; ++k) {
    const std::string a = argv[k];
    const auto eq = a.find('=');
    if (eq == std::string::npos) {
      specs.push_back(point ? ConstraintSpec<double>::point_contact(a, TwistRepresentation::Mixed)
                            : ConstraintSpec<double>::rigid_contact(a, TwistRepresentation::Mixed));
      continue;
    }
    const int j = model.joint_id(a.substr(0, eq));
    if (j < 1) {
      std::fprintf(stderr, "no joint '%s'\n", a.substr(0, eq).c_str());
      return 2;
    }
    x.s(j - 1) = std::stod(a.substr(eq + 1));
  }
  const ConstraintSet<double> set(model, specs);
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  const int nv = model.nv(), m = set.dimension();

  // Static torques: λ of least norm with J_bᵀ λ = h_b, then τ = h_j − J_jᵀ λ (ν̄ = 0, so h = G).
  constraint_kinematics(model, data, set, cd, x);
  const VectorX<double> h = bias_force(model, data, x);
  const MatrixX<double> Jb_t = cd.J.leftCols(6).transpose();
  const VectorX<double> lambda_static =
      Jb_t.completeOrthogonalDecomposition().solve(VectorX<double>(h.head(6)));
  VectorX<double> tau = VectorX<double>::Zero(nv);
  tau.tail(nv - 6) = h.tail(nv - 6) - cd.J.rightCols(nv - 6).transpose() * lambda_static;

  const VectorX<double> ddq = constrained_forward_dynamics(model, data, set, cd, x, tau);
  const double weight = model.total_mass() * model.gravity().norm();
  std::printf("%s: %d joints, mass %.3f kg, weight %.3f N, %zu %s contacts (%d rows)\n", argv[1],
              model.num_joints(), model.total_mass(), weight, specs.size(),
              point ? "point" : "rigid", m);
  Vector3<double> force = Vector3<double>::Zero(), moment = Vector3<double>::Zero();
  forward_poses(model, data, x);
  // Centre of mass.
  Vector3<double> com = Vector3<double>::Zero();
  for (int i = 0; i < model.num_bodies(); ++i)
    com += model.inertia(i).mass() * data.kinematics.H_world[i].act_point(model.inertia(i).com());
  com /= model.total_mass();
  for (int k = 0; k < set.size(); ++k) {
    const Constraint<double>& c = set.constraint(k);
    const Vector3<double> o = frame_pose(model, data, model.frame_id(specs[k].frame)).translation();
    const Vector3<double> f = cd.lambda.segment<3>(c.row);
    force += f;
    moment += (o - com).cross(f);
    if (!point) moment += cd.lambda.segment<3>(c.row + 3);
    std::printf("  %-18s force [%9.3f %9.3f %9.3f] N%s\n", c.name.c_str(), f(0), f(1), f(2),
                point ? ""
                      : (" moment [" + std::to_string(cd.lambda(c.row + 3)) + " " +
                         std::to_string(cd.lambda(c.row + 4)) + " " +
                         std::to_string(cd.lambda(c.row + 5)) + "] N m")
                            .c_str());
  }
  const Vector3<double> gravity = model.total_mass() * model.gravity();
  std::printf(
      "  sum of forces [%.6f %.6f %.6f] N (weight %.6f N); |q̈| = %.2e; moment about the CoM %.2e N "
      "m\n",
      force(0), force(1), force(2), weight, ddq.norm(), moment.norm());
  // Rounding of the KKT solve relative to the weight (forces O(100) N, M up to O(10)).
  const double tol = 1e-9 * weight;
  bool ok = ddq.norm() < 1e-9 && (force + gravity).norm() < tol && moment.norm() < tol &&
            std::abs(force.z() - weight) < tol;

  const VectorX<double> limp =
      constrained_forward_dynamics(model, data, set, cd, x, VectorX<double>::Zero(nv));
  double fz = 0;
  for (int k = 0; k < set.size(); ++k) fz += cd.lambda(set.constraint(k).row + 2);
  std::printf(
      "  with no torques: vertical forces %.3f N (%.1f%% of the weight), base acceleration [%.3f "
      "%.3f %.3f] m/s^2\n",
      fz, 100 * fz / weight, limp(0), limp(1), limp(2));
  std::printf(ok ? "standing: OK\n" : "standing: FAILED\n");
  return ok ? 0 : 1;
}
