#!/usr/bin/env bash
# The Python package as a user gets it: builds the wheel (`pip wheel .`, pyproject.toml) in a
# fresh virtual environment, installs it into a second fresh one, and runs there, from a copy
# of the tests alone (no source or build tree in reach), the pytest suite (python/tests), every
# example of python/examples and the command-line tool (`liedyn info`); then mypy on the examples
# and the tests against the installed package's type stubs.
#
# Usage (from anywhere): scripts/test-wheel.sh
# Environment:
#   PYTHON                      the interpreter for both environments (default /usr/bin/python3,
#                               Debian's, with python3-venv: scripts/install-deps.sh)
#   CMAKE_BUILD_PARALLEL_LEVEL  compile jobs of the wheel build (default: the number of cores)
#   PIP_CACHE_DIR               pip's download and wheel cache (default ~/.cache/pip): numpy,
#                               scipy, matplotlib, ray and the build requirements come from PyPI
#   LIEDYN_CROCODDYL_PREFIX     a Crocoddyl 3.2 prefix (scripts/install-crocoddyl.sh prints it):
#                               the wheel then carries liedyn.crocoddyl, installed with the
#                               `crocoddyl` extra, whose tests must then run (not skip)
# Needs network access to PyPI unless the cache holds every package. Exit status: 0 when
# everything passed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
src="$PWD"
python="${PYTHON:-/usr/bin/python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/liedyn-wheel.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
SECONDS=0

echo "-- wheel: pip wheel . in a fresh virtual environment ($("$python" --version), ${CMAKE_BUILD_PARALLEL_LEVEL} jobs)"
"$python" -m venv "$work/build-venv"
build_options=()
extras="test,distributed"
if [ -n "${LIEDYN_CROCODDYL_PREFIX:-}" ]; then
  echo "-- wheel: with liedyn.crocoddyl (Crocoddyl at $LIEDYN_CROCODDYL_PREFIX)"
  build_options=(--config-settings="cmake.define.LIEDYN_CROCODDYL_PREFIX=$LIEDYN_CROCODDYL_PREFIX")
  extras="$extras,crocoddyl"
  export LIEDYN_REQUIRE_CROCODDYL=1
fi
"$work/build-venv/bin/pip" wheel --no-deps --wheel-dir "$work/dist" "${build_options[@]}" "$src"
wheels=("$work"/dist/liedyn-*.whl)
wheel="${wheels[0]}"
build_s=$SECONDS
echo "-- wheel: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) kB, built in ${build_s} s"

echo "-- wheel: install into a second fresh virtual environment"
venv="$work/test-venv"
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet "${wheel}[$extras]"

# The tests, the examples and what they read, copied away from the source tree.
tree="$work/tree"
mkdir -p "$tree/python" "$tree/tests"
cp -R python/tests python/examples "$tree/python/"
cp -R tests/data "$tree/tests/"
# The committed stubs and their generator, which python/tests/test_stubs.py compares with the
# installed module's (LIEDYN_REQUIRE_STUBS: a missing generator or another pybind11 fails there).
mkdir -p "$tree/python/liedyn/_liedyn" "$tree/scripts"
cp python/liedyn/_liedyn/*.pyi "$tree/python/liedyn/_liedyn/"
cp scripts/generate_stubs.py "$tree/scripts/"
mkdir -p "$tree/docs" && cp README.md "$tree/" && cp docs/python.md docs/batch.md docs/frictional-contacts.md "$tree/docs/"
cd "$tree"
export PATH="$venv/bin:$PATH" PYTHONDONTWRITEBYTECODE=1 MPLBACKEND=Agg
python - "$venv" <<'EOF'
import sys

import liedyn

assert liedyn.__file__.startswith(sys.argv[1] + "/"), liedyn.__file__
print("-- wheel: import liedyn", liedyn.__version__, "from", liedyn.__file__)
EOF
tool="$(command -v liedyn)"
[ "$tool" = "$venv/bin/liedyn" ] || { echo "ERROR: liedyn tool found at '$tool'" >&2; exit 1; }
liedyn info tests/data/solo12.urdf | head -n 3

# Ray is installed here: its test (a local cluster on loopback) must run, not skip.
LIEDYN_REQUIRE_RAY=1 LIEDYN_REQUIRE_STUBS=1 python -m pytest -q -p no:cacheprovider python/tests
for example in python/examples/*.py; do
  # liedyn.crocoddyl's examples need the wheel built with it (LIEDYN_CROCODDYL_PREFIX).
  case "$(basename "$example")" in
    crocoddyl_*) [ -n "${LIEDYN_CROCODDYL_PREFIX:-}" ] || { echo "-- wheel: $example skipped (no Crocoddyl)"; continue; } ;;
  esac
  echo "-- wheel: $example"
  python "$example"
done
echo "-- wheel: mypy on python/examples and python/tests against the installed stubs"
python -m mypy --config-file "$src/pyproject.toml" --cache-dir "$work/mypy-cache" python/examples python/tests
echo "-- wheel: built in ${build_s} s, installed and tested in $((SECONDS - build_s)) s"
