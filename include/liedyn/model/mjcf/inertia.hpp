// liedyn — model: the MJCF loader's third stage (mjcf.hpp): each body's inertia, from its
// <inertial> or its geoms, with MuJoCo's compiler rules and liedyn's inertia policy. Internal
// (detail::mjcf).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "liedyn/model/builder.hpp"
#include "liedyn/model/mesh_inertia.hpp"
#include "liedyn/model/mjcf/tree.hpp"

namespace liedyn {
namespace detail {
namespace mjcf {

/// Each body's inertia in its frame (by MuJoCo's body id; the world's is zero) and what the
/// inertia policy said of them.
struct Inertias {
  std::vector<SpatialInertia<double>> of_body;
  std::vector<ModelDiagnostic> diagnostics;
};

/// The mass properties of the <mesh> assets by name, computed on first use.
using MeshCache = std::map<std::string, mesh::MassProperties>;

/// A mass with its centre and its rotational inertia about the centre, in the body frame.
struct MassDistribution {
  double mass = 0.0;
  Vector3<double> com = Vector3<double>::Zero();
  Matrix3<double> inertia = Matrix3<double>::Zero();
};

/// Principal moments and axes of I_c, with MuJoCo's compiler rules (balance, bounds) applied.
inline Matrix3<double> compiler_rules(const Compiler& compiler, double& m,
                                      const Matrix3<double>& Ic) {
  const bool rules = compiler.balanceinertia || compiler.boundinertia > 0.0;
  if (compiler.boundmass > 0.0 && m < compiler.boundmass) m = compiler.boundmass;
  if (!rules) return Ic;
  const Eigen::SelfAdjointEigenSolver<Matrix3<double>> es(Ic);
  Vector3<double> d = es.eigenvalues();
  if (compiler.balanceinertia && (d(0) + d(1) < d(2) || d(0) + d(2) < d(1) || d(1) + d(2) < d(0)))
    d.setConstant(d.sum() / 3.0);
  for (int k = 0; k < 3; ++k) d(k) = std::max(d(k), compiler.boundinertia);
  return es.eigenvectors() * d.asDiagonal() * es.eigenvectors().transpose();
}

/// A geom of mass m whose centre is c and inertia m I1 about it (I1 per unit mass), both in the
/// geom frame X, in the body frame.
inline SpatialInertia<double> solid_inertia(const Document& doc, const SE3<double>& X, double m,
                                            const Vector3<double>& c, const Matrix3<double>& I1,
                                            const XMLElement* el, const std::string& who) {
  if (m < 0.0) fail(doc, el, who + ": negative mass");
  const Matrix3<double> Ig = X.rotation() * (m * I1) * X.rotation().transpose();
  return SpatialInertia<double>::from_mass_com_inertia(m, X.act_point(c), Ig);
}

/// An inline <mesh>'s vertices, faces, scale and inertia mode, and its mass properties.
inline mesh::MassProperties read_mesh(const Document& doc, const XMLElement* el,
                                      const std::string& who) {
  const std::string cls = class_of(doc, el, "main");
  for (const char* attr : {"plugin", "refpos", "refquat", "content_type"})
    if (get(doc, el, "mesh", cls, attr))
      fail(doc, el, who + ": attribute '" + attr + "' is not supported");
  const Attr va = get(doc, el, "mesh", cls, "vertex");
  if (!va) fail(doc, el, who + ": no 'vertex' (and no 'file')");
  const std::vector<double> v = number_list(doc, va, who, "vertex");
  if (v.size() % 3 != 0)
    fail(doc, va.where, who + ": attribute 'vertex': not a multiple of 3 numbers");
  std::vector<Eigen::Vector3d> vertices;
  for (std::size_t k = 0; k < v.size(); k += 3) vertices.emplace_back(v[k], v[k + 1], v[k + 2]);
  std::vector<Eigen::Vector3i> faces;
  if (const Attr fa = get(doc, el, "mesh", cls, "face")) {
    const std::vector<double> f = number_list(doc, fa, who, "face");
    if (f.size() % 3 != 0)
      fail(doc, fa.where, who + ": attribute 'face': not a multiple of 3 numbers");
    for (double i : f)
      if (i != std::floor(i) || i < 0.0 || i >= static_cast<double>(vertices.size()))
        fail(doc, fa.where,
             who + ": attribute 'face': " + std::to_string(i) + " is not the index of a vertex");
    for (std::size_t k = 0; k < f.size(); k += 3)
      faces.emplace_back(int(f[k]), int(f[k + 1]), int(f[k + 2]));
  }
  const Vector3<double> scale = read3(doc, el, "mesh", cls, "scale", Vector3<double>::Ones(), who);
  mesh::InertiaMode mode = mesh::InertiaMode::legacy;  // MuJoCo 4's default
  if (const Attr ia = get(doc, el, "mesh", cls, "inertia")) {
    const std::string k = keyword(doc, ia, who, "inertia", {"legacy", "exact", "convex", "shell"});
    if (k == "shell") fail(doc, ia.where, who + ": inertia='shell' is not supported");
    mode = k == "exact"    ? mesh::InertiaMode::exact
           : k == "convex" ? mesh::InertiaMode::convex
                           : mesh::InertiaMode::legacy;
  }
  // qhull's vertex limit changes the hull; liedyn's hull keeps every vertex.
  const double maxhullvert = read1(doc, el, "mesh", cls, "maxhullvert", -1.0, who);
  if (maxhullvert >= 0.0 && maxhullvert < static_cast<double>(vertices.size()) &&
      (faces.empty() || mode == mesh::InertiaMode::convex))
    fail(doc, el, who + ": maxhullvert below the number of vertices is not supported");
  try {
    return mesh::mesh_properties(vertices, faces, scale, mode);
  } catch (const std::invalid_argument& e) {
    fail(doc, el, who + ": " + e.what());
  }
}
/// The mass properties of the mesh of a mesh geom (computed once per mesh): MuJoCo's for a mesh
/// given inline by 'vertex' (and 'face'); a mesh from a file is an error.
inline const mesh::MassProperties& mesh_of(const Document& doc, const XMLElement* geom,
                                           const std::string& cls, const std::string& who,
                                           const std::string& body, MeshCache& cache) {
  const Attr ma = get(doc, geom, "geom", cls, "mesh");
  if (!ma) fail(doc, geom, who + ": a mesh geom without 'mesh'");
  const auto found = doc.meshes.find(ma.text);
  if (found == doc.meshes.end())
    fail(doc, ma.where, who + ": attribute 'mesh': no <mesh> named '" + std::string(ma.text) + "'");
  const XMLElement* el = found->second;
  if (const char* file = el->Attribute("file"))
    fail(doc, geom,
         "body '" + body + "': its inertia would come from a mesh file '" + file + "' (geom " +
             element_name(geom) +
             "; liedyn reads meshes given inline by 'vertex' and 'face'; give the body an "
             "<inertial>)");
  const auto cached = cache.find(ma.text);
  if (cached != cache.end()) return cached->second;
  return cache[ma.text] = read_mesh(doc, el, "<mesh> '" + std::string(ma.text) + "'");
}

/// A primitive geom's frame in the body frame and its sizes, from 'fromto' or its pose.
struct GeomShape {
  SE3<double> frame;
  double size[3] = {0, 0, 0};
};

inline GeomShape geom_shape(const Document& doc, const XMLElement* el, const std::string& cls,
                            const std::string& who, const std::string& type) {
  GeomShape shape;
  double* size = shape.size;
  const Attr sa = get(doc, el, "geom", cls, "size");
  const int ns = sa ? std::min(xml::count_tokens(sa.text), 3) : 0;
  if (sa) numbers(doc, sa, who, "size", std::max(ns, 1), size);
  double ft[6];
  if (read(doc, el, "geom", cls, "fromto", 6, ft, who)) {
    const Vector3<double> a(ft[0], ft[1], ft[2]), b(ft[3], ft[4], ft[5]);
    const Vector3<double> d = b - a;
    if (!(d.norm() > kMinVal)) fail(doc, el, who + ": 'fromto' has coincident ends");
    if (type == "sphere") fail(doc, el, who + ": 'fromto' on a sphere");
    shape.frame = SE3<double>(z_rotation(d.normalized()), Vector3<double>(0.5 * (a + b)));
    const double half = 0.5 * d.norm();
    if (type == "capsule" || type == "cylinder") size[1] = half;
    else {
      if (ns < 2) fail(doc, el, who + ": a " + type + " with 'fromto' needs 2 sizes");
      size[2] = half;
    }
  } else {
    shape.frame = pose(doc, el, "geom", cls, who);
    const int need = type == "sphere" ? 1 : (type == "capsule" || type == "cylinder") ? 2 : 3;
    if (ns < need)
      fail(doc, el, who + ": a " + type + " needs " + std::to_string(need) + " size numbers");
  }
  for (double s : shape.size)
    if (s < 0.0) fail(doc, el, who + ": negative size");
  return shape;
}

/// A primitive solid's volume and principal moments per unit mass about its centre.
struct UnitSolid {
  double volume = 0.0;
  Vector3<double> moments;
};

/// MuJoCo's volumes and solid-body formulas for a sphere, capsule, cylinder, box or ellipsoid.
inline UnitSolid unit_solid(const std::string& type, const double* size) {
  UnitSolid out;
  double& volume = out.volume;
  Vector3<double>& I = out.moments;
  const double r = size[0];
  if (type == "sphere") {
    volume = 4.0 / 3.0 * kPi * r * r * r;
    I.setConstant(0.4 * r * r);
  } else if (type == "capsule") {
    const double h = 2.0 * size[1];
    volume = kPi * r * r * h + 4.0 / 3.0 * kPi * r * r * r;
    // A cylinder and two hemispheres, each about the capsule's centre.
    const double ms = 4.0 / 3.0 * r / (4.0 / 3.0 * r + h);  // hemispheres' share of the mass
    const double mc = 1.0 - ms;
    I(0) = mc * (3 * r * r + h * h) / 12 + ms * (0.4 * r * r + 0.25 * h * h + 3.0 / 8.0 * r * h);
    I(1) = I(0);
    I(2) = mc * r * r / 2 + ms * 0.4 * r * r;
  } else if (type == "cylinder") {
    const double h = 2.0 * size[1];
    volume = kPi * r * r * h;
    I(0) = I(1) = (3 * r * r + h * h) / 12;
    I(2) = r * r / 2;
  } else if (type == "box") {
    volume = 8.0 * size[0] * size[1] * size[2];
    I(0) = (size[1] * size[1] + size[2] * size[2]) / 3;
    I(1) = (size[0] * size[0] + size[2] * size[2]) / 3;
    I(2) = (size[0] * size[0] + size[1] * size[1]) / 3;
  } else {  // ellipsoid
    volume = 4.0 / 3.0 * kPi * size[0] * size[1] * size[2];
    I(0) = (size[1] * size[1] + size[2] * size[2]) / 5;
    I(1) = (size[0] * size[0] + size[2] * size[2]) / 5;
    I(2) = (size[0] * size[0] + size[1] * size[1]) / 5;
  }
  return out;
}

/// A primitive or inline mesh geom's inertia in the body frame (zero for a geom outside
/// <compiler inertiagrouprange> or without mass).
inline SpatialInertia<double> geom_inertia(const Document& doc, const Item& it,
                                           const std::string& body, MeshCache& cache) {
  const XMLElement* el = it.el;
  const std::string cls = class_of(doc, el, it.cls);
  const std::string who = "geom " + element_name(el) + "of body '" + body + "'";
  const Attr t = get(doc, el, "geom", cls, "type");
  const std::string type = t ? t.text : "sphere";
  const double group = read1(doc, el, "geom", cls, "group", 0.0, who);
  if (group < doc.compiler.group_lo || group > doc.compiler.group_hi)
    return SpatialInertia<double>();
  double mass = -1.0;
  const bool has_mass = read(doc, el, "geom", cls, "mass", 1, &mass, who);
  const double density = read1(doc, el, "geom", cls, "density", 1000.0, who);
  if (has_mass ? mass == 0.0 : density == 0.0) return SpatialInertia<double>();
  if (type != "sphere" && type != "capsule" && type != "cylinder" && type != "box" &&
      type != "ellipsoid" && type != "mesh")
    fail(doc, el,
         "body '" + body + "': its inertia would come from a " + type + " geom " +
             element_name(el) +
             "(only primitive and inline mesh geoms are supported; give the body an "
             "<inertial>)");
  if (const Attr s = get(doc, el, "geom", cls, "shellinertia"))
    if (read_bool(doc, s, who, "shellinertia"))
      fail(doc, el, who + ": shellinertia is not supported (give the body an <inertial>)");
  if (type != "mesh")
    if (const Attr ma = get(doc, el, "geom", cls, "mesh"))
      fail(doc, el,
           who + ": a " + type + " fitted to mesh '" + ma.text +
               "' (MuJoCo sizes it from the mesh) is not supported; give the body an "
               "<inertial>");
  if (type == "mesh") {
    const mesh::MassProperties& p = mesh_of(doc, el, cls, who, body, cache);
    return solid_inertia(doc, pose(doc, el, "geom", cls, who), has_mass ? mass : density * p.volume,
                         p.com, p.inertia / p.volume, el, who);
  }
  const GeomShape shape = geom_shape(doc, el, cls, who, type);
  const UnitSolid solid = unit_solid(type, shape.size);
  return solid_inertia(doc, shape.frame, has_mass ? mass : density * solid.volume,
                       Vector3<double>::Zero(), Matrix3<double>(solid.moments.asDiagonal()), el,
                       who);
}

/// The mass distribution an <inertial> writes, in the body frame.
inline MassDistribution written_inertia(const Document& doc, const XMLElement* inertial,
                                        const std::string& iwho) {
  MassDistribution out;
  const SE3<double> X = pose(doc, inertial, "", "", iwho);
  double v[6];
  if (!read(doc, inertial, "", "", "mass", 1, v, iwho)) fail(doc, inertial, iwho + ": no 'mass'");
  out.mass = v[0];
  out.com = X.translation();
  const bool diag = inertial->Attribute("diaginertia");
  const bool full = inertial->Attribute("fullinertia");
  if (diag && full) fail(doc, inertial, iwho + ": both diaginertia and fullinertia");
  if (!diag && !full) fail(doc, inertial, iwho + ": no diaginertia or fullinertia");
  if (diag) {
    read(doc, inertial, "", "", "diaginertia", 3, v, iwho);
    out.inertia =
        X.rotation() * Vector3<double>(v[0], v[1], v[2]).asDiagonal() * X.rotation().transpose();
  } else {
    // MuJoCo's order: Ixx Iyy Izz Ixy Ixz Iyz.
    read(doc, inertial, "", "", "fullinertia", 6, v, iwho);
    Matrix3<double> F;
    F << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
    out.inertia = X.rotation() * F * X.rotation().transpose();
  }
  return out;
}

/// A body's inertia from its geoms or its <inertial> (as <compiler inertiafromgeom> says), with
/// the compiler rules and the inertia policy applied; the policy's diagnostics go to
/// `diagnostics`.
inline SpatialInertia<double> body_inertia(const Document& doc, const BodyInfo& b,
                                           const MjcfOptions& opt, MeshCache& cache,
                                           std::vector<ModelDiagnostic>& diagnostics) {
  const std::string who = "body '" + b.name + "'";
  const InertiaFromGeom rule = doc.compiler.inertia_from_geom;
  const bool from_geoms =
      rule == InertiaFromGeom::always || (rule == InertiaFromGeom::without_inertial && !b.inertial);
  MassDistribution written;
  const XMLElement* at = b.inertial ? b.inertial : b.el;
  if (from_geoms) {
    SpatialInertia<double> sum;
    for (const Item& g : b.geoms) sum += geom_inertia(doc, g, b.name, cache);
    written.mass = sum.mass();
    if (written.mass > 0.0) {
      written.com = sum.com();
      written.inertia = sum.inertia_com();
    }
  } else if (b.inertial) {
    written = written_inertia(doc, b.inertial, who + " <inertial>");
  }
  double m = written.mass;
  if (m < 0.0) fail(doc, at, who + ": negative mass");
  Matrix3<double> Ic = compiler_rules(doc.compiler, m, written.inertia);
  const InertiaReview review = review_inertia(m, Ic, Ic.cwiseAbs().maxCoeff());
  std::vector<ModelDiagnostic> diags;
  double delta = 0.0;
  try {
    delta = apply_inertia_policy(review, opt.inertia, InertiaCheck::Physical, b.name, "", diags);
  } catch (const ModelError& e) {
    fail(doc, at, who + ": " + e.what());
  }
  for (ModelDiagnostic& d : diags) {
    d.message = where(doc, at) + d.message;
    diagnostics.push_back(d);
  }
  Ic.diagonal().array() += delta;
  return SpatialInertia<double>::from_mass_com_inertia(m, written.com, Ic);
}

/// Stage 3: the inertia of every body but the world.
inline Inertias body_inertias(const Document& doc, const Tree& tree, const MjcfOptions& opt) {
  Inertias out;
  out.of_body.resize(tree.bodies.size());
  MeshCache cache;
  for (std::size_t i = 1; i < tree.bodies.size(); ++i)
    out.of_body[i] = body_inertia(doc, tree.bodies[i], opt, cache, out.diagnostics);
  return out;
}

}  // namespace mjcf
}  // namespace detail
}  // namespace liedyn
