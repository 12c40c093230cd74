#!/usr/bin/env bash
# Set up, configure, build and run the whole test suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
