// liedyn — the spatial algebra (knows nothing of robots): SO(3), SE(3), motions, forces,
// spatial inertias. Conventions: linear first; see each header.
#pragma once

#include "liedyn/spatial/fwd.hpp"
#include "liedyn/spatial/inertia.hpp"
#include "liedyn/spatial/motion.hpp"
#include "liedyn/spatial/se3/se3.hpp"
#include "liedyn/spatial/skew.hpp"
#include "liedyn/spatial/so3/quaternion.hpp"
#include "liedyn/spatial/so3/so3.hpp"
