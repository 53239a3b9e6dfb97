// liedyn tests — the figure-4 reference case (tests/data/fig4_like_case.json): numbers from an
// independent numpy implementation of the paper's tables on figure4_model, shared by the
// dynamics, derivatives and textbook-twin tests.
//
// The json's "state" holds H (4 × 4), s, r, w — the INERTIAL base twist ^A v_{A,0} — and the
// accelerations a0 (the base's) and rd (the joints'); the outputs sit at the top level by name
// (tau_bar, M, h, Minv, u, acc, the derivatives).
#pragma once

#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "liedyn/model/model.hpp"
#include "liedyn/model/state.hpp"
#include "liedyn/testing/samples.hpp"

namespace liedyn {
namespace test {

struct Fig4Case {
  nlohmann::json json;

  static Fig4Case load() {
    std::ifstream in(LIEDYN_TEST_DATA_DIR "/fig4_like_case.json");
    REQUIRE(in.good());
    return Fig4Case{nlohmann::json::parse(in)};
  }

  /// A json array of rows as a matrix, an array of numbers as a vector.
  static MatrixX<double> to_matrix(const nlohmann::json& a) {
    MatrixX<double> m(a.size(), a.at(0).size());
    for (Eigen::Index r = 0; r < m.rows(); ++r)
      for (Eigen::Index c = 0; c < m.cols(); ++c) m(r, c) = a.at(r).at(c).get<double>();
    return m;
  }
  static VectorX<double> to_vector(const nlohmann::json& a) {
    VectorX<double> v(a.size());
    for (Eigen::Index r = 0; r < v.size(); ++r) v(r) = a.at(r).get<double>();
    return v;
  }

  /// A top-level output by name.
  MatrixX<double> matrix(const std::string& key) const { return to_matrix(json.at(key)); }
  VectorX<double> vector(const std::string& key) const { return to_vector(json.at(key)); }

  /// The case's state on figure4_model.
  State<double> state(const Model<double>& model) const {
    const nlohmann::json& st = json.at("state");
    State<double> x(model);
    x.H = SE3<double>::from_matrix(to_matrix(st.at("H")));
    x.s = to_vector(st.at("s"));
    x.r = to_vector(st.at("r"));
    x.set_base_twist(Vector6<double>(to_vector(st.at("w"))), TwistRepresentation::Inertial);
    return x;
  }

  /// The case's accelerations [a0; rd].
  VectorX<double> accelerations(const Model<double>& model) const {
    const nlohmann::json& st = json.at("state");
    VectorX<double> ddq(model.nv());
    ddq << to_vector(st.at("a0")), to_vector(st.at("rd"));
    return ddq;
  }
};

}  // namespace test
}  // namespace liedyn
