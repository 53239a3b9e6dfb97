// liedyn Python bindings — a Model as plain Python data and back, for pickle (and so
// multiprocessing and Ray, which ship a Model to another process: docs/python.md). The data are
// what ModelBuilder takes: the far side rebuilds the model through the builder, which validates
// it as it validates any model, and gets the same numbers bit for bit (liedyn/__init__.py
// installs Model.__reduce__ on top of these two functions).
#include "bindings.hpp"

namespace liedyn {
namespace python {

namespace {

using Inertia = SpatialInertia<double>;
using Spec = JointSpec<double>;

// Bumped whenever the layout below changes: an old pickle then gets a clear error.
constexpr int kModelStateVersion = 1;

/// An enumerator from its int, refused outside [0, last]: a kernel switching on an
/// out-of-range joint type would read garbage.
template <class E>
E enum_from(const py::handle& h, E last, const char* what) {
  const int v = h.cast<int>();
  if (v < 0 || v > static_cast<int>(last))
    throw InvalidArgument(std::string("liedyn: Model: not a pickled liedyn Model (") + what + " " +
                          std::to_string(v) + ")");
  return static_cast<E>(v);
}

py::tuple inertia_state(const Inertia& I) {
  return py::make_tuple(I.mass(), Eigen::Vector3d(I.first_moment()),
                        Eigen::Matrix3d(I.inertia_origin()));
}
Inertia inertia_from(const py::handle& t) {
  return Inertia::from_moments(t[py::int_(0)].cast<double>(),
                               t[py::int_(1)].cast<Eigen::Vector3d>(),
                               t[py::int_(2)].cast<Eigen::Matrix3d>());
}
py::tuple pose_state(const SE3& H) {
  return py::make_tuple(Eigen::Matrix3d(H.rotation()), Eigen::Vector3d(H.translation()));
}
SE3 pose_from(const py::handle& t) {
  return SE3(t[py::int_(0)].cast<Eigen::Matrix3d>(), t[py::int_(1)].cast<Eigen::Vector3d>());
}

py::tuple joint_state(const Joint<double>& j) {
  return py::make_tuple(j.name, static_cast<int>(j.type), Eigen::Vector3d(j.axis),
                        Eigen::Vector3d(j.axis2), j.pitch, pose_state(j.placement), j.armature,
                        j.lower, j.upper, j.velocity_limit, j.effort_limit);
}
Spec joint_from(const py::handle& t) {
  Spec s;
  s.name = t[py::int_(0)].cast<std::string>();
  s.type = enum_from(t[py::int_(1)], JointType::Universal, "joint type");
  s.axis = t[py::int_(2)].cast<Eigen::Vector3d>();
  s.axis2 = t[py::int_(3)].cast<Eigen::Vector3d>();
  s.pitch = t[py::int_(4)].cast<double>();
  s.placement = pose_from(t[py::int_(5)]);
  s.armature = t[py::int_(6)].cast<double>();
  s.lower = t[py::int_(7)].cast<double>();
  s.upper = t[py::int_(8)].cast<double>();
  s.velocity_limit = t[py::int_(9)].cast<double>();
  s.effort_limit = t[py::int_(10)].cast<double>();
  return s;
}

py::tuple model_state(const Model& mo) {
  py::list bodies, frames, mimics, diagnostics;
  for (int i = 1; i < mo.num_bodies(); ++i)
    bodies.append(py::make_tuple(mo.body_name(i), mo.parent(i), joint_state(mo.joint(i)),
                                 inertia_state(mo.inertia(i))));
  // The first num_bodies() frames are the bodies' own, which the builder makes again.
  for (std::size_t f = static_cast<std::size_t>(mo.num_bodies()); f < mo.frames().size(); ++f)
    frames.append(py::make_tuple(mo.frames()[f].name, mo.frames()[f].body,
                                 pose_state(mo.frames()[f].placement)));
  for (const MimicRelation& r : mo.mimic_relations())
    mimics.append(
        py::make_tuple(mo.joint_name(r.joint), mo.joint_name(r.leader), r.multiplier, r.offset));
  // The builder derives the massless-subtree diagnostics from the tree again.
  for (const ModelDiagnostic& d : mo.diagnostics())
    if (d.kind != DiagnosticKind::massless_subtree)
      diagnostics.append(py::make_tuple(d.link, static_cast<int>(d.kind), d.message, d.magnitude));
  return py::make_tuple(kModelStateVersion, static_cast<int>(mo.base_type()), mo.body_name(0),
                        inertia_state(mo.inertia(0)), Eigen::Vector3d(mo.gravity()),
                        pose_state(mo.welded_base_pose()), bodies, frames, mimics, diagnostics);
}

Model model_from(const py::tuple& t) {
  if (t.size() != 10 || t[0].cast<int>() != kModelStateVersion)
    throw InvalidArgument("liedyn: Model: not a pickled liedyn Model of this version (format " +
                          std::to_string(kModelStateVersion) + ")");
  ModelBuilder<double> b(enum_from(t[1], BaseType::Welded, "base type"), t[2].cast<std::string>());
  // The inertias were reviewed when the model was first built (its diagnostics come along
  // below): taken as they are, whatever the policy was then.
  b.set_inertia_check(InertiaCheck::PositiveDefinite);
  b.set_inertia_policy(InertiaPolicy::lenient);
  b.set_base_inertia(inertia_from(t[3]));
  b.set_gravity(t[4].cast<Eigen::Vector3d>());
  b.set_welded_base_pose(pose_from(t[5]));
  // Bodies in the model's order, each after its parent: builder id = body index.
  for (const py::handle& body : t[6].cast<py::list>())
    b.add_body(body[py::int_(1)].cast<int>(), body[py::int_(0)].cast<std::string>(),
               joint_from(body[py::int_(2)]), inertia_from(body[py::int_(3)]));
  for (const py::handle& f : t[7].cast<py::list>())
    b.add_frame(f[py::int_(0)].cast<std::string>(), f[py::int_(1)].cast<int>(),
                pose_from(f[py::int_(2)]));
  for (const py::handle& r : t[8].cast<py::list>())
    b.add_mimic(r[py::int_(0)].cast<std::string>(), r[py::int_(1)].cast<std::string>(),
                r[py::int_(2)].cast<double>(), r[py::int_(3)].cast<double>());
  for (const py::handle& d : t[9].cast<py::list>())
    b.add_diagnostic(ModelDiagnostic{
        d[py::int_(0)].cast<std::string>(),
        enum_from(d[py::int_(1)], DiagnosticKind::ignored_element, "diagnostic kind"),
        d[py::int_(2)].cast<std::string>(), d[py::int_(3)].cast<double>()});
  return b.build();
}

}  // namespace

void bind_pickling(py::module_& m) {
  m.def("_model_state", &model_state, py::arg("model"),
        "The model as plain data (what ModelBuilder takes), for pickle.");
  m.def(
      "_model_from_state",
      [](const py::tuple& t) {
        try {
          return model_from(t);
        } catch (const py::cast_error& e) {
          throw InvalidArgument(std::string("liedyn: Model: not a pickled liedyn Model (") +
                                e.what() + ")");
        } catch (const py::error_already_set& e) {
          throw InvalidArgument(std::string("liedyn: Model: not a pickled liedyn Model (") +
                                e.what() + ")");
        }
      },
      py::arg("state"), "The model _model_state gave, rebuilt by ModelBuilder.");
}

}  // namespace python
}  // namespace liedyn
