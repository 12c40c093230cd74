#!/usr/bin/env bash
# Set up, build, and run codesim's main job: simulate one DeepSeek-V3 pre-training step on 2048
# H800 (scenarios/deepseek-v3-h800-mpft.yaml, about 5 s on 2 cores once built) and report it; prints where the
# report files are.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/build.sh codesim
bin=build/sim/cli/codesim
scenario="${1:-scenarios/deepseek-v3-h800-mpft.yaml}"
out=out/quickstart
mkdir -p "$out"
# codesim writes files to a temporary name and renames them: no half-written report, ever.
"$bin" run "$scenario" --report "$out/report.json" --chrome-trace "$out/timeline.json"
echo
echo "codesim: reports in $out/ (report.json; timeline.json opens in Perfetto or chrome://tracing)"
