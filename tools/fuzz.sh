#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60): ./tools/fuzz.sh [SECONDS]
# Targets run side by side, one per core. Seeds: tests/fuzz/corpus/<target>/ (left unchanged);
# new inputs go to build-sanitize/corpus/. A crash leaves its input in build-sanitize/artifacts/ and
# fails the run: make it a regression test (tests/bad_input/ or the module's error tests) before
# fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
./tools/setup.sh
cmake --preset sanitize >/dev/null
targets=(scenario units model_config chrome_trace step_trace request_trace campaign)
cmake --build --preset sanitize -j "$(nproc)" --target "${targets[@]/#/fuzz_}"
mkdir -p build-sanitize/artifacts

run_one() {
  local t="$1" seconds="$2"
  mkdir -p "build-sanitize/corpus/$t"
  if "build-sanitize/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="build-sanitize/artifacts/$t-" -print_final_stats=1 \
      "build-sanitize/corpus/$t" "tests/fuzz/corpus/$t" 2>"build-sanitize/fuzz_$t.log"; then
    echo "fuzz_$t: ${seconds}s, $(grep -oE 'number_of_executed_units: [0-9]+' "build-sanitize/fuzz_$t.log" | grep -oE '[0-9]+') runs, no crash" >&2
  else
    tail -40 "build-sanitize/fuzz_$t.log" >&2
    echo "fuzz_$t: FAILED (see build-sanitize/artifacts/)" >&2
    return 1
  fi
}
export -f run_one
printf '%s\n' "${targets[@]}" | xargs -P "$(nproc)" -I{} bash -c 'run_one "$1" "$2"' _ {} "$seconds"
echo "fuzz: every target ran ${seconds}s without a crash" >&2
