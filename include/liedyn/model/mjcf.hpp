// liedyn — model: an MJCF (MuJoCo XML) loader (optional; needs tinyxml2 and liedyn::urdf, the
// CMake target of the XML loaders).
//   liedyn::Model<double> m = liedyn::load_mjcf_file("go2.xml");
//
// What MuJoCo's compiler makes of a file is the reference (MuJoCo XML reference, "Modeling" and
// "XML Reference" chapters); docs/loading.md lists what is read and docs/interop.md the state
// conversion. In short:
// * The tree: bodies with hinge, slide and ball joints. A body with a free joint (<freejoint/> or
//   <joint type="free">) must be a child of <worldbody>; it becomes the moving base, whose frame
//   is MuJoCo's body frame (qpos = [p; quaternion w-first] is its pose). Without one, the base is
//   welded: the single child body of <worldbody> when it has no joint (welded at its pose), else
//   a base named "world" at the identity. Bodies without joints are fixed bodies, merged into
//   their parent and kept as frames.
// * Frames: a liedyn joint frame sits at the joint's anchor (MuJoCo's joint `pos`), with the
//   body's orientation, so the joint axis is MuJoCo's `axis` as written (normalized). The liedyn
//   body of a MuJoCo body b with joints j1 … jk: one body per joint, chained; the last carries
//   b's inertia and is named b when jk's anchor is b's origin, else "b/jk" with a frame named b
//   at MuJoCo's body frame. The others are massless, named "b/ji". Named sites are frames.
//   Unnamed bodies are "body<id>", unnamed joints "joint<id>" (MuJoCo's ids, world = body 0).
// * Joint positions: s = qpos − ref (MuJoCo's qpos0 is ref) for hinge and slide joints;
//   a ball joint is a spherical joint at its anchor, in the body's orientation, whose quaternion
//   is MuJoCo's (w last in liedyn, w first in MuJoCo; its ref and its range, a cone, are not
//   kept: liedyn's joint limits are per coordinate). Limits = range − ref when the
//   joint is limited (limited="true", or "auto" with <compiler autolimits="true"> and a range).
//   Hinge angles (range, ref), euler and axisangle are in degrees unless <compiler
//   angle="radian">. armature is kept.
// * Inertia: <inertial pos orientation mass diaginertia|fullinertia>; without it, from the
//   primitive geoms (sphere, capsule, cylinder, box, ellipsoid; mass or density, size or fromto)
//   and the mesh geoms whose <mesh> is given inline (vertex, face; scale; inertia legacy, exact
//   or convex: mesh_inertia.hpp) when <compiler inertiafromgeom> is auto (the default) or true,
//   with MuJoCo's formulas; boundmass, boundinertia and balanceinertia as MuJoCo applies them.
//   A mesh from a file (or another non-primitive geom) needed for a body's inertia is an error
//   naming the body.
// * <default> classes (nested), class= and childclass=, <frame>, <include file=> (relative to
//   the main file's folder; cycles are errors), every orientation form (quat, axisangle, euler
//   with eulerseq, xyaxes, zaxis), <option gravity> and <flag gravity="disable">.
// * Not part of a rigid-body tree, ignored as a URDF's <dynamics> is: geoms (except for
//   inertia), actuators, sensors, contacts, keyframes, assets (but inline meshes), visual
//   settings, joint damping, stiffness, frictionloss and springref, body gravcomp. The world's
//   static children in a moving-base model are dropped with a diagnostic (they move nothing).
// * Unsupported, always an error naming the element and line: free joints below the root,
//   several free bodies or kinematic trees, <composite>, <flexcomp>, <replicate>, <attach>,
//   compiler settings that change the model in ways not reproduced (settotalmass,
//   alignfree, coordinate="global"), shellinertia. <tendon> constraints are errors too, unless
//   MjcfOptions::unsupported is skip: then each is one diagnostic; so are <equality> constraints
//   for load_mjcf_file. load_mjcf_robot_file converts them into a ConstraintSet (connect: ball
//   loop, weld: rigid loop, or a contact when a side is fixed to the world of a moving-base
//   model; joint with a linear polynomial: coupling; frames, senses and the
//   conversion of MuJoCo's efc rows in docs/loading.md, "Equality constraints").
//
// Numbers are parsed as strictly as in urdf.hpp (decimal text, exact counts, finite). Every error
// is one ModelError line "liedyn: MJCF: [file: ]line N: what" that names the element.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "liedyn/model/constraint.hpp"
#include "liedyn/model/mjcf/equality.hpp"
#include "liedyn/model/mjcf/options.hpp"

