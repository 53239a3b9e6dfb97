// liedyn — interop: conversions between liedyn and other rigid-body libraries (Pinocchio,
// MuJoCo, Drake, RBDL, iDynTree) — states, velocities, accelerations, generalized forces, mass
// matrices and dynamics Jacobians. Header-only; depends on liedyn's model headers and Eigen
// only, never on the other libraries. See docs/interop.md.
#pragma once

#include "liedyn/interop/derivatives.hpp"
#include "liedyn/interop/floating_base.hpp"
#include "liedyn/interop/idyntree.hpp"
#include "liedyn/interop/joint_permutation.hpp"
#include "liedyn/interop/mujoco.hpp"
#include "liedyn/interop/pinocchio_coordinates.hpp"
