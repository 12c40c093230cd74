#!/usr/bin/env bash
# Set up, configure and build into build/ (all targets, or the ones named as arguments).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j "$(nproc)" "${targets[@]}"
