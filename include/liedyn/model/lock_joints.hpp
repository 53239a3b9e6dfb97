// liedyn — model: welding joints at given positions (a humanoid's grippers, an arm's wrist).
//
// lock_joints(model, names, positions) returns a new Model in which each named joint is a rigid
// connection at its position q: the joint's child body becomes a fixed body of its parent placed
// at ^{λ(i)}H_i(q) = placement · exp(Γ q), merged into the nearest moving ancestor exactly as a
// URDF fixed joint (inertias added about the ancestor's origin, the body kept as a frame of that
// name). Every other frame keeps its pose relative to the body it was attached to. The remaining
// joints keep their relative order (depth-first numbering is preserved), so the locked model's
// dynamics are the full model's restricted to the remaining coordinates with the locked joints at
// q and at rest: its M is the sub-block of the full M, its inverse dynamics the sub-vector.
//
// Mimic relations between two remaining joints are kept. A joint that mimics a locked joint is
// locked with it at multiplier · q + offset (unless named itself); a locked follower of a free
// leader drops its relation, said so in a diagnostic. Inertia diagnostics of the
// original model are kept; each locked joint adds a DiagnosticKind::locked_joint entry, and the
// massless-subtree diagnostics are recomputed for the new tree.
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "liedyn/config.hpp"
#include "liedyn/model/builder.hpp"

namespace liedyn {

namespace detail {

/// The joints lock_joints welds: locked[i] and the position q[i] of each, follows[i] the locked
/// leader a mimicking joint i follows (0 for none).
template <class S>
struct LockedJoints {
  std::vector<char> locked;
  std::vector<S> q;
  std::vector<int> follows;
};

template <class S>
LockedJoints<S> locked_joints(const Model<S>& model, const std::vector<std::string>& names,
                              const std::vector<S>& positions) {
  const char* who = "lock_joints";
  LIEDYN_CHECK(names.size() == positions.size(),
               std::string(who) + ": positions has size " + std::to_string(positions.size()) +
                   ", expected " + std::to_string(names.size()) + " (one per name)");
  const int nb = model.num_bodies();
  LockedJoints<S> l{std::vector<char>(nb, 0), std::vector<S>(nb, S(0)), std::vector<int>(nb, 0)};
  for (std::size_t k = 0; k < names.size(); ++k) {
    const int i = model.require_joint_id(names[k], who);
    LIEDYN_CHECK(!l.locked[i], std::string(who) + ": joint '" + names[k] + "' is named twice");
    LIEDYN_CHECK(model.joint(i).one_dof(), std::string(who) + ": joint '" + names[k] + "' is " +
                                               to_string(model.joint(i).type) +
                                               ": only 1-DoF joints are locked at a position");
    LIEDYN_CHECK(positions[k] == positions[k] && positions[k] - positions[k] == S(0),
                 std::string(who) + ": the position of joint '" + names[k] + "' is not finite");
    l.locked[i] = 1;
    l.q[i] = positions[k];
  }
  // A joint that mimics a locked joint is locked with it, at multiplier · q + offset (a gripper's
  // fingers follow its locked motor), unless named itself; repeated for chains of mimics.
  for (bool changed = true; changed;) {
    changed = false;
    for (const MimicRelation& m : model.mimic_relations())
      if (l.locked[m.leader] && !l.locked[m.joint]) {
        l.locked[m.joint] = 1;
        l.follows[m.joint] = m.leader;
        l.q[m.joint] = S(m.multiplier) * l.q[m.leader] + S(m.offset);
        changed = true;
      }
  }
  return l;
}

/// The diagnostic of body i's joint locked at l.q[i].
template <class S>
ModelDiagnostic locked_joint_diagnostic(const Model<S>& model, const LockedJoints<S>& l, int i) {
  const Joint<S>& j = model.joint(i);
  std::ostringstream pos;
  pos << static_cast<double>(l.q[i]);
  return ModelDiagnostic{
      model.body_name(i), DiagnosticKind::locked_joint,
      "link '" + model.body_name(i) + "': joint '" + j.name + "' locked at " + pos.str() +
          (j.type == JointType::Prismatic ? " m" : " rad") +
          (l.follows[i] ? " (it mimics the locked joint '" + model.joint_name(l.follows[i]) + "')"
                        : ""),
      static_cast<double>(l.q[i])};
}

/// The mimic relations left between free joints; one whose follower is locked and leader free
/// is dropped with a diagnostic.
template <class S>
void add_remaining_mimics(const Model<S>& model, const LockedJoints<S>& l, ModelBuilder<S>& b) {
  for (const MimicRelation& m : model.mimic_relations()) {
    if (!l.locked[m.joint] && !l.locked[m.leader]) {
      b.add_mimic(model.joint_name(m.joint), model.joint_name(m.leader), m.multiplier, m.offset);
      continue;
    }
    if (l.locked[m.leader]) continue;  // both locked (the follower with its leader): nothing left
    b.add_diagnostic(ModelDiagnostic{model.body_name(m.joint), DiagnosticKind::locked_joint,
                                     "mimic relation of joint '" + model.joint_name(m.joint) +
                                         "' on joint '" + model.joint_name(m.leader) +
                                         "' dropped: '" + model.joint_name(m.joint) +
                                         "' is locked and its leader is not",
                                     static_cast<double>(l.q[m.joint])});
  }
}

}  // namespace detail

/// A new model with the joints `names` welded at `positions` (one per name, radians or metres,
/// in the joint's own coordinate). Throws InvalidArgument for an unknown or repeated name, a
/// size mismatch or a non-finite position. Frames: as in the original model, attached to the
/// same links; placements relative to the merged bodies are composed exactly.
template <class S>
Model<S> lock_joints(const Model<S>& model, const std::vector<std::string>& names,
                     const std::vector<S>& positions) {
  const detail::LockedJoints<S> l = detail::locked_joints(model, names, positions);
  const int nb = model.num_bodies();
  ModelBuilder<S> b(model.base_type(), model.body_name(0));
  // The inertias were reviewed when the model was built; merging only adds consistent ones.
  b.set_inertia_check(InertiaCheck::PositiveDefinite);
  b.set_base_inertia(model.inertia(0));
  b.set_gravity(model.gravity());
  if (!model.has_moving_base()) b.set_welded_base_pose(model.welded_base_pose());
  for (const ModelDiagnostic& d : model.diagnostics())
    if (d.kind != DiagnosticKind::massless_subtree) b.add_diagnostic(d);

  for (int i = 1; i < nb; ++i) {
    const Joint<S>& j = model.joint(i);
    const std::string& parent = model.body_name(model.parent(i));
    if (l.locked[i]) {
      b.add_fixed_body(parent, model.body_name(i), j.transform(l.q[i]), model.inertia(i));
      b.add_diagnostic(detail::locked_joint_diagnostic(model, l, i));
      continue;
    }
    b.add_body(parent, model.body_name(i), JointSpec<S>::of(j), model.inertia(i));
  }
  // The frames after the body frames: merged fixed bodies and user frames, on the same link.
  for (std::size_t f = static_cast<std::size_t>(nb); f < model.frames().size(); ++f) {
    const Frame<S>& fr = model.frame(static_cast<int>(f));
    b.add_frame(fr.name, model.body_name(fr.body), fr.placement);
  }
  detail::add_remaining_mimics(model, l, b);
  return b.build();
}

}  // namespace liedyn
