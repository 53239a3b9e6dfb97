#!/usr/bin/env bash
# Install every Debian package liedyn needs to build, test, benchmark and run
# its demo (Debian bookworm or newer).  Safe to run any number of times.
#
# If every package is already installed the script does nothing (no network
# access needed); set LIEDYN_FORCE_APT=1 to run `apt-get update` and
# `apt-get install` anyway.
set -euo pipefail

packages=(
  cmake
  ninja-build
  g++
  # the asan preset builds with clang++ (a second compiler; its sanitizer runtimes)
  clang
  libclang-rt-dev
  make
  pkg-config
  libeigen3-dev
  catch2
  libtinyxml2-dev
  nlohmann-json3-dev
  libcli11-dev
  libbenchmark-dev
  gnuplot-nox
  valgrind
  doxygen
  clang-format
  # the Python module (python/, docs/python.md), its tests and its example
  pybind11-dev
  python3-dev
  python3-numpy
  python3-pytest
  python3-scipy
  python3-matplotlib
  # scripts/test-wheel.sh: the wheel's build and test virtual environments
  python3-venv
)

missing=()
for p in "${packages[@]}"; do
  # dpkg-query prints "install ok installed" for a fully installed package.
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ] && [ "${LIEDYN_FORCE_APT:-0}" != "1" ]; then
  echo "install-deps.sh: all ${#packages[@]} packages already installed."
  exit 0
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps.sh: installing: ${missing[*]}"
fi

# Use sudo only when we are not root and sudo exists.
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo DEBIAN_FRONTEND=noninteractive)
  else
    echo "install-deps.sh: not running as root and sudo is not available;" >&2
    echo "  install these packages by hand: ${packages[*]}" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
# Wait (up to 10 min) instead of failing if another apt/dpkg holds the lock.
apt_opts=(-o DPkg::Lock::Timeout=600)

"${SUDO[@]}" apt-get "${apt_opts[@]}" update
"${SUDO[@]}" apt-get "${apt_opts[@]}" install -y --no-install-recommends "${packages[@]}"

echo "install-deps.sh: done."
