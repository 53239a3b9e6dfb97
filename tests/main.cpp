// Catch2 v2 main(), compiled once into liedyn_catch_main.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
