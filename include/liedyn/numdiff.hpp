// liedyn — numdiff: geometric finite differences of functions of the state (and of plain
// vectors), in any floating scalar (float, double, long double, liedyn::float128 when
// available). See numdiff/finite_differences.hpp; numdiff/state_field.hpp holds the maps whose
// differences check the linearization.
#pragma once

#include "liedyn/numdiff/finite_differences.hpp"
#include "liedyn/numdiff/state_field.hpp"
