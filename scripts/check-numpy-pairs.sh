#!/usr/bin/env bash
# The Python module as the README's CMake build makes it (Debian's pybind11 2.10) under the numpy
# a user meets: Debian's numpy 1 and pip's numpy 2. A pybind11 older than 2.12 makes wrong arrays
# under numpy 2 (stride 0) without an error, so the module refuses to import there
# (python/src/numpy_compat.hpp). This script builds a one-function probe module with that guard
# (tests/numpy_pairs/probe.cpp) against each pybind11 and checks, under each numpy:
#   Debian pybind11, no guard,  numpy 2  -> wrong arrays (the trap itself, reproduced)
#   Debian pybind11, guard,     numpy 2  -> ImportError naming both versions
#   Debian pybind11, guard,     numpy 1  -> right arrays
#   pip pybind11 >= 2.12, guard, numpy 2 -> right arrays (the guard refuses only what it must)
#
# Usage: scripts/check-numpy-pairs.sh   (needs scripts/install-deps.sh's packages and PyPI, or a
# pip cache holding numpy >= 2 and pybind11 >= 2.12). Exit status 0 when every line holds.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=/usr/bin/python3
work="$(mktemp -d "${TMPDIR:-/tmp}/liedyn-numpy-pairs.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

suffix="$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
pyinc="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"

# build DIR [FLAG...]: the probe module into DIR (Debian's pybind11, in the default include path,
# unless a flag puts another first).
build() {
  local dir="$1"
  shift
  mkdir -p "$dir"
  c++ -std=c++17 -O0 -shared -fPIC -fvisibility=hidden "$@" -isystem "$pyinc" \
    tests/numpy_pairs/probe.cpp -o "$dir/numpy_pairs_probe$suffix"
}

echo "-- numpy pairs: a virtual environment with pip's numpy 2 and pybind11"
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet 'numpy>=2' 'pybind11>=2.12'
new_include="$("$work/venv/bin/python" -c 'import pybind11; print(pybind11.get_include())')"
debian_version="$(sed -n 's/^#define PYBIND11_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' \
  /usr/include/pybind11/detail/common.h | paste -sd.)"
echo "-- numpy pairs: Debian's pybind11 $debian_version, pip's $("$work/venv/bin/python" -c \
  'import pybind11; print(pybind11.__version__)'), Debian's numpy $("$python" -c \
  'import numpy; print(numpy.__version__)'), pip's $("$work/venv/bin/python" -c \
  'import numpy; print(numpy.__version__)')"

build "$work/debian-unguarded" -DLIEDYN_PROBE_UNGUARDED
build "$work/debian"
build "$work/new" -isystem "$new_include"

check=tests/numpy_pairs/check_probe.py
status=0
run() {
  echo "-- numpy pairs: $1"
  shift
  "$@" || { echo "FAILED" >&2; status=1; }
}
run "Debian pybind11 without the guard, numpy 2: the trap" \
  "$work/venv/bin/python" "$check" "$work/debian-unguarded" wrong
run "Debian pybind11 with the guard, numpy 2: refused" \
  "$work/venv/bin/python" "$check" "$work/debian" refused
run "Debian pybind11 with the guard, numpy 1: right" "$python" "$check" "$work/debian" right
run "pip pybind11 with the guard, numpy 2: right" \
  "$work/venv/bin/python" "$check" "$work/new" right
[ "$status" -eq 0 ] && echo "-- numpy pairs: every pair as expected"
exit "$status"
