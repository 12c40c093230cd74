#!/usr/bin/env bash
# The scale benchmark (issue 57): shipped scenarios grown to 131,072 and 1,048,576 GPUs, each run
# with `codesim run --bench` (where the time went, memory by phase, the symmetry found) under
# /usr/bin/time (wall time and peak memory), one after another on one core. Prints one block per
# run; docs/guide/network.md's "Scale" table is its output on the project's 2-core machine.
# Usage: tools/bench_scale.sh [filter]   (runs whose label contains `filter`; all by default)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/sim/cli/codesim
[ -x "$bin" ] || ./tools/build.sh codesim >/dev/null
filter="${1:-}"

llama=(scenarios/llama3-405b-h100-8k.yaml)
deepseek=(scenarios/deepseek-v3-h800-mpft.yaml)
# Llama 3.1 405B, TP8 PP16: DP 1024 (131,072 GPUs) or 8192 (1,048,576), 16 sequences per replica.
llama_at() { echo "--set hardware.nodes=$1 --set parallelism.dp=$2 --set topology.switch_radix=$3" \
  "--set workload.global_batch_sequences=$((16 * $2))"; }
# DeepSeek-V3, PP16 EP64: the main scenario's 120 sequences per replica of 16 GPUs.
deepseek_at() { echo "--set hardware.nodes=$1 --set workload.global_batch_sequences=$((7680 * $1 / 128))"; }
ft3="--set topology.family=ft3 --set topology.planes=1"

run() {
  local label="$1"
  shift
  [[ "$label" == *"$filter"* ]] || return 0
  echo "== $label"
  /usr/bin/time -f "wall %e s, peak memory %M KB" "$bin" run "$@" --bench --max-memory-mb 60000 \
    2>&1 | tail -2
}

# shellcheck disable=SC2046  # the settings split into words on purpose
{
  run "Llama 3.1 405B, 131,072 H100, FT3 radix 128, fast" "${llama[@]}" $(llama_at 16384 1024 128) --fidelity fast
  run "Llama 3.1 405B, 131,072 H100, FT3 radix 128, full" "${llama[@]}" $(llama_at 16384 1024 128)
  run "Llama 3.1 405B, 1,048,576 H100, FT3 radix 256, fast" "${llama[@]}" $(llama_at 131072 8192 256) --fidelity fast
  run "DeepSeek-V3, 131,072 H800, FT3 radix 128, fast" "${deepseek[@]}" $(deepseek_at 16384) $ft3 --set topology.switch_radix=128 --fidelity fast
  run "DeepSeek-V3, 131,072 H800, FT3 radix 128, full" "${deepseek[@]}" $(deepseek_at 16384) $ft3 --set topology.switch_radix=128
  run "DeepSeek-V3, 1,048,576 H800, FT3 radix 256, fast" "${deepseek[@]}" $(deepseek_at 131072) $ft3 --set topology.switch_radix=256 --fidelity fast
  run "DeepSeek-V3, 1,048,576 H800, MPFT 8 planes radix 512, fast" "${deepseek[@]}" $(deepseek_at 131072) --set topology.switch_radix=512 --fidelity fast
}
