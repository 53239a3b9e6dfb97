// liedyn — algorithm: the constrained solvers on matrices, for code that includes them from here.
// They know nothing of the tree and live below the model layer, in
// arithmetic/constrained_solvers.hpp.
#pragma once

#include "liedyn/arithmetic/constrained_solvers.hpp"
