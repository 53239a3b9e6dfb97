// The interface between the translation units of liedyn_bench_pinocchio: each library's side
// (side_by_side_liedyn.cpp, side_by_side_pinocchio.cpp) is compiled on its own and exchanges only
// standard types with the others — no Eigen or library type crosses, so neither library's
// headers, macros or alignment settings reach the other's code.
//
// Every vector and matrix crosses in Pinocchio's layout: q = [base position; quaternion x, y, z,
// w; joints], v = [body twist of the base, linear first; joint velocities] (liedyn's ν, r),
// joints in Pinocchio's order; matrices column-major, nv × nv (tests/data/README.pinocchio.md).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace side_by_side {

/// The kernels set side by side; each pair is named in kernel_name().
enum class Kernel {
  Rnea,                            ///< τ = ID(q, v, a)
  Crba,                            ///< M(q)
  Aba,                             ///< q̈ = FD(q, v, τ)
  Minverse,                        ///< M(q)⁻¹
  InverseDynamicsDerivatives,      ///< ∂τ/∂q, ∂τ/∂v, ∂τ/∂a
  ForwardDynamicsDerivatives,      ///< ∂q̈/∂q, ∂q̈/∂v, ∂q̈/∂τ
  ConstrainedDynamics,             ///< q̈ and λ under the contact set
  ConstrainedDynamicsDerivatives,  ///< the same and their derivatives in q, v, τ
  ImpulseDynamics,                 ///< v⁺ and the impulses of an inelastic impact (restitution 0)
};

/// The benchmark name of a kernel.
const char* kernel_name(Kernel k);

/// Whether the kernel needs a contact set.
inline bool constrained(Kernel k) {
  return k == Kernel::ConstrainedDynamics || k == Kernel::ConstrainedDynamicsDerivatives ||
         k == Kernel::ImpulseDynamics;
}

/// A set of contacts on named frames: point contacts (3 rows each) or rigid ones (6 rows), in
/// the body sense (Pinocchio's LOCAL: the contact frame's components) or the mixed sense
/// (LOCAL_WORLD_ALIGNED: the world's axes at the contact frame's origin).
struct ContactSet {
  std::string name;  ///< e.g. "4x3D_body"
  std::vector<std::string> frames;
  bool point = true;
  bool mixed = false;
  bool with_derivatives = true;  ///< false: the constrained derivatives are not set side by side
};

/// The robot: a URDF, its root link a free-flyer (or welded for an arm), and its contact sets.
/// Or, when `generated` names one, a model with multi-DoF joints that
/// scripts/generate_pinocchio_reference.py builds (tests/data/pinocchio4/README.md): no URDF
/// describes its spherical joints, so both libraries build it from Pinocchio's records of it.
struct Robot {
  std::string name;
  std::string urdf;
  bool welded = false;
  std::vector<ContactSet> contacts;
  std::string generated;
};

/// The inputs of every kernel over a pool of states, in Pinocchio's layout.
struct Pool {
  std::vector<std::vector<double>> q, v, a, tau;
};

/// One library's kernels on one robot. kernel() returns the timed call: it runs the kernel on
/// state k of the pool (k < pool size) with a workspace of its own, made once by kernel().
/// outputs() runs the kernel once on state k and returns its results, each flattened in
/// Pinocchio's layout (symmetric matrices full), for the check against the other library.
class Side {
 public:
  virtual ~Side() = default;
  virtual std::function<void(int)> kernel(Kernel k, int contact_set) = 0;
  virtual std::vector<std::vector<double>> outputs(Kernel k, int contact_set, int state) = 0;
};

struct PinocchioModelRecord;

/// Pinocchio's side (side_by_side_pinocchio.cpp): the model from its URDF parser (free-flyer
/// root joint unless welded), rebuilt from `record`. joint_names() lists its joints in its order,
/// the free-flyer excluded; set_pool() hands it the states.
class PinocchioSide : public Side {
 public:
  virtual std::vector<std::string> joint_names() const = 0;
  virtual void set_pool(const Pool& pool) = 0;
};
std::unique_ptr<PinocchioSide> make_pinocchio_side(const Robot& robot,
                                                   const PinocchioModelRecord& record);
/// The same, every kernel a call into the wheel's precompiled double instances
/// (libpinocchio_default, the wheel's flags): what a pip user of Pinocchio links.
std::unique_ptr<PinocchioSide> make_pinocchio_library_side(const Robot& robot,
                                                           const PinocchioModelRecord& record);

/// liedyn's side (side_by_side_liedyn.cpp): the model from liedyn's URDF loader (from Pinocchio's
/// `record` for a generated robot), joints mapped to Pinocchio's by name; it draws the pool
/// (`size` random states and inputs from `seed`) and returns it in Pinocchio's layout with
/// pool().
class LiedynSide : public Side {
 public:
  virtual const Pool& pool() const = 0;
  virtual int nv() const = 0;
};
std::unique_ptr<LiedynSide> make_liedyn_side(const Robot& robot, const PinocchioModelRecord& record,
                                             const std::vector<std::string>& pinocchio_joints,
                                             int size, unsigned seed);

}  // namespace side_by_side
