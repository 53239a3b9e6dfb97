# The wheel build (pyproject.toml, scikit-build-core, which sets SKBUILD): the Python package and
# the command-line tool only, built from PyPI packages and third_party/, nothing of the build
# machine's own libraries, so that the wheel needs nothing at run time but numpy.
#   Eigen          cmeel-eigen (a build requirement): headers and CMake package under
#                  <site-packages>/cmeel.prefix
#   nlohmann-json  nlohmann-json (a build requirement): headers under
#                  <site-packages>/nlohmann_json/include
#   tinyxml2       third_party/tinyxml2 (zlib licence), compiled into the module and the tool
#   CLI11          third_party/CLI11 (BSD-3-Clause licence), header-only
# Included from the top-level CMakeLists.txt before the dependencies are looked up; defines the
# targets tinyxml2::tinyxml2, nlohmann_json::nlohmann_json and CLI11::CLI11 that the lookups then
# take as found.

# scikit-build-core puts the build environment's site-packages on CMAKE_PREFIX_PATH; cmeel
# packages install under <site-packages>/cmeel.prefix, a prefix of its own.
set(_liedyn_wheel_prefixes "")
foreach(_dir IN LISTS CMAKE_PREFIX_PATH)
  if(IS_DIRECTORY "${_dir}/cmeel.prefix")
    list(APPEND _liedyn_wheel_prefixes "${_dir}/cmeel.prefix")
  endif()
endforeach()
list(PREPEND CMAKE_PREFIX_PATH ${_liedyn_wheel_prefixes})
# Only the build environment's packages: never /usr's Eigen, tinyxml2, nlohmann-json or CLI11.
set(CMAKE_FIND_USE_CMAKE_SYSTEM_PATH OFF)
set(CMAKE_FIND_USE_SYSTEM_ENVIRONMENT_PATH OFF)
set(CMAKE_FIND_USE_PACKAGE_REGISTRY OFF)
set(CMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY OFF)

set(_liedyn_third_party "${CMAKE_CURRENT_SOURCE_DIR}/third_party")

# tinyxml2 9.0.0 (the version Debian bookworm ships), a static library inside the module and the
# tool: a shared libtinyxml2 would be a library the wheel needs from elsewhere.
add_library(liedyn_tinyxml2 STATIC EXCLUDE_FROM_ALL "${_liedyn_third_party}/tinyxml2/tinyxml2.cpp")
target_include_directories(liedyn_tinyxml2 SYSTEM PUBLIC "${_liedyn_third_party}/tinyxml2")
set_target_properties(liedyn_tinyxml2 PROPERTIES POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden)
add_library(tinyxml2::tinyxml2 ALIAS liedyn_tinyxml2)

set(_liedyn_json_hints "")
foreach(_dir IN LISTS CMAKE_PREFIX_PATH)
  list(APPEND _liedyn_json_hints "${_dir}/nlohmann_json/include")
endforeach()
find_path(LIEDYN_NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp
  PATHS ${_liedyn_json_hints} NO_DEFAULT_PATH REQUIRED NO_CACHE)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE
  "${LIEDYN_NLOHMANN_JSON_INCLUDE_DIR}")

add_library(CLI11::CLI11 INTERFACE IMPORTED)
target_include_directories(CLI11::CLI11 SYSTEM INTERFACE "${_liedyn_third_party}/CLI11/include")

# Their licences travel with the binaries that contain them (CLI11's BSD-3-Clause asks for it).
install(FILES "${_liedyn_third_party}/tinyxml2/LICENSE.txt"
  DESTINATION liedyn/third_party_licenses RENAME tinyxml2.txt)
install(FILES "${_liedyn_third_party}/CLI11/LICENSE"
  DESTINATION liedyn/third_party_licenses RENAME CLI11.txt)

# The package at the root of the wheel's platlib, the tool in its scripts (a venv's bin/).
set(LIEDYN_PYTHON_INSTALL_DIR "." CACHE STRING "" FORCE)
set(LIEDYN_TOOL_INSTALL_DIR "${SKBUILD_SCRIPTS_DIR}")

message(STATUS "liedyn: wheel build: cmeel prefixes ${_liedyn_wheel_prefixes}, nlohmann-json "
  "${LIEDYN_NLOHMANN_JSON_INCLUDE_DIR}, tinyxml2 and CLI11 from third_party/")