namespace liedyn {

/// A robot loaded from MJCF with what MuJoCo adds to its kinematic tree (load_mjcf_robot_file):
/// the <equality> constraints and the joints' reference positions.
struct MjcfRobot {
  /// The tree, as load_mjcf_file gives it, plus the frames "NAME/1" and "NAME/2" of each
  /// body-based connect and weld named NAME ("equality<k>" when unnamed, k its index in MuJoCo).
  Model<double> model;
  /// The <equality> elements in file order (docs/loading.md, "Equality constraints"): connect a
  /// BallLoop, weld a RigidLoop (a BallLoop with torquescale 0), both in mixed sense with frame 1
  /// on MuJoCo's body1 (site1) side, or a PointContact, RigidContact on the other side's frame
  /// when a side is fixed to the world of a moving-base model; joint with a linear polycoef a
  /// Coupling.
  std::vector<ConstraintSpec<double>> equality;
  /// `equality` resolved against `model`: rows stacked in file order.
  ConstraintSet<double> constraints;
  /// MuJoCo's qpos0 of the joints, in liedyn's configuration order (model.nq_joints(), joint i's
  /// from q_index(i)): a hinge's or slide's ref (s = qpos − qpos0), a ball joint's identity
  /// quaternion w first (1, 0, 0, 0), as MuJoCo writes it (interop/mujoco.hpp converts states).
  VectorX<double> qpos0;
};

namespace detail {
namespace mjcf {

// The loader is a pipeline of stages (mjcf/*.hpp), each a function of the previous stages'
// values:
//   read_document    → Document (document.hpp: the XML with its includes, compiler settings,
//                                defaults, option)
//   read_tree        → Tree     (tree.hpp: bodies, joints, sites and geoms with their frames)
//   body_inertias    → Inertias (inertia.hpp: per body, with the inertia policy's diagnostics)
//   assemble         → Assembly (assembly.hpp: the liedyn bodies, joints and frames, before
//                                ModelBuilder::build)
//   convert_equality → Equality (equality.hpp: the <equality> constraints and the frames they
//                                add)
// The tree is read whole before any inertia is computed, so that an unsupported joint is
// reported before a geom's inertia; the equality constraints come last, as they name bodies,
// sites and joints of the finished tree.

// ---- the loaders -------------------------------------------------------------------------

/// The model of MJCF text (`main_path`: its file, empty for a string).
inline Model<double> load(const std::string& main_path, const std::string& text,
                          const MjcfOptions& opt) {
  const Document doc = read_document(main_path, text);
  const Tree tree = read_tree(doc);
  const std::vector<ModelDiagnostic> skipped = skip_sections(doc, opt, EqualityUse::unsupported);
  const Inertias inertias = body_inertias(doc, tree, opt);
  const Assembly assembly = assemble(doc, tree, inertias, skipped, opt);
  return build_model(doc, assembly.builder);
}

/// MuJoCo's qpos0 of the model's joints in liedyn's configuration order (MjcfRobot::qpos0).
inline VectorX<double> qpos0_of(const Model<double>& model,
                                const std::map<std::string, double>& qpos0) {
  VectorX<double> out(model.nq_joints());
  for (int i = 1; i < model.num_bodies(); ++i) {
    if (model.joint(i).one_dof()) out(model.q_index(i)) = qpos0.at(model.joint_name(i));
    else out.segment<4>(model.q_index(i)) << 1.0, 0.0, 0.0, 0.0;  // a ball's identity
  }
  return out;
}

/// The model of MJCF text, its equality constraints and its joints' qpos0.
inline MjcfRobot load_robot(const std::string& main_path, const std::string& text,
                            const MjcfOptions& opt) {
  const Document doc = read_document(main_path, text);
  const Tree tree = read_tree(doc);
  const std::vector<ModelDiagnostic> skipped = skip_sections(doc, opt, EqualityUse::converted);
  const Inertias inertias = body_inertias(doc, tree, opt);
  const Assembly assembly = assemble(doc, tree, inertias, skipped, opt);
  const Equality equality = convert_equality(doc, tree, assembly, opt);
  MjcfRobot robot;
  robot.model = build_model(doc, equality.builder);
  robot.equality = equality.constraints;
  try {
    robot.constraints = ConstraintSet<double>(robot.model, robot.equality);
  } catch (const ModelError& e) {
    fail(doc, strip_prefix(e.what()));
  }
  robot.qpos0 = qpos0_of(robot.model, assembly.qpos0);
  return robot;
}

}  // namespace mjcf
}  // namespace detail

/// Loads a robot from MJCF text (MuJoCo's XML; see docs/loading.md). <include> paths are relative
/// to the current directory. Throws ModelError (what and where) on anything it cannot represent.
inline Model<double> load_mjcf_string(const std::string& xml, const MjcfOptions& options = {}) {
  return detail::mjcf::load("", xml, options);
}

/// Loads a robot from an MJCF file; <include> paths are relative to its folder. Throws ModelError
/// if a file can't be read or on anything the loader cannot represent (the message names the file
/// and line).
inline Model<double> load_mjcf_file(const std::string& path, const MjcfOptions& options = {}) {
  std::string text;
  if (const char* why = detail::xml::read_file(path, text)) detail::mjcf::fail(path, why);
  return detail::mjcf::load(path, text, options);
}

/// Loads a robot and its <equality> constraints from MJCF text (see MjcfRobot); <include> paths
/// are relative to the current directory. Throws ModelError as load_mjcf_string does; an equality
/// liedyn cannot represent (tendon, flex, a polynomial of degree above 1, a joint equality
/// without joint2) is an error naming it, or one diagnostic each under
/// MjcfOptions::unsupported = skip.
inline MjcfRobot load_mjcf_robot_string(const std::string& xml, const MjcfOptions& options = {}) {
  return detail::mjcf::load_robot("", xml, options);
}

/// Loads a robot and its <equality> constraints from an MJCF file (see load_mjcf_robot_string);
/// <include> paths are relative to its folder.
inline MjcfRobot load_mjcf_robot_file(const std::string& path, const MjcfOptions& options = {}) {
  std::string text;
  if (const char* why = detail::xml::read_file(path, text)) detail::mjcf::fail(path, why);
  return detail::mjcf::load_robot(path, text, options);
}

}  // namespace liedyn
