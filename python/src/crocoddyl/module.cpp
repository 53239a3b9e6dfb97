// liedyn.crocoddyl's extension module, liedyn._crocoddyl: the Crocoddyl bridge's C++ objects
// (include/liedyn/crocoddyl/, docs/crocoddyl.md) as Python classes deriving from Crocoddyl's own
// (StateAbstract, DifferentialActionModelAbstract, ActionModelAbstract, ResidualModelAbstract).
//
// Crocoddyl's bindings are Boost.Python with eigenpy's array conversions, so these are too: a
// class registered with Crocoddyl's class as its base is a Crocoddyl object to every Crocoddyl
// function that takes one (IntegratedActionModelEuler, CostModelResidual, ShootingProblem), and
// the solvers call the C++ overrides directly: no Python runs per node, and the problem's threads
// (ShootingProblem.nthreads) run them in parallel. Crocoddyl's Python module must be imported
// first (liedyn/crocoddyl.py does): it registers the base classes and the argument types taken
// here (pinocchio.SE3, pinocchio.ReferenceFrame, crocoddyl.CostModelSum, crocoddyl.FrictionCone).
//
// The liedyn Model comes from liedyn._liedyn (pybind11) through a capsule whose name both
// modules compute (model_capsule.hpp); each bridge object keeps its own immutable copy.
#include <boost/python.hpp>
#include <boost/python/stl_iterator.hpp>
#include <eigenpy/eigenpy.hpp>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <liedyn/crocoddyl/all.hpp>

#include "../model_capsule.hpp"

