#!/usr/bin/env python3
"""Fits codesim's NCCL terms inside one NVLink domain (models/hardware/catalog.cpp: the NVLink
bandwidth and kNcclHopper) to models/calibration/h200x2/nccl_algos.json, and prints predicted
against measured per operation, algorithm and size, held-out sizes marked.
Pure Python, no GPU: python3 tools/calibration/fit_nccl.py
Writes models/calibration/h200x2/fit_nccl.json, which the build embeds (models/calibration/
nccl.hpp, read by models/hardware/catalog.cpp): B in GB/s to 0.1, the calls in us and the rates in
GB/s to 0.01, the all-to-all efficiency to 0.001 (the grids' steps are coarser).

Model (the C++ is the reference: sim/comm/nccl_tuner.cpp and collective.cpp; this mirrors it for
2 GPUs of one node, Hopper, 18 NVLinks):
    time = call_p + hops x latency + bytes / (B x e x f_p)
  p        the protocol NCCL runs: for a collective the one NCCL's own tuner predicts fastest
           (NCCL 2.28 src/graph/tuning.cc, its constants; docs/model/nccl.md), which is not
           always the fastest; for send/recv and all-to-all LL up to 16 KiB per peer, else Simple
           (src/enqueue.cc, NCCL_P2P_LL_THRESHOLD)
  f_p      the protocol's payload fraction, as NCCL documents them: LL 0.5, LL128 120/128,
           Simple 1 (not fitted)
  call_p   fixed cost per call with protocol p (launch, setup, synchronisation); one set for
           collectives, one for send/recv and all-to-all
  B        achievable NVLink bandwidth per GPU and direction
  latency  3.33 us per hop, DeepSeek's H800 NVLink figure
  e        collectives: min(1, C x r_op / B), C the channels NCCL runs at that size (24 on 2 or 8
           H200: its ring search finds 6 rings at 60 GB/s over 18 x 20.6, duplicates them to 12
           and runs each twice; fewer while size < C x threads x NCCL's thread threshold), r_op
           the collective's rate per channel; all-to-all: its link efficiency (no channel bound
           was found: send and all-to-all run 16-32 channels a peer); send: 1
  2 GPUs: hops = 1 (all-gather, reduce-scatter, all-to-all, send), 2 (ring and tree all-reduce);
  bytes per link direction = S/2 (all-gather, reduce-scatter, all-to-all), S (all-reduce, send).

Fit: every size from 4 KiB to 4 GiB, every third of them held out (64 KiB, 2, 16, 128 MiB,
1 GiB); least squares on log(time), one parameter at a time over a grid, ten rounds (rates and
costs first, then B).
"""
import json
import math
import os
import statistics

from fitted_constants import write_fit

SOURCE = "models/calibration/h200x2/nccl_algos.json"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DATA = os.path.join(ROOT, SOURCE)
OUTPUT = os.path.join(ROOT, "models/calibration/h200x2/fit_nccl.json")
LATENCY_US = 3.33
MIB = 1 << 20
PROTOCOLS = {"LL": 0.5, "LL128": 120 / 128, "Simple": 1.0}
RANKS = 2
RUNTIME_CHANNELS = 24  # sim/comm/nccl_tuner.cpp's nccl_channels for 18 NVLinks, Hopper

# (config, op) -> (hops, bytes per link direction / S, call class, rate name)
SHAPE = {
    ("default", "send"): (1, 1.0, "p2p", None),
    ("default", "all_to_all"): (1, 0.5, "p2p", "e_all_to_all"),
    ("ring", "all_gather"): (1, 0.5, "coll", "r_all_gather"),
    ("ring", "reduce_scatter"): (1, 0.5, "coll", "r_reduce_scatter"),
    ("ring", "all_reduce"): (2, 1.0, "coll", "r_ring_all_reduce"),
    ("tree", "all_reduce"): (2, 1.0, "coll", "r_tree_all_reduce"),
}

# NCCL 2.28's tuner for one node of Hopper GPUs over NVLink (tuning.cc): base latency per
# algorithm and protocol, NVLink hardware latency per step, the protocols' bandwidth limits.
BASE = {"ring": {"LL": 6.6, "LL128": 14.0, "Simple": 8.4},
        "tree": {"LL": 6.8, "LL128": 14.0, "Simple": 8.4}}
HW_NVLINK = {"ring": {"LL": 0.6, "LL128": 1.9, "Simple": 3.4},
             "tree": {"LL": 0.6, "LL128": 1.25, "Simple": 4.0}}
LL_MAX_BW, RING_LL128_PER_CH, TREE_PER_CH, TREE_LL128_PER_CH = 141.0, 36.7, 38.7, 36.7
TREE_CORRECTION = {
    "LL": [1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0,
           1.0, 1.0, 1.0],
    "LL128": [1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9,
              .9, 1.0, 1.0, 1.0],
    "Simple": [.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8,
               .9, .9, .9]}
RING_SEARCH = (12, 30.0)  # channels x GB/s each after duplication (18 x 20.6 GB/s of NVLink)
TREE_SEARCH = (12, 60.0)  # the ring's channel count, at the speed the tree's 2x budget allows


