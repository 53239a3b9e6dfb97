// liedyn tests — the four contact cases of Pinocchio's constrained reference dumps
// (tests/data/*.contacts*.txt: solo12 on 4 point feet, talos on 2 rigid soles, LOCAL and
// LOCAL_WORLD_ALIGNED), loaded as our model, state, input and constraint set. Needs the URDF
// loader (LIEDYN_HAS_URDF).
#pragma once

#include <string>
#include <vector>

#include <liedyn/interop/all.hpp>
#include <liedyn/model/constraint.hpp>
#include <liedyn/model/urdf.hpp>

#include "pinocchio_dump.hpp"

namespace liedyn {
namespace test {

/// One dump with everything a comparison needs, in our conventions.
struct PinocchioContactCase {
  std::string file;
  Model<double> model;
  PinocchioDump dump;
  interop::JointPermutation perm;  ///< our joints ↔ Pinocchio's
  State<double> x;
  VectorX<double> tau;  ///< τ̄ (base wrench in the base frame, joint torques)
  std::vector<ConstraintSpec<double>> specs;  ///< the dump's contacts, LOCAL = body, LWA = mixed
};

/// The four cases, in the order solo12 LOCAL, solo12 LWA, talos LOCAL, talos LWA.
inline std::vector<PinocchioContactCase> pinocchio_contact_cases() {
  struct File {
    const char* robot;
    const char* name;
  };
  const File files[] = {{"solo12", "solo12.contacts3d.local.seed1.txt"},
                        {"solo12", "solo12.contacts3d.lwa.seed2.txt"},
                        {"talos", "talos.contacts6d.local.seed1.txt"},
                        {"talos", "talos.contacts6d.lwa.seed2.txt"}};
  const std::string dir = LIEDYN_TEST_DATA_DIR;
  std::vector<PinocchioContactCase> cases;
  for (const File& f : files) {
    INFO(f.name);
    PinocchioContactCase c;
    c.file = f.name;
    c.model = load_urdf_file(dir + "/" + f.robot + ".urdf");
    c.dump = read_pinocchio_dump(dir + "/" + f.name);
    c.perm = interop::JointPermutation::from_names(c.model, c.dump.joint_names);
    c.x = interop::state_from(interop::Library::Pinocchio, c.model, c.dump.vec("q"),
                              c.dump.vec("v"), c.perm);
    c.tau =
        interop::force_from(interop::Library::Pinocchio, c.model, c.x.H, c.dump.vec("tau"), c.perm);
    REQUIRE((c.dump.reference_frame == "LOCAL" || c.dump.reference_frame == "LOCAL_WORLD_ALIGNED"));
    const TwistRepresentation sense =
        c.dump.reference_frame == "LOCAL" ? TwistRepresentation::Body : TwistRepresentation::Mixed;
    for (std::size_t k = 0; k < c.dump.contact_frames.size(); ++k)
      c.specs.push_back(
          c.dump.contact_dims[k] == 3
              ? ConstraintSpec<double>::point_contact(c.dump.contact_frames[k], sense)
              : ConstraintSpec<double>::rigid_contact(c.dump.contact_frames[k], sense));
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace test
}  // namespace liedyn
