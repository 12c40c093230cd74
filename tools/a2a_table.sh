#!/usr/bin/env bash
# Runs `codesim a2a` for the cases of sim/engine/README.md (normal EP 8-64 with 4096 tokens per
# GPU, low-latency EP 8-256 with 128) and prints the Markdown table rows, with the bench figures.
# Usage: tools/a2a_table.sh [extra codesim a2a flags, e.g. --hardware h800 --topology mpft]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/sim/cli/codesim
[ -x "$bin" ] || ./tools/build.sh codesim >/dev/null
row() {  # mode ep tokens
  "$bin" a2a --mode "$1" --ep "$2" --tokens "$3" --bench --format json "${@:4}" | python3 -c '
import json, sys
j = json.load(sys.stdin)
d, c, b = j["dispatch"], j["combine"], j["bench"]
print("| %s | %d | %d | %.2f | %.1f | %.1f | %.1f | %s | %.1f | %.1f | %s | %.1f |" % (
    j["mode"], j["ep"], j["tokens_per_gpu"], j["mean_nodes_per_token"],
    d["rdma_bytes_per_gpu"] / 1e6, d["nvlink_bytes_per_gpu"] / 1e6,
    d["time_us"], d["bound_by"], d["rdma_bandwidth_GBps"], c["time_us"], c["bound_by"],
    (b["platform_seconds"] + b["simulation_seconds"]) * 1e3))'
}
echo "| mode | EP | tokens/GPU | nodes/token | dispatch RDMA MB/GPU | dispatch NVLink MB/GPU | dispatch us | dispatch bound by | dispatch RDMA GB/s | combine us | combine bound by | simulated in ms |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for ep in 8 16 32 64; do row deepep-normal "$ep" 4096 "$@"; done
for ep in 8 16 32 64 128 256; do row deepep-low-latency "$ep" 128 "$@"; done
