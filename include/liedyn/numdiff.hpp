// liedyn — numdiff: geometric finite differences of functions of the state (and of plain
// vectors), in any floating scalar (float, double, long double, liedyn::float128 when
// available). See numdiff/finite_differences.hpp.
#pragma once

#include "liedyn/numdiff/finite_differences.hpp"
