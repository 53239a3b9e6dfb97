// liedyn tests — the constraint cases shared by the constraint test files: a moving-base model
// of eleven independent chains and a set with one constraint of every type on it.
#pragma once

#include <random>
#include <string>
#include <vector>

#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/model/builder.hpp>
#include <liedyn/model/constraint.hpp>

#include "test_support.hpp"

namespace liedyn {
namespace test {

constexpr TwistRepresentation kSenses[] = {TwistRepresentation::Body, TwistRepresentation::Mixed,
                                           TwistRepresentation::Inertial};

/// The joints of chains_model's chains: 1-DoF (revolute, prismatic, helical) everywhere, or
/// every joint type on chains 0..9 (the coupling's chain 10 stays 1-DoF).
enum class ChainJoints { one_dof, every_type };

/// Eleven random chains of four bodies each on a moving base (bodies "cK_I", joints "jK_I",
/// K = 0..10, I = 1..4; random axes): every constraint of every_type() gets chains of its own,
/// so the stacked J has full rank.
template <class S>
Model<S> chains_model(std::uint32_t seed, ChainJoints joints = ChainJoints::one_dof) {
  auto rng = make_rng(seed);
  using liedyn::JointSpec;
  liedyn::ModelBuilder<double> b(liedyn::BaseType::Moving, "base", random_inertia<double>(rng));
  for (int k = 0; k <= 10; ++k) {
    std::string parent = "base";
    for (int i = 1; i <= 4; ++i) {
      const std::string id = std::to_string(k) + "_" + std::to_string(i);
      const SE3<double> X =
          SE3<double>::exp(Eigen::Matrix<double, 6, 1>(0.4 * random_twist<double>(rng)));
      const Eigen::Vector3d axis = random_unit_vector<double>(rng);
      const double pick = uniform(rng, 0, 1);
      const std::string name = "j" + id;
      JointSpec<double> j = pick < 0.6   ? JointSpec<double>::revolute(name, axis, X)
                            : pick < 0.8 ? JointSpec<double>::prismatic(name, axis, X)
                                         : JointSpec<double>::helical(name, axis, 0.05, X);
      if (joints == ChainJoints::every_type && k < 10) {
        // A second draw, so that the 1-DoF chains' draws stay those of the one_dof model.
        const Eigen::Vector3d second = axis.cross(random_unit_vector<double>(rng)).normalized();
        switch (static_cast<int>(uniform(rng, 0, 5)) % 5) {  // equal shares
          case 0: break;                                     // the 1-DoF joint drawn above
          case 1: j = JointSpec<double>::spherical(name, X); break;
          case 2: j = JointSpec<double>::free(name, X); break;
          case 3: j = JointSpec<double>::planar(name, X); break;
          default: j = JointSpec<double>::universal(name, axis, second, X);
        }
      }
      b.add_body(parent, "c" + id, j, random_inertia<double>(rng));
      parent = "c" + id;
    }
  }
  return b.build().template cast<S>();
}

/// A constraint set with every type on chains_model(): a point and a rigid contact at chain
/// tips, one loop of each type between the tips of two chains, and a coupling. The sense of
/// every geometric constraint is `sense` (mixed for the loop joints when inertial). With
/// `with_placements`, the desired placements are the poses at x (so e(x) = 0). 29 rows.
template <class S>
std::vector<liedyn::ConstraintSpec<S>> every_type(TwistRepresentation sense, bool with_placements,
                                                  const Model<S>& model, const State<S>& x,
                                                  std::mt19937& rng) {
  using CS = liedyn::ConstraintSpec<S>;
  const TwistRepresentation joint_sense =
      sense == TwistRepresentation::Inertial ? TwistRepresentation::Mixed : sense;
  std::vector<CS> specs = {
      CS::point_contact("c0_4", sense),
      CS::rigid_contact("c1_4", sense),
      CS::loop(ConstraintType::RigidLoop, "c2_4", "c3_4", sense),
      CS::loop(ConstraintType::BallLoop, "c4_4", "c5_4", sense),
      CS::loop(ConstraintType::RevoluteLoop, "c6_4", "c7_4", joint_sense,
               random_unit_vector<S>(rng)),
      CS::loop(ConstraintType::PrismaticLoop, "c8_4", "c9_4", joint_sense,
               random_unit_vector<S>(rng)),
      CS::coupling("j10_3", "j10_1", S(0.7), S(0.2)),
  };
  if (with_placements) {
    Data<S> data(model);
    liedyn::forward_poses(model, data, x);
    for (CS& c : specs) {
      if (c.type == ConstraintType::Coupling) {
        c.offset = x.s[model.q_index(model.joint_id(c.joint))] -
                   c.ratio * x.s[model.q_index(model.joint_id(c.master))];
        continue;
      }
      const SE3<S> H2 = liedyn::frame_pose(
          model, data, model.frame_id(liedyn::is_contact(c.type) ? c.frame : c.frame2));
      if (liedyn::is_contact(c.type)) {
        c.placement = H2;
      } else {
        const SE3<S> H1 = liedyn::frame_pose(model, data, model.frame_id(c.frame));
        c.placement = H1.inverse_times(H2);
      }
    }
  }
  return specs;
}

}  // namespace test
}  // namespace liedyn
