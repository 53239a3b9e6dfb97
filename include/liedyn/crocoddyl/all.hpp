// liedyn — Crocoddyl bridge: every header of include/liedyn/crocoddyl/ (docs/crocoddyl.md).
// Needs Crocoddyl 3.2's headers (and, through them, Pinocchio's and Boost's); not part of
// liedyn.hpp, which stays free of Crocoddyl.
#pragma once

#include "liedyn/crocoddyl/contact_forward_dynamics.hpp"
#include "liedyn/crocoddyl/contacts.hpp"
#include "liedyn/crocoddyl/free_forward_dynamics.hpp"
#include "liedyn/crocoddyl/impulse_forward_dynamics.hpp"
#include "liedyn/crocoddyl/residual_com_position.hpp"
#include "liedyn/crocoddyl/residual_contact_force.hpp"
#include "liedyn/crocoddyl/residual_frame_placement.hpp"
#include "liedyn/crocoddyl/residual_frame_translation.hpp"
#include "liedyn/crocoddyl/residual_frame_velocity.hpp"
#include "liedyn/crocoddyl/residual_state.hpp"
#include "liedyn/crocoddyl/state.hpp"