def nccl_protocol(op, algo, size):
    """The protocol NCCL runs for one call of `size` bytes (2 ranks, one node)."""
    if op in ("send", "all_to_all"):
        per_peer = size if op == "send" else size / RANKS
        return "LL" if per_peer <= 16384 else "Simple"
    n = RANKS
    times = {}
    if algo == "ring":
        channels, bw = RING_SEARCH
        bus = channels * bw
        bws = {"LL": min(LL_MAX_BW, bus * .5),
               "LL128": min(bus * .92, channels * RING_LL128_PER_CH), "Simple": bus}
        steps = 2 * (n - 1) if op == "all_reduce" else n - 1
        for p, b in bws.items():
            times[p] = BASE["ring"][p] + steps * HW_NVLINK["ring"][p] + size / (1e3 * b * n / steps)
    else:
        channels, bw = TREE_SEARCH
        bus = min(channels * bw * .92, channels * TREE_PER_CH)
        bws = {"LL": min(bus / 3.8, LL_MAX_BW),
               "LL128": min(bus * 7 / 9, channels * TREE_LL128_PER_CH), "Simple": bus}
        log_size = int(math.log2(size >> 6))
        for p, b in bws.items():
            factor = TREE_CORRECTION[p][log_size] if 0 <= log_size < 23 else 1.0
            times[p] = (BASE["tree"][p] + 2 * (n - 1) * HW_NVLINK["tree"][p]
                        + size / (1e3 * b * .5 * factor))
    return min(times, key=times.get)


def channels_at(size, protocol, algo):
    """The channels NCCL runs for a collective of `size` bytes (enqueue.cc's thread thresholds)."""
    threads = {"LL": 512, "LL128": 640, "Simple": 512}[protocol]
    threshold = {"LL": 8 * (RANKS if algo == "ring" else 1), "LL128": 8, "Simple": 64}[protocol]
    c = RUNTIME_CHANNELS
    while size < c * threads * threshold and c > 1:
        c -= 1
    return c


def predict(size, key, p):
    """(time in us, protocol)."""
    config, op = key
    hops, per_link, call, rate = SHAPE[key]
    algo = "tree" if config == "tree" else "ring"
    proto = nccl_protocol(op, algo, size)
    if call == "coll":
        e = min(1.0, channels_at(size, proto, algo) * p[rate] / p["B"])
    else:
        e = p[rate] if rate else 1.0
    return (p[call + "_" + proto] + hops * LATENCY_US
            + size * per_link / (p["B"] * e * PROTOCOLS[proto]) * 1e6, proto)


def grid(lo, hi, n):
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def fit():
    data = json.load(open(DATA))
    series = {}
    for r in data["results"]:
        series.setdefault((r["config"], r["op"]), []).append((r["size_bytes"], r["time_us"]))
    sizes = sorted({s for v in series.values() for s, _ in v})
    held_out = set(sizes[2::3])

    def loss(p):
        return sum(math.log(predict(s, k, p)[0] / t) ** 2
                   for k in SHAPE for s, t in series[k] if s not in held_out)

    p = {"B": 364e9, "e_all_to_all": 0.85, "r_all_gather": 10.5e9, "r_reduce_scatter": 10.5e9,
         "r_ring_all_reduce": 13.5e9, "r_tree_all_reduce": 13e9}
    ranges = {k: grid(5e9, 40e9, 141) for k in p if k.startswith("r_")}
    ranges["e_all_to_all"] = grid(0.5, 1.0, 101)
    calls = {"coll": ("LL", "LL128", "Simple"), "p2p": ("LL", "Simple")}
    for call, names in calls.items():
        for name in names:
            p[call + "_" + name] = 5.0
            ranges[call + "_" + name] = grid(0, 40, 161)
    ranges["B"] = grid(300e9, 450e9, 151)
    for _ in range(10):
        for key, values in ranges.items():
            p[key] = min(values, key=lambda x: loss({**p, key: x}))
    print("fitted: B = %.1f GB/s" % (p["B"] / 1e9))
    for call, names in calls.items():
        print("  %s call: %s" % (call, ", ".join("%s %.2f us" % (n, p[call + "_" + n])
                                                 for n in names)))
    for k in sorted(p):
        if k.startswith("r_"):
            print("  %s = %.2f GB/s per channel (x %d channels = %.0f GB/s)" %
                  (k, p[k] / 1e9, RUNTIME_CHANNELS, p[k] * RUNTIME_CHANNELS / 1e9))
    print("  e_all_to_all = %.3f" % p["e_all_to_all"])
    print()
    print("| operation | algorithm | size | measured us | predicted us | protocol | error | |")
    print("|---|---|---:|---:|---:|---|---:|---|")
    errors = {"fitted": [], "held out": [], "held out, 1 MiB and up": []}
    for key in SHAPE:
        config, op = key
        for s, t in sorted(series[key]):
            pred, proto = predict(s, key, p)
            err = pred / t - 1
            held = s in held_out
            errors["held out" if held else "fitted"].append(abs(err))
            if held and s >= MIB:
                errors["held out, 1 MiB and up"].append(abs(err))
            size = "%d KiB" % (s >> 10) if s < MIB else "%d MiB" % (s >> 20)
            algo = "direct" if op in ("send", "all_to_all") else config
            print("| %s | %s | %s | %.1f | %.1f | %s | %+.1f%% | %s |" %
                  (op.replace("_", "-"), algo, size, t, pred, proto, 100 * err,
                   "held out" if held else ""))
    print()
    for tag, v in errors.items():
        print("%s: %d cases, median |error| %.1f%%, worst %.1f%%" %
              (tag, len(v), 100 * statistics.median(v), 100 * max(v)))
    constants = {"nvlink_bandwidth_gbps": round(p["B"] / 1e9, 1)}
    for call, names in calls.items():
        for name in names:
            constants[f"{call}_call_{name.lower()}_us"] = round(p[call + "_" + name], 2)
    for k in sorted(p):
        if k.startswith("r_"):
            constants[k[2:] + "_per_channel_gbps"] = round(p[k] / 1e9, 2)
    constants["all_to_all_efficiency"] = round(p["e_all_to_all"], 3)
    return {"source": [SOURCE], "script": "tools/calibration/fit_nccl.py", "constants": constants}


def main():
    write_fit(fit(), OUTPUT)


if __name__ == "__main__":
    main()
