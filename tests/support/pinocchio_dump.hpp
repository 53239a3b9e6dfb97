// liedyn tests — the reader of Pinocchio reference dumps (tests/data/*.seed*.txt and
// *.contacts*.txt), shared by every test that compares against Pinocchio 3.7.
//
// A dump is line-oriented text, one record per line:
//   nq N | nv N | gravity gx gy gz
//   joint I NAME TYPE                (Pinocchio joint index I; 0 universe, 1 root_joint)
//   oMi I r00 r01 ... r22 px py pz   (world pose of joint I, rotation row-major)
//   contact K FRAME DIM              (constrained dumps: the K-th contact, 3 or 6 rows)
//   meta reference_frame LOCAL|LOCAL_WORLD_ALIGNED
//   vec NAME N v1 .. vN
//   mat NAME R C, then R lines of C numbers
//   end                              (a truncated file would silently lose records)
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "liedyn/spatial.hpp"

namespace liedyn {
namespace test {

/// One `joint` record of a format-2 dump: Pinocchio's joint I, its parent and index ranges.
struct PinocchioJoint {
  int index = 0;
  std::string name, type;
  int parent = -1, idx_q = 0, nq = 0, idx_v = 0, nv = 0;
};

/// Every record of one Pinocchio dump; accessors REQUIRE the record to exist.
struct PinocchioDump {
  int nq = 0, nv = 0;
  Vector3<double> gravity = Vector3<double>::Zero();
  std::vector<std::string> joint_names;  ///< Pinocchio's joints 2.. (after universe, root_joint)
  std::vector<std::string> joint_types;  ///< same order
  std::vector<int> joint_index;          ///< Pinocchio joint index I of each entry above
  std::map<int, SE3<double>> oMi;        ///< world pose of joint I
  std::vector<std::string> contact_frames;
  std::vector<int> contact_dims;
  std::string reference_frame;
  std::map<std::string, VectorX<double>> vecs;
  std::map<std::string, MatrixX<double>> mats;
  // Format 2 (tests/data/pinocchio4/README.md): every joint, the universe included, with the
  // root free flyer flagged by `meta freeflyer`; axes, placements and subspaces by joint index.
  bool freeflyer = false;
  std::vector<PinocchioJoint> joints;
  std::map<int, std::vector<Vector3<double>>> axes;
  std::map<int, SE3<double>> placements;
  std::map<int, MatrixX<double>> subspaces;  ///< S at q, 6 × nv, child frame
  /// Body I's twist and acceleration (no gravity) in its own frame at (q, v, a): Pinocchio's
  /// data.v and data.a after forwardKinematics.
  std::map<int, Vector6<double>> body_velocities, body_accelerations;

  const VectorX<double>& vec(const std::string& name) const {
    INFO("vec " << name);
    REQUIRE(vecs.count(name) == 1);
    return vecs.at(name);
  }
  const MatrixX<double>& mat(const std::string& name) const {
    INFO("mat " << name);
    REQUIRE(mats.count(name) == 1);
    return mats.at(name);
  }
};

inline PinocchioDump read_pinocchio_dump(const std::string& path) {
  INFO("dump " << path);
  std::ifstream in(path);
  REQUIRE(in.good());
  PinocchioDump d;
  bool ended = false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "nq") {
      s >> d.nq;
    } else if (key == "nv") {
      s >> d.nv;
    } else if (key == "gravity") {
      s >> d.gravity(0) >> d.gravity(1) >> d.gravity(2);
    } else if (key == "meta") {
      std::string what;
      s >> what;
      if (what == "reference_frame") s >> d.reference_frame;
      if (what == "freeflyer") {
        int f = 0;
        s >> f;
        d.freeflyer = f == 1;
      }
    } else if (key == "joint") {
      int index = 0;
      std::string name, type;
      s >> index >> name >> type;
      PinocchioJoint j{index, name, type};
      if (s >> j.parent >> j.idx_q >> j.nq >> j.idx_v >> j.nv) d.joints.push_back(j);
      if (index >= 2) {
        d.joint_index.push_back(index);
        d.joint_names.push_back(name);
        d.joint_types.push_back(type);
      }
    } else if (key == "oMi") {
      int index = 0;
      Matrix3<double> R;
      Vector3<double> p;
      s >> index;
      for (int k = 0; k < 9; ++k) s >> R(k / 3, k % 3);
      s >> p(0) >> p(1) >> p(2);
      REQUIRE(!s.fail());
      d.oMi[index] = SE3<double>(R, p);
    } else if (key == "placement") {
      int index = 0;
      Matrix3<double> R;
      Vector3<double> p;
      s >> index;
      for (int k = 0; k < 9; ++k) s >> R(k / 3, k % 3);
      s >> p(0) >> p(1) >> p(2);
      REQUIRE(!s.fail());
      d.placements[index] = SE3<double>(R, p);
    } else if (key == "axis") {
      int index = 0, k = 0;
      Vector3<double> a;
      s >> index >> k >> a(0) >> a(1) >> a(2);
      REQUIRE(!s.fail());
      d.axes[index].push_back(a);
    } else if (key == "vJ" || key == "aJ") {
      int index = 0;
      Vector6<double> m;
      s >> index;
      for (int k = 0; k < 6; ++k) s >> m(k);
      REQUIRE(!s.fail());
      (key == "vJ" ? d.body_velocities : d.body_accelerations)[index] = m;
    } else if (key == "S") {
      int index = 0, nv = 0;
      s >> index >> nv;
      MatrixX<double> S(6, nv);
      for (int k = 0; k < 6 * nv; ++k) s >> S(k / nv, k % nv);
      REQUIRE(!s.fail());
      d.subspaces[index] = S;
    } else if (key == "contact") {
      int k = 0, dim = 0;
      std::string frame;
      s >> k >> frame >> dim;
      REQUIRE(!s.fail());
      d.contact_frames.push_back(frame);
      d.contact_dims.push_back(dim);
    } else if (key == "vec") {
      std::string name;
      int n = 0;
      s >> name >> n;
      VectorX<double> v(n);
      for (int k = 0; k < n; ++k) s >> v(k);
      REQUIRE(!s.fail());
      d.vecs[name] = v;
    } else if (key == "mat") {
      std::string name;
      int r = 0, c = 0;
      s >> name >> r >> c;
      MatrixX<double> m(r, c);
      for (int i = 0; i < r; ++i) {
        REQUIRE(std::getline(in, line));
        std::istringstream row(line);
        for (int j = 0; j < c; ++j) row >> m(i, j);
        REQUIRE(!row.fail());
      }
      d.mats[name] = m;
    } else if (key == "end") {
      ended = true;
    }
  }
  REQUIRE(ended);
  return d;
}

}  // namespace test
}  // namespace liedyn
