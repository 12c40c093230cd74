#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60): ./tools/fuzz.sh [SECONDS]
# Seeds: tests/fuzz/corpus/<target>/ (left unchanged); new inputs go to build-fuzz/corpus/.
# A crash leaves its input in build-fuzz/artifacts/ and fails the run: make it a regression
# test (tests/bad_input/ or the module's error tests) before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
./tools/setup.sh
cmake --preset fuzz >/dev/null
targets=(scenario units model_config chrome_trace step_trace)
cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]/#/fuzz_}"
mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$t"
  echo "fuzz_$t: ${seconds}s" >&2
  "build-fuzz/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="build-fuzz/artifacts/$t-" -print_final_stats=1 \
    "build-fuzz/corpus/$t" "tests/fuzz/corpus/$t" 2>"build-fuzz/fuzz_$t.log" ||
    { tail -40 "build-fuzz/fuzz_$t.log" >&2; echo "fuzz_$t: FAILED (see build-fuzz/artifacts/)" >&2; exit 1; }
  grep -E "stat::number_of_executed_units" "build-fuzz/fuzz_$t.log" >&2 || true
done
echo "fuzz: every target ran ${seconds}s without a crash" >&2
