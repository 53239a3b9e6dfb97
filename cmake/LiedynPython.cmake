# Finds what the Python module (python/) needs: a Python 3 interpreter that imports numpy, its
# development headers, and pybind11 (Debian: python3-dev, python3-numpy, pybind11-dev).
# Sets _liedyn_python_found (ON/OFF) and, when found, the cache variable
# LIEDYN_PYTHON_INSTALL_DIR.
#
# The interpreter: Python3_EXECUTABLE if given; otherwise the first of `python3` on PATH and
# /usr/bin/python3 that imports numpy (a pyenv or virtualenv python3 first on PATH may lack it,
# while Debian's python3-numpy lives with /usr/bin/python3).

set(_liedyn_python_found OFF)

if(NOT DEFINED Python3_EXECUTABLE)
  find_program(_liedyn_path_python3 NAMES python3)
  foreach(_cand IN ITEMS "${_liedyn_path_python3}" /usr/bin/python3)
    if(_cand AND EXISTS "${_cand}")
      execute_process(COMMAND "${_cand}" -c "import numpy"
        RESULT_VARIABLE _liedyn_numpy_rc OUTPUT_QUIET ERROR_QUIET)
      if(_liedyn_numpy_rc EQUAL 0)
        set(Python3_EXECUTABLE "${_cand}" CACHE FILEPATH "Python interpreter for liedyn's module")
        break()
      endif()
    endif()
  endforeach()
endif()

if(DEFINED Python3_EXECUTABLE)
  find_package(Python3 3.7 COMPONENTS Interpreter Development.Module QUIET)
endif()
if(Python3_FOUND)
  # pybind11's config sees Python3_FOUND and uses the same interpreter (its FindPython mode).
  find_package(pybind11 2.6 CONFIG QUIET)
endif()

if(Python3_FOUND AND pybind11_FOUND)
  set(_liedyn_python_found ON)
  # Default install dir: the interpreter's own site directory when it lies under
  # CMAKE_INSTALL_PREFIX (e.g. /usr/local/lib/python3.11/dist-packages for Debian's python3 and
  # the default prefix /usr/local), else <prefix>/lib/python3.X/site-packages.
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])"
    OUTPUT_VARIABLE _liedyn_platlib OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  file(RELATIVE_PATH _liedyn_platlib_rel "${CMAKE_INSTALL_PREFIX}" "${_liedyn_platlib}")
  if(_liedyn_platlib AND NOT _liedyn_platlib_rel MATCHES "^\\.\\.")
    set(_liedyn_py_dir_default "${_liedyn_platlib_rel}")
  else()
    set(_liedyn_py_dir_default
      "${CMAKE_INSTALL_LIBDIR}/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages")
  endif()
  set(LIEDYN_PYTHON_INSTALL_DIR "${_liedyn_py_dir_default}" CACHE STRING
    "Where `cmake --install` puts the Python package liedyn/ (relative to the install prefix, or absolute)")
endif()
