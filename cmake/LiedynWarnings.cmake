# liedyn_set_warnings(<target>)
#
# Enables a sane warning set on one of liedyn's own targets (tests, examples,
# benchmarks).  Never applied to the INTERFACE library targets themselves, so
# projects that consume liedyn keep their own flags.  Eigen comes in through
# the imported target Eigen3::Eigen, whose include directory CMake passes as
# -isystem, so Eigen's own warnings do not show.
#
# With LIEDYN_WARNINGS_AS_ERRORS=ON the warnings are turned into errors.

function(liedyn_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
    if(LIEDYN_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  elseif(MSVC)
    target_compile_options(${target} PRIVATE /W4 /permissive-)
    if(LIEDYN_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE /WX)
    endif()
  endif()
endfunction()
