#!/usr/bin/env bash
# Set up, build, and run codesim's main job: simulate one DeepSeek-V3 pre-training step on 2048
# H800 (scenarios/deepseek-v3-h800-mpft.yaml, ~30 s on 2 cores) and report it; prints where the
# report files are.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/build.sh codesim
bin=build/sim/cli/codesim
scenario="${1:-scenarios/deepseek-v3-h800-mpft.yaml}"
out=out/quickstart
mkdir -p "$out"
# codesim writes its own files to a temporary name and renames them; the JSON report goes the
# same way here, so an interrupted run never leaves half a report.
"$bin" run "$scenario" --format json --chrome-trace "$out/timeline.json" > "$out/report.json.tmp"
mv "$out/report.json.tmp" "$out/report.json"
"$bin" run "$scenario"
echo
echo "codesim: reports in $out/ (report.json; timeline.json opens in Perfetto or chrome://tracing)"
