# Crocoddyl for the bridge's test and benchmark (include/liedyn/crocoddyl/, docs/crocoddyl.md).
#
# The bridge needs Crocoddyl 3.2, which brings Pinocchio and Boost. Point LIEDYN_CROCODDYL_PREFIX
# at an install prefix — for the pip packages, <venv>/lib/python3.X/site-packages/cmeel.prefix.
#
# liedyn_find_crocoddyl() searches the prefix inside a function, so that it does not replace the
# packages the rest of the build found (the pip prefix has its own tinyxml2 and Boost); it sets
# crocoddyl_FOUND and crocoddyl_VERSION in the caller's scope.
#
# liedyn_link_crocoddyl(<target>) links crocoddyl::crocoddyl and gives the target a run path to
# Crocoddyl's libraries: libcrocoddyl.so needs Pinocchio's libraries beside it but has no run
# path of its own, so the target's is DT_RPATH, which (unlike DT_RUNPATH) also serves the
# libraries' dependencies.

option(LIEDYN_WITH_CROCODDYL "Build the Crocoddyl bridge's test and benchmark when Crocoddyl is found" ON)
set(LIEDYN_CROCODDYL_PREFIX "" CACHE PATH
  "Prefix of a Crocoddyl 3.2 install (pip packages: <site-packages>/cmeel.prefix)")

function(liedyn_find_crocoddyl)
  if(LIEDYN_CROCODDYL_PREFIX)
    list(PREPEND CMAKE_PREFIX_PATH "${LIEDYN_CROCODDYL_PREFIX}")
  endif()
  find_package(crocoddyl 3.2 CONFIG QUIET)
  set(crocoddyl_FOUND ${crocoddyl_FOUND} PARENT_SCOPE)
  set(crocoddyl_VERSION ${crocoddyl_VERSION} PARENT_SCOPE)
endfunction()

function(liedyn_link_crocoddyl target)
  target_link_libraries(${target} PRIVATE crocoddyl::crocoddyl)
  get_target_property(_croc_lib crocoddyl::crocoddyl IMPORTED_LOCATION_RELEASE)
  if(NOT _croc_lib)
    get_target_property(_croc_lib crocoddyl::crocoddyl LOCATION)
  endif()
  get_filename_component(_croc_libdir "${_croc_lib}" DIRECTORY)
  set_target_properties(${target} PROPERTIES BUILD_RPATH "${_croc_libdir}")
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_link_options(${target} PRIVATE -Wl,--disable-new-dtags)
  endif()
endfunction()

# liedyn_find_crocoddyl_python(): Crocoddyl and eigenpy (whose configuration brings Boost.Python)
# for liedyn.crocoddyl, the bridge's Python module (python/CMakeLists.txt); sets crocoddyl_FOUND
# and eigenpy_FOUND in the caller's scope.
function(liedyn_find_crocoddyl_python)
  if(LIEDYN_CROCODDYL_PREFIX)
    list(PREPEND CMAKE_PREFIX_PATH "${LIEDYN_CROCODDYL_PREFIX}")
  endif()
  find_package(crocoddyl 3.2 CONFIG QUIET)
  if(crocoddyl_FOUND)
    find_package(eigenpy CONFIG QUIET)
  endif()
  set(crocoddyl_FOUND ${crocoddyl_FOUND} PARENT_SCOPE)
  set(crocoddyl_VERSION ${crocoddyl_VERSION} PARENT_SCOPE)
  set(eigenpy_FOUND ${eigenpy_FOUND} PARENT_SCOPE)
endfunction()
