#!/usr/bin/env bash
# Crocoddyl 3.2 from PyPI into a virtual environment, for the Crocoddyl bridge's test
# (include/liedyn/crocoddyl/, docs/crocoddyl.md): its headers, libcrocoddyl.so, Pinocchio, Boost
# and their CMake configurations land under <site-packages>/cmeel.prefix, which this script
# prints last (pass it as -DLIEDYN_CROCODDYL_PREFIX=...).
#
# The versions are pinned: libcrocoddyl 3.2.1's wheel was built against libpinocchio 4.0.0, and
# with 4.1.0 (what pip picks by default) Crocoddyl's own forward dynamics lose gravity; and
# cmeel-urdfdom 6.0.0 does not bring the urdfdom_headers Pinocchio's CMake configuration needs.
#
# Usage: scripts/install-crocoddyl.sh [VENV]   (default .venv-croc; needs PyPI or a pip cache)
set -euo pipefail

venv="${1:-.venv-croc}"
python="${PYTHON:-/usr/bin/python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/pip" install --quiet "crocoddyl==3.2.1" "libcrocoddyl==3.2.1" "pin==4.0.0" \
  "libpinocchio==4.0.0" "cmeel-urdfdom-headers==3.0.0" >&2
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
prefix="$site/cmeel.prefix"
[ -f "$prefix/lib/cmake/crocoddyl/crocoddylConfig.cmake" ] || {
  echo "install-crocoddyl.sh: no crocoddylConfig.cmake under $prefix" >&2
  exit 1
}
echo "$prefix"
