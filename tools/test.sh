#!/usr/bin/env bash
# Set up, configure, build and run the whole test suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh --test
./tools/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
./tools/test-python.sh
