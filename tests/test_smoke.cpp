#include <catch2/catch.hpp>

#include <liedyn/version.hpp>

#include <cstdio>
#include <fstream>
#include <string>

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

namespace {

std::string macro_version() {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%d.%d.%d", LIEDYN_VERSION_MAJOR, LIEDYN_VERSION_MINOR,
                LIEDYN_VERSION_PATCH);
  return buf;
}

}  // namespace

TEST_CASE("version_string matches the version macros", "[smoke][version]") {
  CHECK(std::string(liedyn::version_string) == macro_version());
  CHECK(liedyn::version_major == LIEDYN_VERSION_MAJOR);
  CHECK(liedyn::version_minor == LIEDYN_VERSION_MINOR);
  CHECK(liedyn::version_patch == LIEDYN_VERSION_PATCH);
  STATIC_REQUIRE(LIEDYN_VERSION ==
                 LIEDYN_VERSION_MAJOR * 10000 + LIEDYN_VERSION_MINOR * 100 + LIEDYN_VERSION_PATCH);
}

TEST_CASE("test data directory is reachable", "[smoke]") {
  std::ifstream f(std::string(LIEDYN_TEST_DATA_DIR) + "/README.md");
  REQUIRE(f.good());
}

}  // namespace LIEDYN_UNITY_ID