namespace liedyn {
namespace python_crocoddyl {

namespace bp = boost::python;
namespace lc = liedyn::crocoddyl;
using Eigen::MatrixXd;
using Eigen::VectorXd;

// --- errors ---------------------------------------------------------------------------------

// liedyn's Python exception classes (liedyn.InvalidArgument, ModelError, ConstraintError, all
// ValueErrors), so that an error reads the same from either module. Held for the process's
// life: module objects outlive any call.
PyObject* liedyn_exception(const char* name) {
  bp::object cls = bp::import("liedyn._liedyn").attr(name);
  return bp::incref(cls.ptr());
}

template <class E>
void translate_to(const char* name) {
  static PyObject* const cls = liedyn_exception(name);
  bp::register_exception_translator<E>([](const E& e) { PyErr_SetString(cls, e.what()); });
}

[[noreturn]] void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  bp::throw_error_already_set();
  throw;  // unreachable: throw_error_already_set throws
}

// --- arguments ------------------------------------------------------------------------------

std::string type_name(const bp::object& o) {
  return bp::extract<std::string>(o.attr("__class__").attr("__name__"))();
}

/// A copy of the liedyn.Model `model` (model_capsule.hpp). TypeError for another object;
/// ImportError for a liedyn._liedyn of another build, whose Model could be laid out otherwise.
std::shared_ptr<const Model<double>> model_from(const bp::object& model, const char* who) {
  const bp::object liedyn_module = bp::import("liedyn._liedyn");
  if (!PyObject_IsInstance(model.ptr(), bp::object(liedyn_module.attr("Model")).ptr()))
    raise(PyExc_TypeError, std::string("liedyn: ") + who +
                               ": expected a liedyn.Model (liedyn.load_urdf_file, load_mjcf_file, "
                               "...), got " +
                               type_name(model));
  const bp::object capsule = liedyn_module.attr("_model_capsule")(model);
  const char* name = PyCapsule_GetName(capsule.ptr());
  const std::string& ours = python::model_capsule_name();
  if (name == nullptr || ours != name)
    raise(PyExc_ImportError, std::string("liedyn: ") + who +
                                 ": liedyn._liedyn and liedyn._crocoddyl come from different "
                                 "builds ('" +
                                 (name ? name : "?") + "' against '" + ours +
                                 "'): reinstall liedyn");
  const auto* pointer =
      static_cast<const Model<double>*>(PyCapsule_GetPointer(capsule.ptr(), name));
  return std::make_shared<const Model<double>>(*pointer);
}

template <class T>
std::vector<T> vector_of(const bp::object& sequence, const char* who, const char* what) {
  std::vector<T> out;
  for (bp::stl_input_iterator<bp::object> it(sequence), end; it != end; ++it) {
    bp::extract<T> item(*it);
    if (!item.check())
      raise(PyExc_TypeError, std::string("liedyn: ") + who + ": " + what + " " +
                                 std::to_string(out.size()) + " is a " + type_name(*it));
    out.push_back(item());
  }
  return out;
}

interop::JointPermutation permutation(const lc::StateLiedyn& state, const bp::object& names) {
  return interop::JointPermutation::from_names(
      state.model(), vector_of<std::string>(names, "StateLiedyn", "joint name"));
}

// --- the state ------------------------------------------------------------------------------

using VectorRef = Eigen::Ref<const VectorXd>;

/// Crocoddyl's Python Jdiff and Jintegrate: `jacobians(first, second)` fills those asked for by
/// `firstsecond`, returned in a list.
template <class Jacobians>
bp::list jacobian_list(const lc::StateLiedyn& s, ::crocoddyl::Jcomponent firstsecond,
                       Jacobians jacobians) {
  const auto n = static_cast<Eigen::Index>(s.get_ndx());
  MatrixXd first = MatrixXd::Zero(n, n), second = MatrixXd::Zero(n, n);
  jacobians(first, second);
  bp::list out;
  if (firstsecond != ::crocoddyl::second) out.append(first);
  if (firstsecond != ::crocoddyl::first) out.append(second);
  return out;
}

bp::list jdiff(const lc::StateLiedyn& s, const VectorRef& x0, const VectorRef& x1,
               ::crocoddyl::Jcomponent firstsecond) {
  return jacobian_list(s, firstsecond, [&](MatrixXd& first, MatrixXd& second) {
    s.Jdiff(x0, x1, first, second, firstsecond);
  });
}

bp::list jintegrate(const lc::StateLiedyn& s, const VectorRef& x, const VectorRef& dx,
                    ::crocoddyl::Jcomponent firstsecond) {
  return jacobian_list(s, firstsecond, [&](MatrixXd& first, MatrixXd& second) {
    s.Jintegrate(x, dx, first, second, firstsecond);
  });
}

/// Crocoddyl's Python JintegrateTransport: Jin (a numpy array) transported in place.
void transport(const lc::StateLiedyn& s, const VectorRef& x, const VectorRef& dx,
               const bp::object& Jin, ::crocoddyl::Jcomponent firstsecond) {
  MatrixXd J = bp::extract<MatrixXd>(Jin)();
  s.JintegrateTransport(x, dx, J, firstsecond);
  Jin.attr("__setitem__")(bp::object(bp::handle<>(bp::borrowed(Py_Ellipsis))), J);
}

std::shared_ptr<lc::StateLiedyn> make_state(const bp::object& model) {
  return std::make_shared<lc::StateLiedyn>(model_from(model, "StateLiedyn"));
}

void bind_state() {
  using lc::StateLiedyn;
  bp::class_<StateLiedyn, bp::bases<::crocoddyl::StateAbstract>, std::shared_ptr<StateLiedyn>,
             boost::noncopyable>(
      "StateLiedyn",
      "liedyn's state space SE(3) x G x R^6 x R^n as a Crocoddyl state (docs/crocoddyl.md): "
      "x = [p, quaternion (x, y, z, w), s, nu (body twist, linear first), r], joints in "
      "liedyn's order; dx = [eta, ds, dnu, dr], right perturbations.",
      bp::no_init)
      .def("__init__",
           bp::make_constructor(&make_state, bp::default_call_policies(), bp::arg("model")),
           "StateLiedyn(model): the state of a liedyn.Model (a copy of it is kept).")
      .def("zero", &StateLiedyn::zero, bp::args("self"), "The neutral state (liedyn::neutral).")
      .def("rand", &StateLiedyn::rand, bp::args("self"), "A random state.")
      .def(
          "diff",
          +[](const StateLiedyn& s, const VectorRef& x0, const VectorRef& x1) {
            VectorXd dx(s.get_ndx());
            s.diff(x0, x1, dx);
            return dx;
          },
          bp::args("self", "x0", "x1"), "dx with x0 (+) dx = x1 (this class's layout of dx).")
      .def(
          "integrate",
          +[](const StateLiedyn& s, const VectorRef& x, const VectorRef& dx) {
            VectorXd out(s.get_nx());
            s.integrate(x, dx, out);
            return out;
          },
          bp::args("self", "x", "dx"), "x (+) dx.")
      .def("Jdiff", &jdiff,
           (bp::arg("self"), bp::arg("x0"), bp::arg("x1"),
            bp::arg("firstsecond") = ::crocoddyl::both),
           "[d diff/d x0, d diff/d x1] (firstsecond both), or the one asked for, in a list.")
      .def("Jintegrate", &jintegrate,
           (bp::arg("self"), bp::arg("x"), bp::arg("dx"),
            bp::arg("firstsecond") = ::crocoddyl::both),
           "[d integrate/d x, d integrate/d dx] (firstsecond both), or the one asked for.")
      .def("JintegrateTransport", &transport, bp::args("self", "x", "dx", "Jin", "firstsecond"),
           "Jin (ndx rows, a float64 array) transported in place from the tangent space at "
           "integrate(x, dx) to that at x (firstsecond first or second).")
      .add_property("configuration_size", &StateLiedyn::configuration_size,
                    "Size of the configuration part of x (7 + nq_joints for a moving base).")
      .def(
          "to_pinocchio",
          +[](const StateLiedyn& s, const VectorXd& x, const bp::object& names) {
            return VectorXd(s.to_pinocchio(x, permutation(s, names)));
          },
          bp::args("self", "x", "joint_names"),
          "Crocoddyl's StateMultibody x of ours; joint_names: Pinocchio's model.names[2:] (moving "
          "base) or model.names[1:] (welded).")
      .def(
          "from_pinocchio",
          +[](const StateLiedyn& s, const VectorXd& x_pin, const bp::object& names) {
            return VectorXd(s.from_pinocchio(x_pin, permutation(s, names)));
          },
          bp::args("self", "x_pin", "joint_names"), "Our x of Crocoddyl's StateMultibody x_pin.")
      .def(
          "tangent_permutation",
          +[](const StateLiedyn& s, const bp::object& names) {
            return MatrixXd(s.tangent_permutation(permutation(s, names)));
          },
          bp::args("self", "joint_names"),
          "T with dx_pin = T dx (Jacobians: T J T^T; forward dynamics rows: P F T^T).");
}

// --- contacts and action models -------------------------------------------------------------

using lc::ContactLiedyn;

ContactLiedyn point_contact(const std::string& frame, const Eigen::Vector3d& xref,
                            pinocchio::ReferenceFrame sense, const Eigen::Vector2d& gains) {
  return lc::ContactLiedyn::point(frame, xref, sense, gains);
}
ContactLiedyn point_contact_ungained(const std::string& frame, const Eigen::Vector3d& xref,
                                     pinocchio::ReferenceFrame sense) {
  return lc::ContactLiedyn::point(frame, xref, sense);
}
ContactLiedyn rigid_contact(const std::string& frame, pinocchio::ReferenceFrame sense,
                            const Eigen::Vector2d& gains) {
  return lc::ContactLiedyn::rigid(frame, sense, gains);
}
ContactLiedyn rigid_contact_ungained(const std::string& frame, pinocchio::ReferenceFrame sense) {
  return lc::ContactLiedyn::rigid(frame, sense);
}

std::string contact_repr(const ContactLiedyn& c) {
  std::ostringstream os;
  os << "ContactLiedyn." << (c.kind == ContactLiedyn::Kind::Point3D ? "point" : "rigid") << "('"
     << c.frame << "', " << (c.sense == pinocchio::LOCAL ? "LOCAL" : "LOCAL_WORLD_ALIGNED")
     << ", gains=[" << c.gains(0) << ", " << c.gains(1) << "])";
  return os.str();
}

void bind_contacts() {
  bp::enum_<lc::Actuation>("Actuation")
      .value("FloatingBase", lc::Actuation::FloatingBase)
      .value("Full", lc::Actuation::Full);
  bp::class_<ContactLiedyn>(
      "ContactLiedyn",
      "A contact of the contact and impulse models: ContactLiedyn.point (3 rows, Crocoddyl's "
      "ContactModel3D) or ContactLiedyn.rigid (6 rows, ContactModel6D) on a frame of the liedyn "
      "model, in pinocchio.LOCAL or LOCAL_WORLD_ALIGNED, with Baumgarte gains [Kp, Kd].",
      bp::no_init)
      .def("point", &point_contact, bp::args("frame", "xref", "sense", "gains"),
           "ContactModel3D(state, frame, xref, sense, nu, gains): the frame's origin held at xref "
           "(in A).")
      .def("point", &point_contact_ungained, bp::args("frame", "xref", "sense"))
      .staticmethod("point")
      .def("rigid", &rigid_contact, bp::args("frame", "sense", "gains"),
           "ContactModel6D(state, frame, pref, sense, nu, gains) with Kp = 0 (docs/crocoddyl.md: "
           "Crocoddyl's placement error is another constraint).")
      .def("rigid", &rigid_contact_ungained, bp::args("frame", "sense"))
      .staticmethod("rigid")
      .add_property("dimension", &ContactLiedyn::dimension, "3 (point) or 6 (rigid).")
      .add_property(
          "frame", +[](const ContactLiedyn& c) { return c.frame; })
      .add_property(
          "sense", +[](const ContactLiedyn& c) { return c.sense; })
      .add_property(
          "xref", +[](const ContactLiedyn& c) { return Eigen::Vector3d(c.xref); })
      .add_property(
          "gains", +[](const ContactLiedyn& c) { return Eigen::Vector2d(c.gains); })
      .def("__repr__", &contact_repr);
}

std::vector<ContactLiedyn> contacts_from(const bp::object& contacts, const char* who) {
  return vector_of<ContactLiedyn>(contacts, who, "contact");
}

using CostSum = std::shared_ptr<::crocoddyl::CostModelSum>;

std::shared_ptr<lc::DifferentialActionModelFreeFwdDynamicsLiedyn> make_free(
    const std::shared_ptr<lc::StateLiedyn>& state, lc::Actuation actuation, const CostSum& costs) {
  return std::make_shared<lc::DifferentialActionModelFreeFwdDynamicsLiedyn>(state, actuation,
                                                                            costs);
}

std::shared_ptr<lc::DifferentialActionModelContactFwdDynamicsLiedyn> make_contact(
    const std::shared_ptr<lc::StateLiedyn>& state, lc::Actuation actuation,
    const bp::object& contacts, const CostSum& costs) {
  return std::make_shared<lc::DifferentialActionModelContactFwdDynamicsLiedyn>(
      state, actuation, contacts_from(contacts, "DifferentialActionModelContactFwdDynamicsLiedyn"),
      costs);
}

std::shared_ptr<lc::ActionModelImpulseFwdDynamicsLiedyn> make_impulse(
    const std::shared_ptr<lc::StateLiedyn>& state, const bp::object& contacts, const CostSum& costs,
    double restitution) {
  return std::make_shared<lc::ActionModelImpulseFwdDynamicsLiedyn>(
      state, contacts_from(contacts, "ActionModelImpulseFwdDynamicsLiedyn"), costs, restitution);
}
std::shared_ptr<lc::ActionModelImpulseFwdDynamicsLiedyn> make_plastic_impulse(
    const std::shared_ptr<lc::StateLiedyn>& state, const bp::object& contacts,
    const CostSum& costs) {
  return make_impulse(state, contacts, costs, 0.0);
}

/// Crocoddyl's Python methods of an action model, bound on `cls` (Crocoddyl binds its
/// abstract classes' methods on their Python-overridable wrappers, which a C++ model is not).
template <class Model, class Class>
void def_action_methods(Class& cls) {
  using DataPtr = std::shared_ptr<typename Model::DataAbstract>;
  cls.def(
         "createData", +[](Model& m) { return m.createData(); }, bp::args("self"),
         "The data of this model (usable with it only).")
      .def(
          "calc",
          +[](Model& m, const DataPtr& d, const VectorRef& x, const VectorRef& u) {
            m.calc(d, x, u);
          },
          bp::args("self", "data", "x", "u"), "The next state (or xout) and the cost at (x, u).")
      .def(
          "calc", +[](Model& m, const DataPtr& d, const VectorRef& x) { m.calc(d, x); },
          bp::args("self", "data", "x"), "The terminal node's calc.")
      .def(
          "calcDiff",
          +[](Model& m, const DataPtr& d, const VectorRef& x, const VectorRef& u) {
            m.calcDiff(d, x, u);
          },
          bp::args("self", "data", "x", "u"), "The derivatives (Fx, Fu, Lx, Lu, Lxx, Lxu, Luu).")
      .def(
          "calcDiff", +[](Model& m, const DataPtr& d, const VectorRef& x) { m.calcDiff(d, x); },
          bp::args("self", "data", "x"), "The terminal node's calcDiff.");
}

/// The cost sum's data of an action data (Crocoddyl's data.costs: data.costs.costs["name"]).
template <class Data>
std::shared_ptr<::crocoddyl::CostDataSum> cost_data(const Data& d) {
  return d.costs;
}

void bind_action_models() {
  using Free = lc::DifferentialActionModelFreeFwdDynamicsLiedyn;
  using FreeData = lc::DifferentialActionDataFreeFwdDynamicsLiedyn;
  using Contact = lc::DifferentialActionModelContactFwdDynamicsLiedyn;
  using ContactData = lc::DifferentialActionDataContactFwdDynamicsLiedyn;
  using Impulse = lc::ActionModelImpulseFwdDynamicsLiedyn;
  using ImpulseData = lc::ActionDataImpulseFwdDynamicsLiedyn;
  auto free_model =
      bp::class_<Free, bp::bases<::crocoddyl::DifferentialActionModelAbstract>,
                 std::shared_ptr<Free>, boost::noncopyable>(
          "DifferentialActionModelFreeFwdDynamicsLiedyn",
          "Crocoddyl's DifferentialActionModelFreeFwdDynamics on liedyn: xout = FD(x, S u) by aba, "
          "Fx and Fu exact (linearize, body twist); the liedyn model's armature.",
          bp::no_init)
          .def("__init__",
               bp::make_constructor(&make_free, bp::default_call_policies(),
                                    bp::args("state", "actuation", "costs")),
               "(state: StateLiedyn, actuation: Actuation, costs: crocoddyl.CostModelSum)");
  def_action_methods<Free>(free_model);
  bp::class_<FreeData, bp::bases<::crocoddyl::DifferentialActionDataAbstract>,
             std::shared_ptr<FreeData>, boost::noncopyable>(
      "DifferentialActionDataFreeFwdDynamicsLiedyn",
      "The free model's data: Crocoddyl's fields, and the cost sum's data.", bp::no_init)
      .add_property("costs", &cost_data<FreeData>, "The cost sum's data.");
  auto contact_model =
      bp::class_<Contact, bp::bases<::crocoddyl::DifferentialActionModelAbstract>,
                 std::shared_ptr<Contact>, boost::noncopyable>(
          "DifferentialActionModelContactFwdDynamicsLiedyn",
          "Crocoddyl's DifferentialActionModelContactFwdDynamics on liedyn: xout = the "
          "acceleration "
          "under the contacts (exact KKT), Fx, Fu and the forces' df_dx, df_du exact.",
          bp::no_init)
          .def("__init__",
               bp::make_constructor(&make_contact, bp::default_call_policies(),
                                    bp::args("state", "actuation", "contacts", "costs")),
               "(state: StateLiedyn, actuation: Actuation, contacts: [ContactLiedyn], costs: "
               "crocoddyl.CostModelSum)");
  def_action_methods<Contact>(contact_model);
  bp::class_<ContactData, bp::bases<::crocoddyl::DifferentialActionDataAbstract>,
             std::shared_ptr<ContactData>, boost::noncopyable>(
      "DifferentialActionDataContactFwdDynamicsLiedyn",
      "The contact model's data: Crocoddyl's fields, and the contact forces.", bp::no_init)
      .add_property("costs", &cost_data<ContactData>, "The cost sum's data.")
      .def(
          "force", +[](const ContactData& d, std::size_t k) { return VectorXd(d.force(k)); },
          bp::args("self", "k"),
          "Contact k's force on the robot in its sense (3 or 6 entries, force first), after "
          "calc (a copy).")
      .add_property(
          "df_dx", +[](const ContactData& d) { return MatrixXd(d.df_dx); },
          "d(lambda)/d(dx), m x ndx, after calcDiff (a copy).")
      .add_property(
          "df_du", +[](const ContactData& d) { return MatrixXd(d.df_du); },
          "d(lambda)/du, m x nu, after calcDiff (a copy).");
  auto impulse_model =
      bp::class_<Impulse, bp::bases<::crocoddyl::ActionModelAbstract>, std::shared_ptr<Impulse>,
                 boost::noncopyable>(
          "ActionModelImpulseFwdDynamicsLiedyn",
          "Crocoddyl's ActionModelImpulseFwdDynamics on liedyn: xnext = (q, v+) after an impact "
          "with restitution, the impulses, Fx and df_dx exact.",
          bp::no_init)
          .def("__init__",
               bp::make_constructor(&make_impulse, bp::default_call_policies(),
                                    bp::args("state", "contacts", "costs", "restitution")),
               "(state: StateLiedyn, contacts: [ContactLiedyn], costs: crocoddyl.CostModelSum with "
               "nu = 0, restitution in [0, 1])")
          .def("__init__", bp::make_constructor(&make_plastic_impulse, bp::default_call_policies(),
                                                bp::args("state", "contacts", "costs")));
  def_action_methods<Impulse>(impulse_model);
  bp::class_<ImpulseData, bp::bases<::crocoddyl::ActionDataAbstract>, std::shared_ptr<ImpulseData>,
             boost::noncopyable>("ActionDataImpulseFwdDynamicsLiedyn",
                                 "The impulse model's data: Crocoddyl's fields, and the impulses.",
                                 bp::no_init)
      .add_property("costs", &cost_data<ImpulseData>, "The cost sum's data.")
      .def(
          "impulse", +[](const ImpulseData& d, std::size_t k) { return VectorXd(d.impulse(k)); },
          bp::args("self", "k"),
          "Contact k's impulse on the robot in its sense, after calc (a copy).")
      .add_property(
          "df_dx", +[](const ImpulseData& d) { return MatrixXd(d.df_dx); },
          "d(Lambda)/d(dx), m x ndx, after calcDiff (a copy).");
}

// --- residuals ------------------------------------------------------------------------------

using StatePtr = std::shared_ptr<lc::StateLiedyn>;

/// Crocoddyl's Python methods of a residual, bound on `cls` (as def_action_methods).
template <class R, class Class>
Class& def_residual_methods(Class& cls) {
  using DataPtr = std::shared_ptr<::crocoddyl::ResidualDataAbstract>;
  // The terminal overloads through the abstract class: a residual may hide them.
  using Abstract = ::crocoddyl::ResidualModelAbstract;
  cls.def(
         "createData",
         +[](R& r, ::crocoddyl::DataCollectorAbstract* shared) { return r.createData(shared); },
         bp::with_custodian_and_ward_postcall<0, 2>(), bp::args("self", "data"),
         "The residual's data on the node's shared data (kept alive by it).")
      .def(
          "calc",
          +[](R& r, const DataPtr& d, const VectorRef& x, const VectorRef& u) { r.calc(d, x, u); },
          bp::args("self", "data", "x", "u"), "The residual at (x, u).")
      .def(
          "calc",
          +[](R& r, const DataPtr& d, const VectorRef& x) { static_cast<Abstract&>(r).calc(d, x); },
          bp::args("self", "data", "x"), "The residual at a terminal node.")
      .def(
          "calcDiff",
          +[](R& r, const DataPtr& d, const VectorRef& x, const VectorRef& u) {
            r.calcDiff(d, x, u);
          },
          bp::args("self", "data", "x", "u"), "Its Jacobians Rx, Ru (after calc).")
      .def(
          "calcDiff",
          +[](R& r, const DataPtr& d, const VectorRef& x) {
            static_cast<Abstract&>(r).calcDiff(d, x);
          },
          bp::args("self", "data", "x"), "Its Jacobian Rx at a terminal node.");
  return cls;
}

/// class_<R> deriving from Crocoddyl's `Base` in Python, built by `init`.
template <class R, class Base, class Init>
void bind_residual(const char* name, const char* doc, Init init) {
  bp::class_<R, bp::bases<Base>, std::shared_ptr<R>, boost::noncopyable> cls(name, doc, init);
  def_residual_methods<R>(cls);
}

std::shared_ptr<lc::ResidualModelFramePlacementLiedyn> make_frame_placement(
    const StatePtr& state, const std::string& frame, const pinocchio::SE3& pref, std::size_t nu) {
  return std::make_shared<lc::ResidualModelFramePlacementLiedyn>(
      state, frame, SE3<double>(pref.rotation(), pref.translation()), nu);
}
std::shared_ptr<lc::ResidualModelFrameVelocityLiedyn> make_frame_velocity(
    const StatePtr& state, const std::string& frame, const pinocchio::Motion& vref,
    pinocchio::ReferenceFrame type, std::size_t nu) {
  return std::make_shared<lc::ResidualModelFrameVelocityLiedyn>(state, frame, vref.toVector(), type,
                                                                nu);
}

void bind_residuals() {
  using Abstract = ::crocoddyl::ResidualModelAbstract;
  using StateAbstractPtr = std::shared_ptr<::crocoddyl::StateAbstract>;
  bp::class_<lc::ResidualModelStateLiedyn, bp::bases<::crocoddyl::ResidualModelState>,
             std::shared_ptr<lc::ResidualModelStateLiedyn>, boost::noncopyable>
      state_residual(
          "ResidualModelStateLiedyn",
          "Crocoddyl's ResidualModelState, r = xref (-) x on the state's group, with the cost "
          "derivatives a Lie-group state needs (block by block on StateLiedyn).",
          bp::init<StateAbstractPtr, VectorXd, std::size_t>(
              bp::args("self", "state", "xref", "nu")));
  state_residual.def(bp::init<StateAbstractPtr, VectorXd>(bp::args("self", "state", "xref")))
      .def(bp::init<StateAbstractPtr, std::size_t>(bp::args("self", "state", "nu")))
      .def(bp::init<StateAbstractPtr>(bp::args("self", "state")));
  def_residual_methods<lc::ResidualModelStateLiedyn>(state_residual);
  bind_residual<lc::ResidualModelFrameTranslationLiedyn, Abstract>(
      "ResidualModelFrameTranslationLiedyn",
      "Crocoddyl's ResidualModelFrameTranslation: r = p_F - xref (A's axes) for a named frame.",
      bp::init<StatePtr, std::string, Eigen::Vector3d, std::size_t>(
          bp::args("self", "state", "frame", "xref", "nu")));
  bind_residual<lc::ResidualModelFrameRotationLiedyn, Abstract>(
      "ResidualModelFrameRotationLiedyn",
      "Crocoddyl's ResidualModelFrameRotation: r = log(Rref^T R_F) for a named frame.",
      bp::init<StatePtr, std::string, Eigen::Matrix3d, std::size_t>(
          bp::args("self", "state", "frame", "Rref", "nu")));
  bp::class_<lc::ResidualModelFramePlacementLiedyn, bp::bases<Abstract>,
             std::shared_ptr<lc::ResidualModelFramePlacementLiedyn>, boost::noncopyable>
      placement("ResidualModelFramePlacementLiedyn",
                "Crocoddyl's ResidualModelFramePlacement: r = log6(pref^-1 H_F), linear first.",
                bp::no_init);
  placement.def("__init__",
                bp::make_constructor(&make_frame_placement, bp::default_call_policies(),
                                     bp::args("state", "frame", "pref", "nu")),
                "(state: StateLiedyn, frame: str, pref: pinocchio.SE3, nu: int)");
  def_residual_methods<lc::ResidualModelFramePlacementLiedyn>(placement);
  bp::class_<lc::ResidualModelFrameVelocityLiedyn, bp::bases<Abstract>,
             std::shared_ptr<lc::ResidualModelFrameVelocityLiedyn>, boost::noncopyable>
      velocity("ResidualModelFrameVelocityLiedyn",
               "Crocoddyl's ResidualModelFrameVelocity: r = v_F - vref in LOCAL, "
               "LOCAL_WORLD_ALIGNED or WORLD.",
               bp::no_init);
  velocity.def("__init__",
               bp::make_constructor(&make_frame_velocity, bp::default_call_policies(),
                                    bp::args("state", "frame", "vref", "type", "nu")),
               "(state: StateLiedyn, frame: str, vref: pinocchio.Motion, type: "
               "pinocchio.ReferenceFrame, nu: int)");
  def_residual_methods<lc::ResidualModelFrameVelocityLiedyn>(velocity);
  bind_residual<lc::ResidualModelCoMPositionLiedyn, Abstract>(
      "ResidualModelCoMPositionLiedyn",
      "Crocoddyl's ResidualModelCoMPosition: r = p_com - cref (A's axes).",
      bp::init<StatePtr, Eigen::Vector3d, std::size_t>(bp::args("self", "state", "cref", "nu")));
  bind_residual<lc::ResidualModelContactForceLiedyn, Abstract>(
      "ResidualModelContactForceLiedyn",
      "Crocoddyl's ResidualModelContactForce: r = f - fref on a contact of the node's model.",
      bp::init<StatePtr, std::string, pinocchio::Force, std::size_t, std::size_t>(
          bp::args("self", "state", "frame", "fref", "nc", "nu")));
  bind_residual<lc::ResidualModelContactFrictionConeLiedyn, Abstract>(
      "ResidualModelContactFrictionConeLiedyn",
      "Crocoddyl's ResidualModelContactFrictionCone: r = A f on a point contact of the node.",
      bp::init<StatePtr, std::string, ::crocoddyl::FrictionCone, std::size_t>(
          bp::args("self", "state", "frame", "cone", "nu")));
  bind_residual<lc::ResidualModelContactWrenchConeLiedyn, Abstract>(
      "ResidualModelContactWrenchConeLiedyn",
      "Crocoddyl's ResidualModelContactWrenchCone: r = A f on a rigid contact of the node.",
      bp::init<StatePtr, std::string, ::crocoddyl::WrenchCone, std::size_t>(
          bp::args("self", "state", "frame", "cone", "nu")));
}

}  // namespace python_crocoddyl
}  // namespace liedyn

BOOST_PYTHON_MODULE(_crocoddyl) {
  namespace lp = liedyn::python_crocoddyl;
  namespace bp = boost::python;
  // Crocoddyl's and Pinocchio's modules register the base classes and argument types.
  bp::import("crocoddyl");
  eigenpy::enableEigenPy();
  bp::scope().attr("__version__") = liedyn::version_string;
  lp::translate_to<liedyn::InvalidArgument>("InvalidArgument");
  lp::translate_to<liedyn::ModelError>("ModelError");
  lp::translate_to<liedyn::ConstraintError>("ConstraintError");  // after ModelError, its base
  lp::bind_state();
  lp::bind_contacts();
  lp::bind_action_models();
  lp::bind_residuals();
}
