// liedyn — model: mass properties of a triangle mesh as MuJoCo's compiler computes them for a
// mesh geom (internal, used by mjcf.hpp): the convex hull of a vertex cloud, then the volume,
// centre of mass and inertia of the solid it bounds. Needs Eigen and the standard library only.
//
// MuJoCo (src/user/user_mesh.cc, mjCMesh::Process): a mesh given by vertices alone is replaced by
// their convex hull (qhull, triangulated). The surface centroid c_s (triangle centroids weighted
// by area) is the apex of one pyramid per triangle, whose signed volumes and centroids give the
// volume and the centre of mass c; the second moments are then summed over the tetrahedra
// (c, a, b, d) of the triangles (a, b, d), and the volume recomputed from them. "legacy" (the
// default of the <mesh inertia> attribute) takes each pyramid's and tetrahedron's volume as
// positive; "exact" keeps the sign; "convex" uses the hull's triangles whatever the faces.
// MuJoCo stores the vertices as float: they are rounded to float here too.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace liedyn {
namespace detail {
namespace mesh {

/// A triangle mesh: vertices and triangles (vertex indices, counter-clockwise seen from outside).
struct TriMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<Eigen::Vector3i> triangles;
};

/// What MuJoCo's <mesh inertia> asks for (the shell, a surface mass, is not reproduced).
enum class InertiaMode { legacy, exact, convex };

/// A solid's volume, centre of mass and inertia about it per unit density.
struct MassProperties {
  double volume = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

/// The 2D convex hull (Andrew's monotone chain) of points `idx`, counter-clockwise in the (u, w)
/// coordinates given; points on an edge are left out (they add nothing to the triangles).
inline std::vector<int> polygon_hull(const std::vector<int>& idx, const std::vector<double>& u,
                                     const std::vector<double>& w) {
  std::vector<int> order(idx.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return u[a] < u[b] || (u[a] == u[b] && w[a] < w[b]); });
  const auto cross = [&](int o, int a, int b) {
    return (u[a] - u[o]) * (w[b] - w[o]) - (w[a] - w[o]) * (u[b] - u[o]);
  };
  std::vector<int> hull(2 * order.size());
  std::size_t k = 0;
  const auto add = [&](int p, std::size_t floor) {
    while (k >= floor && cross(hull[k - 2], hull[k - 1], p) <= 0.0) --k;
    hull[k++] = p;
  };
  for (int p : order) add(p, 2);  // the lower chain
  const std::size_t lower = k + 1;
  for (std::size_t n = order.size() - 1; n-- > 0;) add(order[n], lower);  // the upper chain
  --k;  // the first point closed the chain
  hull.resize(k);
  for (int& p : hull) p = idx[p];
  return hull;
}

/// Whether the plane through vertices i, j, k (normal n, unit) has every vertex on one side,
/// within `tol`; n is turned to point away from them.
inline bool supporting(const std::vector<Eigen::Vector3d>& v, int i, Eigen::Vector3d& n,
                       double tol) {
  int side = 0;
  for (const Eigen::Vector3d& p : v) {
    const double d = n.dot(p - v[i]);
    if (std::abs(d) <= tol) continue;
    const int s = d > 0.0 ? 1 : -1;
    if (side == 0) side = s;
    else if (s != side) return false;
  }
  if (side > 0) n = -n;
  return side != 0;
}

/// Appends the fan of the polygon of hull.vertices on the plane n·x = offset (n outward).
inline void add_face(TriMesh& hull, const Eigen::Vector3d& n, double offset, double tol) {
  // (e1, e2, n) right-handed: counter-clockwise in (u, w) is counter-clockwise seen from outside.
  const Eigen::Vector3d e1 = n.unitOrthogonal(), e2 = n.cross(e1);
  std::vector<int> idx;
  std::vector<double> u, w;
  for (std::size_t p = 0; p < hull.vertices.size(); ++p)
    if (std::abs(n.dot(hull.vertices[p]) - offset) <= tol) {
      idx.push_back(static_cast<int>(p));
      u.push_back(e1.dot(hull.vertices[p]));
      w.push_back(e2.dot(hull.vertices[p]));
    }
  const std::vector<int> poly = polygon_hull(idx, u, w);
  for (std::size_t k = 1; k + 1 < poly.size(); ++k)
    hull.triangles.emplace_back(poly[0], poly[k], poly[k + 1]);
}

/// The convex hull of `points` as outward triangles. Every plane through three vertices with all
/// the others on one side is a face; its coplanar vertices form a convex polygon, cut into a fan.
/// Meant for the small vertex clouds written inline in a model (the cost grows with n^3 planes
/// tried, most rejected after a few points). Throws std::invalid_argument when the points span
/// no volume (fewer than 4, or all on a plane).
inline TriMesh convex_hull(const std::vector<Eigen::Vector3d>& points) {
  TriMesh hull;
  hull.vertices = points;
  const int n = static_cast<int>(points.size());
  if (n < 4) throw std::invalid_argument("at least 4 vertices are needed for a volume");
  double size = 0.0;
  for (const Eigen::Vector3d& p : points) size = std::max(size, (p - points[0]).norm());
  // Coplanarity to a relative 1e-10 of the cloud's size: far above double rounding of the
  // coordinates, far below any face a model means.
  const double tol = 1e-10 * size;
  std::vector<std::pair<Eigen::Vector3d, double>> planes;  // found faces: outward normal, offset
  const auto known = [&](int i, int j, int k) {
    for (const auto& pl : planes)
      if (std::abs(pl.first.dot(points[i]) - pl.second) <= tol &&
          std::abs(pl.first.dot(points[j]) - pl.second) <= tol &&
          std::abs(pl.first.dot(points[k]) - pl.second) <= tol)
        return true;
    return false;
  };
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        Eigen::Vector3d nrm = (points[j] - points[i]).cross(points[k] - points[i]);
        if (!(nrm.norm() > tol * size)) continue;  // collinear
        nrm.normalize();
        if (!supporting(points, i, nrm, tol) || known(i, j, k)) continue;
        planes.emplace_back(nrm, nrm.dot(points[i]));
        add_face(hull, nrm, nrm.dot(points[i]), tol);
      }
  if (planes.empty()) throw std::invalid_argument("the vertices lie on one plane (no volume)");
  return hull;
}

