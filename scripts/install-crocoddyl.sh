#!/usr/bin/env bash
# Crocoddyl 3.2 from PyPI into a virtual environment, for the Crocoddyl bridge's test
# (include/liedyn/crocoddyl/, docs/crocoddyl.md): its headers, libcrocoddyl.so, Pinocchio, Boost
# and their CMake configurations land under <site-packages>/cmeel.prefix, which this script
# prints last (pass it as -DLIEDYN_CROCODDYL_PREFIX=...).
#
# The versions are pinned, in pyproject.toml's `crocoddyl` extra (the Python module's runtime
# dependencies), which says why; this script installs that list.
#
# Usage: scripts/install-crocoddyl.sh [VENV]   (default .venv-croc; needs PyPI or a pip cache)
set -euo pipefail

venv="${1:-.venv-croc}"
python="${PYTHON:-/usr/bin/python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
mapfile -t pins < <("$venv/bin/python" - "$(dirname "${BASH_SOURCE[0]}")/../pyproject.toml" <<'EOF'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"]["crocoddyl"]))
EOF
)
[ "${#pins[@]}" -gt 0 ] || { echo "install-crocoddyl.sh: no crocoddyl extra in pyproject.toml" >&2; exit 1; }
"$venv/bin/pip" install --quiet "${pins[@]}" >&2
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
prefix="$site/cmeel.prefix"
[ -f "$prefix/lib/cmake/crocoddyl/crocoddylConfig.cmake" ] || {
  echo "install-crocoddyl.sh: no crocoddylConfig.cmake under $prefix" >&2
  exit 1
}
echo "$prefix"
