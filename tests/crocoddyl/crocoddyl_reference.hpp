// liedyn tests — the Crocoddyl bridge's reference files (tests/data/crocoddyl/*.txt, written by
// scripts/generate_crocoddyl_reference.py) and the helpers the bridge's test files share: the
// reader, the scaled error, the generator's cost sum, a robot loaded with its joint permutation
// and the conversion matrices of docs/crocoddyl.md.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <crocoddyl/core/costs/cost-sum.hpp>
#include <crocoddyl/core/costs/residual.hpp>
#include <crocoddyl/core/residuals/control.hpp>

#include <liedyn/crocoddyl/all.hpp>
#include <liedyn/model/armature.hpp>
#include <liedyn/model/urdf.hpp>

namespace croc_test {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using liedyn::Model;
using liedyn::crocoddyl::Actuation;
using liedyn::crocoddyl::DifferentialActionModelFreeFwdDynamicsLiedyn;
using liedyn::crocoddyl::ResidualModelStateLiedyn;
using liedyn::crocoddyl::StateLiedyn;
using liedyn::interop::JointPermutation;

inline const std::string kData = LIEDYN_TEST_DATA_DIR;

// The generator's cost weights (scripts/generate_crocoddyl_reference.py, W_STATE, W_CONTROL).
constexpr double kStateWeight = 2.0;
constexpr double kControlWeight = 0.5;

// Agreement with Crocoddyl's Pinocchio-backed numbers, relative to the largest entry of the
// reference quantity (or 1 when all are below 1): two exact implementations of the same
// mathematics in double, differing by rounding only, which stays near 1e-12 even for talos'
// M⁻¹-amplified Fx.
constexpr double kReferenceTol = 1e-9;

// --- the reference file ---------------------------------------------------------------------

struct Reference {
  int nq = 0, nv = 0, nu = 0, samples = 0;
  std::vector<std::string> joint_names;  // Pinocchio's joints 2.., in its order
  std::map<std::string, VectorXd> vecs;
  std::map<std::string, MatrixXd> mats;
  std::map<std::string, std::vector<std::string>> words;  // any other record: its words

  const VectorXd& vec(const std::string& name) const {
    INFO("vec " << name);
    REQUIRE(vecs.count(name) == 1);
    return vecs.at(name);
  }
  const MatrixXd& mat(const std::string& name) const {
    INFO("mat " << name);
    REQUIRE(mats.count(name) == 1);
    return mats.at(name);
  }
};

// One number in any form strtod reads, "nan" and "inf" included (operator>> refuses them: the
// state bounds of a free-flyer are NaN in Crocoddyl's StateMultibody). Sets failbit otherwise.
inline void read_number(std::istream& s, double& v) {
  std::string w;
  if (!(s >> w)) return;
  char* end = nullptr;
  v = std::strtod(w.c_str(), &end);
  if (end != w.c_str() + w.size()) s.setstate(std::ios::failbit);
}

inline Reference read_reference(const std::string& path) {
  INFO("reference " << path);
  std::ifstream in(path);
  REQUIRE(in.good());
  Reference r;
  bool ended = false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key, name;
    s >> key;
    if (key == "nq") s >> r.nq;
    else if (key == "nv") s >> r.nv;
    else if (key == "nu") s >> r.nu;
    else if (key == "samples") s >> r.samples;
    else if (key == "joint") {
      int index = 0;
      s >> index >> name;
      r.joint_names.push_back(name);
    } else if (key == "vec") {
      int n = 0;
      s >> name >> n;
      VectorXd v(n);
      for (int k = 0; k < n; ++k) read_number(s, v(k));
      REQUIRE(!s.fail());
      r.vecs[name] = v;
    } else if (key == "mat") {
      int rows = 0, cols = 0;
      s >> name >> rows >> cols;
      MatrixXd m(rows, cols);
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) read_number(s, m(i, j));
      REQUIRE(!s.fail());
      r.mats[name] = m;
    } else if (key == "sparse") {
      int rows = 0, cols = 0, nnz = 0;
      s >> name >> rows >> cols >> nnz;
      MatrixXd m = MatrixXd::Zero(rows, cols);
      for (int k = 0; k < nnz; ++k) {
        int i = 0, j = 0;
        double v = 0.0;
        s >> i >> j >> v;
        m(i, j) = v;
      }
      REQUIRE(!s.fail());
      r.mats[name] = m;
    } else if (key == "end") {
      ended = true;
    } else if (!key.empty() && key[0] != '#') {
      std::string w;
      while (s >> w) r.words[key].push_back(w);
    }
  }
  REQUIRE(ended);
  return r;
}

