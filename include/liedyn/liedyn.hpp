// liedyn — the umbrella header: the spatial algebra, the model, every kernel, the
// linearization and the geometric finite differences. The URDF and MJCF loaders are separate
// (liedyn/model/urdf.hpp, mjcf.hpp, target liedyn::urdf) so that the core needs only Eigen.
#pragma once

#include "liedyn/config.hpp"
#include "liedyn/version.hpp"

#include "liedyn/spatial.hpp"

#include "liedyn/model/armature.hpp"
#include "liedyn/model/builder.hpp"
#include "liedyn/model/configuration.hpp"
#include "liedyn/model/constraint.hpp"
#include "liedyn/model/joint.hpp"
#include "liedyn/model/lock_joints.hpp"
#include "liedyn/model/model.hpp"
#include "liedyn/model/state.hpp"

#include "liedyn/algorithm/aba.hpp"
#include "liedyn/algorithm/aza.hpp"
#include "liedyn/algorithm/batch.hpp"
#include "liedyn/algorithm/batch_contact.hpp"
#include "liedyn/algorithm/centroidal.hpp"
#include "liedyn/algorithm/constrained_dynamics.hpp"
#include "liedyn/algorithm/constrained_dynamics_derivatives.hpp"
#include "liedyn/algorithm/constrained_inverse_dynamics.hpp"
#include "liedyn/algorithm/constrained_linearization.hpp"
#include "liedyn/algorithm/constraint_kinematics.hpp"
#include "liedyn/algorithm/constraint_kinematics_derivatives.hpp"
#include "liedyn/algorithm/constraint_projection.hpp"
#include "liedyn/algorithm/contact_step.hpp"
#include "liedyn/algorithm/coriolis.hpp"
#include "liedyn/algorithm/crba.hpp"
#include "liedyn/algorithm/data.hpp"
#include "liedyn/algorithm/eidamb.hpp"
#include "liedyn/algorithm/eidamb_derivatives.hpp"
#include "liedyn/algorithm/energy.hpp"
#include "liedyn/algorithm/immamb.hpp"
#include "liedyn/algorithm/impulse_dynamics.hpp"
#include "liedyn/algorithm/impulse_dynamics_derivatives.hpp"
#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/algorithm/linearization.hpp"
#include "liedyn/algorithm/ltdl.hpp"
#include "liedyn/algorithm/rnea.hpp"
#include "liedyn/arithmetic/constrained_solvers.hpp"
#include "liedyn/arithmetic/frictional_contact.hpp"

#include "liedyn/numdiff.hpp"
