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
    } else if (key == "joint") {
      int index = 0;
      std::string name, type;
      s >> index >> name >> type;
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
