#!/usr/bin/env bash
# Set up, configure and build into build/ (all targets, or the ones named as arguments).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# Unity sources (8 files per compiler run) halve a clean build: the heavy headers (GoogleTest,
# nlohmann-json, CLI11, yaml-cpp, SimGrid, Boost.Graph) are parsed once per batch instead of once per
# file. For quick incremental work, configure a build of your own without it. Release as a user
# builds it, with warnings as errors (CODESIM_WERROR is off in a plain build; CI turns it on here).
# The Python extension too (CODESIM_PYTHON), for tools/test-python.sh to install.
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
  -DCODESIM_WERROR=ON -DCODESIM_PYTHON=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j "$(nproc)" "${targets[@]}"
