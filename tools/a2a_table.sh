#!/usr/bin/env bash
# DeepEP's H800 tables (DeepEP README, H800 + ConnectX-7 400 Gb/s, 2025) against `codesim a2a`,
# with the error per row; sim/engine/README.md copies the output. Routing as DeepEP's tests:
# tokens routed at random (--strength 0), experts balanced; normal kernels 4096 tokens per GPU
# with at most 4 nodes per token (MPFT, DeepSeek's cluster); low-latency kernels 128 tokens,
# no node limit, on a single-plane fat tree (the original kernels reach a GPU of the same node
# through the NICs, which an MPFT's planes cannot). Bandwidths in DeepEP's accounting (its tests
# count a token once per chosen node, own node included, or once per chosen expert).
# Usage: tools/a2a_table.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/sim/cli/codesim
[ -x "$bin" ] || ./tools/build.sh codesim >/dev/null
row() {  # mode ep tokens topology published-dispatch published-combine unit(GBps|us) flags...
  "$bin" a2a --gpu h800 --mode "$1" --ep "$2" --tokens "$3" --family "$4" --strength 0 \
    --format json "${@:8}" | python3 -c '
import json, sys
mode, unit, pd, pc = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
j = json.load(sys.stdin)
cells = []
for phase, published in (("dispatch", pd), ("combine", pc)):
    p = j[phase]
    if unit == "us":
        model, err = p["time_us"], p["time_us"] / published - 1
    else:
        bw = p["nvlink_bandwidth_GBps"] if j["ep"] <= 8 and mode == "deepep-normal" else \
            p["deepep_rdma_bandwidth_GBps"]
        model, err = bw, published / bw - 1  # time error = published bandwidth / model - 1
    cells += ["%.0f %s" % (published, unit.replace("GBps", "GB/s")),
              "%.1f %s" % (model, unit.replace("GBps", "GB/s")), "%+.0f%%" % (100 * err),
              p["bound_by"].split(" ")[0]]
print("| %s | %d | %s |" % (mode, j["ep"], " | ".join(cells)))
' "$1" "$7" "$5" "$6"
}
echo "| mode | EP | dispatch published | model | time error | bound by | combine published | model | time error | bound by |"
echo "|---|---:|---:|---:|---:|---|---:|---:|---:|---|"
# Normal kernels: bottleneck bandwidth (EP8: NVLink; EP16-64: RDMA in DeepEP's accounting).
normal=(8:153:158 16:43:43 32:58:57 64:51:50)
for r in "${normal[@]}"; do IFS=: read -r ep d c <<<"$r"
  row deepep-normal "$ep" 4096 mpft "$d" "$c" GBps --node-limit 4 --sms 24; done
# Low-latency kernels as first released (pure RDMA), and with intra-node NVLink.
ll=(8:163:318 16:173:329 32:182:350 64:186:353 128:192:369 256:194:360)
for r in "${ll[@]}"; do IFS=: read -r ep d c <<<"$r"
  row deepep-low-latency "$ep" 128 ft2 "$d" "$c" us --node-limit 8; done
llnv=(8:77:114 16:118:195 32:155:273 64:173:314 128:192:369 256:194:360)
for r in "${llnv[@]}"; do IFS=: read -r ep d c <<<"$r"
  row deepep-low-latency-nvlink "$ep" 128 ft2 "$d" "$c" us --node-limit 8; done
