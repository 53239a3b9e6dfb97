// liedyn — Crocoddyl bridge: the centre of mass's position as a Crocoddyl residual (Crocoddyl
// 3.2's ResidualModelCoMPosition), on liedyn's centroidal kernels (docs/crocoddyl.md).
//
//   r  = p_com(q) − c*                     (3, in A)
//   Rx = [ J_com  0 ]                      (3 × ndx)
//
// J_com (center_of_mass_jacobian, A's axes) maps ν̄ to ṗ_com; along StateLiedyn's tangent that
// is also ∂p_com/∂δq (residual_base.hpp), so Rx is exact. r depends on q only.
#pragma once

#include <memory>
#include <ostream>

#include "liedyn/algorithm/centroidal.hpp"
#include "liedyn/crocoddyl/residual_base.hpp"

namespace liedyn {
namespace crocoddyl {

class ResidualModelCoMPositionLiedyn;
/// The data of ResidualModelCoMPositionLiedyn.
using ResidualDataCoMPositionLiedyn = ResidualDataLiedyn<ResidualModelCoMPositionLiedyn>;

/// r = p_com(q) − c* (this header's comment). double only.
class ResidualModelCoMPositionLiedyn
    : public ResidualLiedyn<ResidualModelCoMPositionLiedyn, ResidualDataCoMPositionLiedyn> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "ResidualModelCoMPositionLiedyn";

  /// The residual against `cref` (c*, in A), for controls of size nu.
  ResidualModelCoMPositionLiedyn(std::shared_ptr<StateLiedyn> state, const Eigen::Vector3d& cref,
                                 std::size_t nu)
      : ResidualLiedyn(std::move(state), 3, nu, ResidualDependence::configuration), cref_(cref) {}

  /// r = p_com − c*.
  void value(Data& d) const {
    d.r = center_of_mass(model(), d.workspace, d.state, ComFrame::Inertial) - cref_;
  }
  /// Rx = [J_com 0] (A's axes).
  void jacobian(Data& d) const {
    d.Rx.leftCols(model().nv()) =
        center_of_mass_jacobian(model(), d.workspace, d.state, ComFrame::Inertial);
  }

  /// c*, the target position of the centre of mass in A.
  const Eigen::Vector3d& get_reference() const { return cref_; }
  /// Sets c* (in A).
  void set_reference(const Eigen::Vector3d& cref) { cref_ = cref; }

  /// Crocoddyl's description line: c*.
  void print(std::ostream& os) const override {
    os << name << " {cref=" << cref_.transpose() << "}";
  }

 private:
  Eigen::Vector3d cref_;
};

}  // namespace crocoddyl
}  // namespace liedyn
