// liedyn — model: the MJCF loader's fourth stage (mjcf.hpp): the tree as liedyn bodies, joints
// and frames in a ModelBuilder. Internal (detail::mjcf).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "liedyn/model/builder.hpp"
#include "liedyn/model/mjcf/inertia.hpp"

namespace liedyn {
namespace detail {
namespace mjcf {

/// Which MuJoCo body becomes liedyn's base, and the diagnostics of what a moving base drops.
struct Base {
  int free_body = -1;  // the body with the free joint; -1: a welded base
  int root = -1;       // the MuJoCo body that becomes the base; -1: the world
  std::vector<ModelDiagnostic> diagnostics;
};

inline Base find_base(const Document& doc, const Tree& tree) {
  const std::vector<BodyInfo>& bodies = tree.bodies;
  const int nb = static_cast<int>(bodies.size());
  std::vector<char> has_joint_below(nb, 0);
  for (int i = nb - 1; i > 0; --i) {
    if (!bodies[i].joints.empty() || bodies[i].free_joint) has_joint_below[i] = 1;
    if (has_joint_below[i]) has_joint_below[bodies[i].parent] = 1;
  }
  std::vector<int> world_kids;
  Base base;
  for (int i = 1; i < nb; ++i) {
    if (bodies[i].parent == 0) world_kids.push_back(i);
    if (!bodies[i].free_joint) continue;
    if (base.free_body >= 0)
      fail(doc, bodies[i].free_joint,
           "body '" + bodies[i].name + "': a second free body ('" + bodies[base.free_body].name +
               "' is the first); a model is one tree");
    base.free_body = i;
  }
  if (base.free_body < 0) {
    if (world_kids.size() == 1 && bodies[world_kids[0]].joints.empty()) base.root = world_kids[0];
    return base;
  }
  base.root = base.free_body;
  for (int k : world_kids) {
    if (k == base.free_body) continue;
    if (has_joint_below[k])
      fail(doc, bodies[k].el,
           "body '" + bodies[k].name + "': a second kinematic tree beside the free body '" +
               bodies[base.free_body].name + "'; a model is one tree");
    base.diagnostics.push_back(ModelDiagnostic{
        bodies[k].name, DiagnosticKind::ignored_element,
        where(doc, bodies[k].el) + "body '" + bodies[k].name +
            "' is fixed to the world, which a moving-base model does not contain; ignored",
        0.0});
  }
  if (!bodies[0].sites.empty() || !bodies[0].geoms.empty())
    base.diagnostics.push_back(ModelDiagnostic{
        "world", DiagnosticKind::ignored_element,
        where(doc, doc.worldbodies.front()) +
            "the world body's own geoms and sites are not part of a moving-base model; ignored",
        0.0});
  return base;
}

/// The tree as liedyn bodies, joints and frames, before ModelBuilder::build (the equality
/// constraints add their frames).
struct Assembly {
  ModelBuilder<double> builder;
  BaseType base_type;
  // entity[i]: the liedyn body (or fixed body) carrying MuJoCo body i, empty when the body is
  // dropped (fixed to the world of a moving-base model), and entity_H[i] = ^{entity}H_{i}.
  std::vector<std::string> entity;
  std::vector<SE3<double>> entity_H;
  std::map<std::string, double> qpos0;  // per hinge and slide joint name: MuJoCo's qpos0
};

/// A builder with the base, gravity and the diagnostics so far.
inline Assembly start_assembly(const Document& doc, const Tree& tree, const Inertias& inertias,
                               const Base& base, const std::vector<ModelDiagnostic>& diagnostics,
                               const MjcfOptions& opt) {
  const std::string base_name = base.root >= 0 ? tree.bodies[base.root].name : "world";
  const BaseType type = base.free_body >= 0 ? BaseType::Moving : BaseType::Welded;
  const std::size_t nb = tree.bodies.size();
  Assembly a{ModelBuilder<double>(type, base_name),
             type,
             std::vector<std::string>(nb),
             std::vector<SE3<double>>(nb),
             {}};
  ModelBuilder<double>& b = a.builder;
  b.set_inertia_check(InertiaCheck::PositiveDefinite);  // checked as written (body_inertia)
  for (const ModelDiagnostic& d : diagnostics) b.add_diagnostic(d);
  Vector3<double> g = doc.gravity_disabled ? Vector3<double>::Zero() : doc.gravity;
  if (opt.gravity) g = *opt.gravity;
  try {
    b.set_gravity(g);
    if (base.root >= 0) b.set_base_inertia(inertias.of_body[base.root]);
    if (base.root >= 0 && base.free_body < 0) b.set_welded_base_pose(world_pose(tree, base.root));
  } catch (const ModelError& e) {
    fail(doc, strip_prefix(e.what()));
  }
  a.entity[0] = base_name;
  if (base.root >= 0) {
    a.entity[base.root] = base_name;
    a.entity_H[0] = base.free_body >= 0 ? SE3<double>() : world_pose(tree, base.root).inverse();
  }
  return a;
}

/// The builder's joint for one MuJoCo joint placed at `placement` in its parent.
inline JointSpec<double> joint_spec(const JointInfo& ji, const SE3<double>& placement) {
  JointSpec<double> spec = ji.kind == JointInfo::Kind::Ball
                               ? JointSpec<double>::spherical(ji.name, placement)
                           : ji.kind == JointInfo::Kind::Slide
                               ? JointSpec<double>::prismatic(ji.name, ji.axis, placement)
                               : JointSpec<double>::revolute(ji.name, ji.axis, placement);
  if (ji.kind != JointInfo::Kind::Ball) {
    spec.lower = ji.lower;
    spec.upper = ji.upper;
  }
  spec.armature = ji.armature;
  return spec;
}

/// MuJoCo body i with joints: one liedyn body per joint, chained (header comment).
inline void add_jointed_body(const Tree& tree, const Inertias& inertias, int i,
                             const SE3<double>& X, Assembly& a) {
  const BodyInfo& bi = tree.bodies[i];
  std::string parent = a.entity[bi.parent];
  SE3<double> placement = X;
  const int k = static_cast<int>(bi.joints.size());
  for (int j = 0; j < k; ++j) {
    const JointInfo& ji = bi.joints[j];
    placement = placement * SE3<double>(Matrix3<double>::Identity(), ji.pos);
    const bool last = j == k - 1;
    const std::string name = last && ji.pos.isZero(0.0) ? bi.name : bi.name + "/" + ji.name;
    const JointSpec<double> spec = joint_spec(ji, placement);
    if (ji.kind != JointInfo::Kind::Ball) a.qpos0[ji.name] = ji.ref;
    const SE3<double> back(Matrix3<double>::Identity(), Vector3<double>(-ji.pos));
    a.builder.add_body(parent, name, spec,
                       last ? inertias.of_body[i].transformed(back) : SpatialInertia<double>());
    parent = name;
    placement = back;
  }
  a.entity[i] = parent;
  a.entity_H[i] = placement;
  if (parent != bi.name) a.builder.add_frame(bi.name, parent, placement);
}

/// Every MuJoCo body but the base and the world, and the sites of all.
inline void add_bodies(const Document& doc, const Tree& tree, const Inertias& inertias,
                       const Base& base, Assembly& a) {
  const int nb = static_cast<int>(tree.bodies.size());
  for (int i = 1; i < nb; ++i) {
    if (i == base.root) continue;
    const BodyInfo& bi = tree.bodies[i];
    if (base.free_body >= 0 && bi.parent == 0) continue;  // dropped: fixed to the world
    if (base.free_body >= 0 && a.entity[bi.parent].empty()) continue;
    const SE3<double> X = a.entity_H[bi.parent] * bi.pose;
    try {
      if (!bi.joints.empty()) {
        add_jointed_body(tree, inertias, i, X, a);
        continue;
      }
      a.builder.add_fixed_body(a.entity[bi.parent], bi.name, X, inertias.of_body[i]);
      a.entity[i] = bi.name;
    } catch (const ModelError& e) {
      fail(doc, bi.el, strip_prefix(e.what()));
    }
  }
  for (int i = 0; i < nb; ++i) {
    if (a.entity[i].empty() || (i == 0 && base.free_body >= 0)) continue;
    for (const SiteInfo& s : tree.bodies[i].sites) {
      try {
        a.builder.add_frame(s.name, a.entity[i], a.entity_H[i] * s.placement);
      } catch (const ModelError& e) {
        fail(doc, tree.bodies[i].el, "site '" + s.name + "': " + strip_prefix(e.what()));
      }
    }
  }
}

/// Stage 4: the liedyn bodies, joints and frames of the tree; the builder takes the diagnostics
/// of the sections skipped, of the inertias and of the base, in this order.
inline Assembly assemble(const Document& doc, const Tree& tree, const Inertias& inertias,
                         const std::vector<ModelDiagnostic>& skipped, const MjcfOptions& opt) {
  const Base base = find_base(doc, tree);
  std::vector<ModelDiagnostic> diagnostics = skipped;
  diagnostics.insert(diagnostics.end(), inertias.diagnostics.begin(), inertias.diagnostics.end());
  diagnostics.insert(diagnostics.end(), base.diagnostics.begin(), base.diagnostics.end());
  Assembly a = start_assembly(doc, tree, inertias, base, diagnostics, opt);
  add_bodies(doc, tree, inertias, base, a);
  return a;
}

/// The model of a finished assembly.
inline Model<double> build_model(const Document& doc, const ModelBuilder<double>& builder) {
  try {
    return builder.build();
  } catch (const ModelError& e) {
    fail(doc, strip_prefix(e.what()));
  }
}

}  // namespace mjcf
}  // namespace detail
}  // namespace liedyn
