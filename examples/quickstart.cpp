// The README's example: load a URDF, forward dynamics, and A, B at a moving state.
//   liedyn_quickstart ROBOT.urdf
#include <iostream>
#include <random>

#include <liedyn/liedyn.hpp>
#include <liedyn/model/urdf.hpp>

int main(int argc, char** argv) {
  if (argc < 2) return std::cerr << "usage: liedyn_quickstart ROBOT.urdf\n", 2;
  const liedyn::Model<double> model = liedyn::load_urdf_file(argv[1]);  // root link = moving base
  liedyn::Data<double> data(model);  // workspace: all allocation happens here
  std::mt19937 rng(7);
  const liedyn::State<double> x = liedyn::random_state(model, rng);  // (H, s, ν body twist, r)
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv());           // [base wrench; joint torques]
  const Eigen::VectorXd ddq = liedyn::aba(model, data, x, tau);      // [ν̇; ṙ]
  liedyn::linearize(model, data, x, tau);  // δẋ = A δx + B δτ̄, δx = (η, δs, δν, δr)
  std::cout << "nv = " << model.nv() << ", base acceleration " << ddq.head<6>().transpose() << "\n"
            << "A: " << data.linearization.A.rows() << "x" << data.linearization.A.cols()
            << ", B: " << data.linearization.B.rows() << "x" << data.linearization.B.cols()
            << ", |A| = " << data.linearization.A.norm() << "\n";
}
