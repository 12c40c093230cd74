#!/usr/bin/env bash
# Installs the build in BUILD_DIR into a temporary prefix, builds tests/install's example program
# against it with find_package(codesim), and runs it on the small test scenario.
#   check_install.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$src/tests/install" -B "$work/example" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/example" >/dev/null
"$work/example/what_if" "$src/tests/scenarios/small-step.yaml" 2
