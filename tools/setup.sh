#!/usr/bin/env bash
# Installs every Debian package codesim needs to build (and with --test, to run its tests);
# idempotent and quick when all is there.
set -euo pipefail

packages=(
  build-essential cmake pkg-config ninja-build
  libsimgrid-dev libboost-graph-dev libeigen3-dev libyaml-cpp-dev libcli11-dev
  nlohmann-json3-dev libfmt-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev libomp-14-dev
  libopenmpi-dev openmpi-bin libpng-dev
  python3 python3-dev python3-venv python3-pip python3-setuptools pybind11-dev python3-pybind11
)
# --test: also what the test suite uses at run time (headless Chromium renders the HTML report).
if [ "${1:-}" = "--test" ]; then
  packages+=(chromium python3-pytest python3-pandas)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
