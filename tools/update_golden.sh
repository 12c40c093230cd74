#!/usr/bin/env bash
# Regenerates golden files from the current build; review the diff before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/sim/cli/codesim
[ -x "$bin" ] || { echo "build first: ./tools/test.sh" >&2; exit 2; }
mkdir -p tests/golden
for f in scenarios/*.yaml; do
  stem=$(basename "$f" .yaml)
  "$bin" check "$f" > "tests/golden/$stem.check.yaml.tmp"
  mv "tests/golden/$stem.check.yaml.tmp" "tests/golden/$stem.check.yaml"
done
# The main job's report for every training scenario (the full DeepSeek-V3 step takes ~30 s).
for f in scenarios/*.yaml; do
  stem=$(basename "$f" .yaml)
  if "$bin" run "$f" --format json > "tests/golden/$stem.run.json.tmp" 2>/dev/null; then
    mv "tests/golden/$stem.run.json.tmp" "tests/golden/$stem.run.json"
  else
    rm -f "tests/golden/$stem.run.json.tmp"
  fi
done
"$bin" describe --format md > scenarios/SCHEMA.md.tmp && mv scenarios/SCHEMA.md.tmp scenarios/SCHEMA.md
git --no-pager diff --stat -- tests/golden scenarios/SCHEMA.md || true
