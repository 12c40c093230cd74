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
# The main job's report for every training scenario (the full DeepSeek-V3 step takes ~60 s); for a
# what-if sweep or a search, its checked list of points (running them all would take minutes).
for f in scenarios/*.yaml; do
  stem=$(basename "$f" .yaml)
  if grep -Eq '^  objective: (days|cost_usd|gpu_hours|energy_mwh)' "$f"; then  # a campaign search
    "$bin" campaign "$f" --search --format json > "tests/golden/$stem.campaign-search.json.tmp"
    mv "tests/golden/$stem.campaign-search.json.tmp" "tests/golden/$stem.campaign-search.json"
    continue
  fi
  if grep -q '^search:' "$f"; then
    "$bin" search "$f" --dry-run > "tests/golden/$stem.search.txt.tmp"
    mv "tests/golden/$stem.search.txt.tmp" "tests/golden/$stem.search.txt"
    continue
  fi
  if grep -q '^  campaign\.' "$f"; then  # a sweep of campaign keys: every point's run (seconds)
    "$bin" campaign "$f" --sweep --format json > "tests/golden/$stem.campaign-sweep.json.tmp"
    mv "tests/golden/$stem.campaign-sweep.json.tmp" "tests/golden/$stem.campaign-sweep.json"
    continue
  fi
  if grep -q '^sweep:' "$f"; then
    "$bin" sweep "$f" --dry-run > "tests/golden/$stem.sweep.txt.tmp"
    mv "tests/golden/$stem.sweep.txt.tmp" "tests/golden/$stem.sweep.txt"
    continue
  fi
  if grep -q '^campaign:' "$f"; then
    "$bin" campaign "$f" --format json > "tests/golden/$stem.campaign.json.tmp"
    mv "tests/golden/$stem.campaign.json.tmp" "tests/golden/$stem.campaign.json"
  fi
  if grep -q '^serve:' "$f"; then
    "$bin" serve "$f" --format json > "tests/golden/$stem.serve.json.tmp"
    mv "tests/golden/$stem.serve.json.tmp" "tests/golden/$stem.serve.json"
  fi
  if "$bin" run "$f" --format json > "tests/golden/$stem.run.json.tmp" 2>/dev/null; then
    mv "tests/golden/$stem.run.json.tmp" "tests/golden/$stem.run.json"
  else
    rm -f "tests/golden/$stem.run.json.tmp"
  fi
done
# The small test sweep's results (tests/cli/golden_run_test.cpp).
sweep_dir=$(mktemp -d)
"$bin" sweep tests/scenarios/small-sweep.yaml --out "$sweep_dir" > /dev/null
cp "$sweep_dir/results.json" tests/golden/small-sweep.results.json
rm -rf "$sweep_dir"
# The power-limit what-if's results (the same test): its points take seconds.
sweep_dir=$(mktemp -d)
"$bin" sweep scenarios/whatif-power-limit.yaml --out "$sweep_dir" > /dev/null
cp "$sweep_dir/results.json" tests/golden/whatif-power-limit.results.json
rm -rf "$sweep_dir"
"$bin" describe --format md > scenarios/SCHEMA.md.tmp && mv scenarios/SCHEMA.md.tmp scenarios/SCHEMA.md
# The validation page reads the recorded outputs.
python3 tools/validation.py --binary "$bin"
python3 tools/reference.py --binary "$bin"  # the CLI's help and the JSON keys
git --no-pager diff --stat -- tests/golden scenarios/SCHEMA.md docs/validation.md docs/reference \
  || true
