#!/usr/bin/env bash
# Set up, configure and build into build/ (all targets, or the ones named as arguments).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# The README's plain build (Release, one compiler run per source file, as a packager builds it), with
# warnings as errors (CODESIM_WERROR is off in a plain build; CI turns it on here) and the Python
# extension (CODESIM_PYTHON, for tools/test-python.sh to install). No unity sources here: batching
# files into one compiler run lets a file use a header that only another file of its batch
# includes, and a plain build then fails where CI passed (issue 52). The test suites alone compile
# as unity sources (tests/CMakeLists.txt: half the compiler time); the sanitizer build
# (tools/test-sanitize.sh) compiles everything so.
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=OFF \
  -DCODESIM_WERROR=ON -DCODESIM_PYTHON=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j "$(nproc)" "${targets[@]}"