// max |a − b| / max(1, max |b|): the error relative to the reference's scale.
inline double scaled_error(const MatrixXd& a, const MatrixXd& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  if (a.size() == 0) return 0.0;
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

// A cost sum like the generator's: state residual (weight 2) and control residual (0.5).
inline std::shared_ptr<crocoddyl::CostModelSum> make_costs(
    const std::shared_ptr<StateLiedyn>& state, std::size_t nu, const VectorXd& xref,
    const VectorXd& uref,
    std::shared_ptr<crocoddyl::ResidualModelAbstract> state_residual = nullptr) {
  auto costs = std::make_shared<crocoddyl::CostModelSum>(state, nu);
  if (!state_residual) state_residual = std::make_shared<ResidualModelStateLiedyn>(state, xref, nu);
  costs->addCost("state", std::make_shared<crocoddyl::CostModelResidual>(state, state_residual),
                 kStateWeight);
  costs->addCost("control",
                 std::make_shared<crocoddyl::CostModelResidual>(
                     state, std::make_shared<crocoddyl::ResidualModelControl>(state, uref)),
                 kControlWeight);
  return costs;
}

struct Robot {
  std::string name;
  Reference ref;
  std::shared_ptr<const Model<double>> model;
  JointPermutation perm;
  std::shared_ptr<StateLiedyn> state;
  MatrixXd T;   // dx_pin = T dx (ndx × ndx)
  MatrixXd Pv;  // velocity-sized vectors: v_pin = Pv v (nv × nv)
  MatrixXd Pu;  // controls (the joints): u_pin = Pu u (nu × nu)
};

// The reference file `name` (tests/data/crocoddyl/NAME.txt) and its URDF (NAME up to the first
// '_'), with the file's armature when it has one.
inline Robot load_robot(const std::string& name) {
  Robot r;
  r.name = name;
  r.ref = read_reference(kData + "/crocoddyl/" + name + ".txt");
  const std::string urdf = kData + "/" + name.substr(0, name.find('_')) + ".urdf";
  r.model = std::make_shared<const Model<double>>(liedyn::load_urdf_file(urdf));
  r.perm = JointPermutation::from_names(*r.model, r.ref.joint_names);
  if (r.ref.vecs.count("armature")) {
    const VectorXd ours =
        r.perm.matrix<double>(6, r.model->nv_joints()).transpose() * r.ref.vec("armature");
    r.model = std::make_shared<const Model<double>>(
        liedyn::with_armature(*r.model, VectorXd(ours.tail(r.model->nv_joints()))));
  }
  r.state = std::make_shared<StateLiedyn>(r.model);
  r.T = r.state->tangent_permutation(r.perm);
  const int n = r.model->nv_joints();
  r.Pv = r.perm.matrix<double>(6, n);
  r.Pu = r.perm.matrix<double>(0, n);
  REQUIRE(static_cast<int>(r.state->get_nx()) == r.ref.nq + r.ref.nv);
  REQUIRE(static_cast<int>(r.state->get_nv()) == r.ref.nv);
  return r;
}

// The quaternion's sign is a free choice (q and −q are one rotation): align ours to theirs.
inline VectorXd align_base_quaternion(VectorXd x_pin, const VectorXd& reference) {
  if (x_pin.segment<4>(3).dot(reference.segment<4>(3)) < 0.0) x_pin.segment<4>(3) *= -1.0;
  return x_pin;
}

}  // namespace croc_test
