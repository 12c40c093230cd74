#!/usr/bin/env python3
"""Fits codesim's NVLink collective terms (models/hardware/catalog.cpp, the h100/h200 presets'
scale-up link and NCCL costs) to models/calibration/h200x2/nccl_algos.json, and prints predicted
against measured per operation, algorithm and size, held-out sizes marked.
Pure Python, no GPU: python3 tools/calibration/fit_nccl.py

Model (the C++ is the reference: sim/engine/collective.cpp and link_folding.cpp; this mirrors it
for 2 GPUs). NCCL moves data with one of three protocols and picks, per call, the one its cost
model finds fastest; so does codesim:
    time = min over protocols p of  call_p + hops x latency + bytes / (B x e_op x f_p)
  f_p      the protocol's payload fraction, as NCCL documents them: LL 0.5 (each 8-byte store
           carries 4 bytes of data and a flag), LL128 120/128, Simple 1 (not fitted)
  call_p   fixed cost per call with protocol p (launch, setup, synchronisation); one set for
           collectives, one for send/recv and all-to-all (NCCL runs those as grouped
           point-to-point operations)
  B        achievable NVLink bandwidth per GPU and direction
  latency  3.33 us per hop, DeepSeek's H800 NVLink figure (fitting it gives 3.3 us as well)
  e_op     the collective's efficiency: its payload over what the link could carry in that time
           with Simple (NCCL's rings move data through SM-driven FIFOs in chunks)
  2 GPUs: hops = 1 (all-gather, reduce-scatter, all-to-all, send), 2 (ring and tree all-reduce);
  bytes per link direction = S/2 (all-gather, reduce-scatter, all-to-all), S (all-reduce, send).

Fit: every size from 4 KiB to 4 GiB, every third of them held out (64 KiB, 2, 16, 128 MiB,
1 GiB); least squares on log(time), one parameter at a time over a grid, eight rounds.
"""
import json
import math
import statistics

DATA = "models/calibration/h200x2/nccl_algos.json"
LATENCY_US = 3.33
MIB = 1 << 20
PROTOCOLS = {"LL": 0.5, "LL128": 120 / 128, "Simple": 1.0}

# (config, op) -> (hops, bytes per link direction / S, call class, efficiency name)
SHAPE = {
    ("default", "send"): (1, 1.0, "p2p", None),
    ("default", "all_to_all"): (1, 0.5, "p2p", "all_to_all"),
    ("ring", "all_gather"): (1, 0.5, "coll", "ring_all_gather"),
    ("ring", "reduce_scatter"): (1, 0.5, "coll", "ring_reduce_scatter"),
    ("ring", "all_reduce"): (2, 1.0, "coll", "ring_all_reduce"),
    ("tree", "all_reduce"): (2, 1.0, "coll", "tree_all_reduce"),
}


def predict(size, shape, p):
    """(time in us, protocol) of the fastest protocol."""
    hops, per_link, call, eff = shape
    e = p[eff] if eff else 1.0
    return min((p[call + "_" + name] + hops * LATENCY_US + size * per_link / (p["B"] * e * f) * 1e6,
                name) for name, f in PROTOCOLS.items())


def grid(lo, hi, n):
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def main():
    data = json.load(open(DATA))
    series = {}
    for r in data["results"]:
        series.setdefault((r["config"], r["op"]), []).append((r["size_bytes"], r["time_us"]))
    sizes = sorted({s for v in series.values() for s, _ in v})
    held_out = set(sizes[2::3])

    def loss(p):
        return sum(math.log(predict(s, SHAPE[k], p)[0] / t) ** 2
                   for k in SHAPE for s, t in series[k] if s not in held_out)

    effs = sorted({s[3] for s in SHAPE.values() if s[3]})
    p = {"B": 382e9, **{e: 0.8 for e in effs}}
    ranges = {"B": grid(300e9, 450e9, 76), **{e: grid(0.4, 1.1, 141) for e in effs}}
    for call in ("coll", "p2p"):
        for name, start in zip(PROTOCOLS, (2.0, 4.0, 8.0)):
            p[call + "_" + name] = start
            ranges[call + "_" + name] = grid(0, 40, 161)
    for _ in range(8):
        for key, values in ranges.items():
            p[key] = min(values, key=lambda x: loss({**p, key: x}))
    print("fitted: B = %.1f GB/s" % (p["B"] / 1e9))
    for call in ("coll", "p2p"):
        print("  %s call: %s" % (call, ", ".join("%s %.2f us" % (n, p[call + "_" + n])
                                                 for n in PROTOCOLS)))
    for e in effs:
        print("  efficiency %s = %.3f" % (e, p[e]))
    print()
    print("| operation | algorithm | size | measured us | predicted us | protocol | error | |")
    print("|---|---|---:|---:|---:|---|---:|---|")
    errors = {"fitted": [], "held out": [], "held out, 1 MiB and up": []}
    for key, shape in SHAPE.items():
        config, op = key
        for s, t in sorted(series[key]):
            pred, proto = predict(s, shape, p)
            err = pred / t - 1
            held = s in held_out
            errors["held out" if held else "fitted"].append(abs(err))
            if held and s >= MIB:
                errors["held out, 1 MiB and up"].append(abs(err))
            size = "%d KiB" % (s >> 10) if s < MIB else "%d MiB" % (s >> 20)
            algo = {"default": "NCCL's", "ring": "ring", "tree": "tree"}[config]
            if op in ("send", "all_to_all"):
                algo = "direct"
            print("| %s | %s | %s | %.1f | %.1f | %s | %+.1f%% | %s |" %
                  (op.replace("_", "-"), algo, size, t, pred, proto, 100 * err,
                   "held out" if held else ""))
    print()
    for tag, v in errors.items():
        print("%s: %d cases, median |error| %.1f%%, worst %.1f%%" %
              (tag, len(v), 100 * statistics.median(v), 100 * max(v)))


if __name__ == "__main__":
    main()
