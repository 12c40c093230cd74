#!/usr/bin/env bash
# Runs every shipped what-if sweep (scenarios/whatif-*.yaml) into out/whatif/NAME/ and prints one
# Markdown table per sweep (the rows of scenarios/README.md's measured section). Each point is a
# full DeepSeek-V3 step (~40 s on one core); JOBS points at a time (default 2).
# Usage: tools/whatif_table.sh [whatif-name ...]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/sim/cli/codesim
[ -x "$bin" ] || ./tools/build.sh codesim >/dev/null
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in scenarios/whatif-*.yaml; do names+=("$(basename "$f" .yaml)"); done
fi
for name in "${names[@]}"; do
  # A failed point is reported in its row; keep going with the next sweep.
  "$bin" sweep "scenarios/$name.yaml" --out "out/whatif/$name" --jobs "${JOBS:-2}" --format md || true
  echo
done
