#!/usr/bin/env bash
# Build and run the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang,
# CMake preset "sanitize", build dir build-sanitize/). The same build holds the libFuzzer
# targets that tools/fuzz.sh runs, so CI instruments the code once.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize -j "$(nproc)"
ctest --preset sanitize -j "$(nproc)"
