// liedyn — model: joint armature on a loaded model. A URDF has no armature (rotor inertia
// reflected through the gear, added to M's diagonal); Crocoddyl and Pinocchio users set it on the
// model afterwards (Crocoddyl's `armature`, Pinocchio's `model.armature`). with_armature returns
// the model rebuilt with it: the same tree, frames, mimic relations and diagnostics.
#pragma once

#include <string>

#include "liedyn/config.hpp"
#include "liedyn/model/builder.hpp"

namespace liedyn {

/// A new model equal to `model` but for the joints' armature: `armature` holds one entry per
/// joint velocity coordinate in liedyn's order (nv_joints entries, joint i's from r_index(i));
/// a multi-DoF joint's entries must be equal (liedyn's armature is one per joint, the same on
/// each of its coordinates): InvalidArgument otherwise, or for the wrong size. A negative or
/// non-finite entry: the builder's ModelError.
template <class S, class Derived>
Model<S> with_armature(const Model<S>& model, const Eigen::MatrixBase<Derived>& armature) {
  const char* who = "with_armature";
  LIEDYN_CHECK_SIZE(who, "armature", armature, model.nv_joints());
  ModelBuilder<S> b(model.base_type(), model.body_name(0));
  b.set_base_inertia(model.inertia(0));
  b.set_gravity(model.gravity());
  if (!model.has_moving_base()) b.set_welded_base_pose(model.welded_base_pose());
  for (const ModelDiagnostic& d : model.diagnostics())
    if (d.kind != DiagnosticKind::massless_subtree) b.add_diagnostic(d);
  for (int i = 1; i < model.num_bodies(); ++i) {
    JointSpec<S> spec = JointSpec<S>::of(model.joint(i));
    const auto entries = armature.segment(model.r_index(i), model.joint(i).nv());
    LIEDYN_CHECK((entries.array() == entries(0)).all(),
                 std::string(who) + ": joint '" + spec.name +
                     "' has unequal armature entries (one value per joint)");
    spec.armature = S(entries(0));
    b.add_body(model.body_name(model.parent(i)), model.body_name(i), spec, model.inertia(i));
  }
  for (std::size_t f = static_cast<std::size_t>(model.num_bodies()); f < model.frames().size();
       ++f) {
    const Frame<S>& fr = model.frame(static_cast<int>(f));
    b.add_frame(fr.name, model.body_name(fr.body), fr.placement);
  }
  for (const MimicRelation& m : model.mimic_relations())
    b.add_mimic(model.joint_name(m.joint), model.joint_name(m.leader), m.multiplier, m.offset);
  return b.build();
}

}  // namespace liedyn