/// A triangle's area, unit normal and centroid, as MuJoCo's triangle() (area 0 below 1e-15).
inline double triangle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                       Eigen::Vector3d& normal, Eigen::Vector3d& center) {
  center = (a + b + c) / 3.0;
  normal = (b - a).cross(c - a);
  const double len = normal.norm();
  if (len < 1e-15) return 0.0;
  normal /= len;
  return 0.5 * len;
}

/// The area-weighted centroid of the surface (MuJoCo's facecen); throws on a zero area.
inline Eigen::Vector3d surface_centroid(const TriMesh& m) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero(), nrm, cen;
  double area = 0.0;
  for (const Eigen::Vector3i& t : m.triangles) {
    const double a = triangle(m.vertices[t(0)], m.vertices[t(1)], m.vertices[t(2)], nrm, cen);
    sum += a * cen;
    area += a;
  }
  if (area < 1e-15) throw std::invalid_argument("the mesh's surface area is too small");
  return sum / area;
}

/// Volume, centre of mass and inertia about it (per unit density) of the solid bounded by
/// `volume_mesh`, MuJoCo's way: pyramids from the centroid `apex` of the surface for the volume
/// and centre, then tetrahedra from the centre for the second moments, whose covariance over a
/// tetrahedron (0, D, E, F) is V/20 (D D^T + E E^T + F F^T + S S^T), S = D + E + F (Tonon,
/// "Explicit exact formulas for the 3-D tetrahedron inertia tensor", 2004; MuJoCo's
/// ComputeInertia). InertiaMode::legacy takes every volume as positive.
inline MassProperties solid_properties(const TriMesh& volume_mesh, const Eigen::Vector3d& apex,
                                       InertiaMode mode) {
  const bool legacy = mode == InertiaMode::legacy;
  MassProperties out;
  const std::vector<Eigen::Vector3d>& v = volume_mesh.vertices;
  Eigen::Vector3d nrm, cen, com = Eigen::Vector3d::Zero();
  double volume = 0.0;
  for (const Eigen::Vector3i& t : volume_mesh.triangles) {
    const double a = triangle(v[t(0)], v[t(1)], v[t(2)], nrm, cen);
    double vol = (cen - apex).dot(nrm) * a / 3.0;
    if (legacy) vol = std::abs(vol);
    volume += vol;
    com += vol * (0.75 * cen + 0.25 * apex);  // a pyramid's centroid
  }
  if (volume < 1e-15)
    throw std::invalid_argument(volume < 0.0 ? "the mesh's volume is negative (inward triangles)"
                                             : "the mesh's volume is too small");
  out.com = com / volume;
  Eigen::Matrix3d P = Eigen::Matrix3d::Zero();  // second moments about the centre
  for (const Eigen::Vector3i& t : volume_mesh.triangles) {
    const Eigen::Vector3d D = v[t(0)] - out.com, E = v[t(1)] - out.com, F = v[t(2)] - out.com;
    const double a = triangle(D, E, F, nrm, cen);
    double vol = cen.dot(nrm) * a / 3.0;
    if (legacy) vol = std::abs(vol);
    out.volume += vol;
    const Eigen::Vector3d S = D + E + F;
    P += vol / 20.0 *
         (D * D.transpose() + E * E.transpose() + F * F.transpose() + S * S.transpose());
  }
  out.inertia = P.trace() * Eigen::Matrix3d::Identity() - P;
  return out;
}

/// The mass properties MuJoCo gives a mesh of `vertices` (each coordinate rounded to float, as
/// MuJoCo stores them, then scaled by `scale`) and `triangles` (empty: the convex hull's).
inline MassProperties mesh_properties(const std::vector<Eigen::Vector3d>& vertices,
                                      const std::vector<Eigen::Vector3i>& triangles,
                                      const Eigen::Vector3d& scale, InertiaMode mode) {
  std::vector<Eigen::Vector3d> v(vertices.size());
  for (std::size_t k = 0; k < v.size(); ++k)
    v[k] = vertices[k].cast<float>().cast<double>().cwiseProduct(scale);
  TriMesh surface{v, triangles};
  const bool need_hull = triangles.empty() || mode == InertiaMode::convex;
  const TriMesh hull = need_hull ? convex_hull(v) : TriMesh{};
  if (triangles.empty()) surface = hull;
  const Eigen::Vector3d apex = surface_centroid(surface);
  return solid_properties(mode == InertiaMode::convex ? hull : surface, apex, mode);
}

}  // namespace mesh
}  // namespace detail
}  // namespace liedyn
