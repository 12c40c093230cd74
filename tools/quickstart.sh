#!/usr/bin/env bash
# Set up, build, and run codesim's main job on the default scenario; prints where the report is.
# Until the step simulator lands, the main job is the model analytics of the scenario's model
# plus the scenario itself, loaded, validated and resolved.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/build.sh codesim
bin=build/sim/cli/codesim
scenario=scenarios/deepseek-v3-h800-mpft.yaml
out=out/quickstart
mkdir -p "$out"
# Each report is written to a temporary name and renamed: no half-written file is ever left.
"$bin" check "$scenario" > "$out/scenario.resolved.yaml.tmp"
mv "$out/scenario.resolved.yaml.tmp" "$out/scenario.resolved.yaml"
"$bin" model deepseek-v3 --format json > "$out/model.json.tmp"
mv "$out/model.json.tmp" "$out/model.json"
"$bin" model deepseek-v3
echo
echo "codesim: scenario $scenario is valid; reports in $out/ (scenario.resolved.yaml, model.json)"
