#!/usr/bin/env bash
# Build and run the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (CMake preset "sanitize", build dir build-sanitize/).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize -j "$(nproc)"
ctest --preset sanitize -j "$(nproc)"
