#!/usr/bin/env python3
"""Fits codesim's NVLink collective terms (models/hardware/catalog.cpp, the h100/h200 presets'
scale-up link and NCCL costs) to models/calibration/h200x2/nccl_algos.json, and prints predicted
against measured per operation, algorithm and size, held-out sizes marked.
Pure Python, no GPU: python3 tools/calibration/fit_nccl.py

Model (the C++ is the reference: sim/engine/collective.cpp; this mirrors it for 2 GPUs):
    time = call + hops x latency + bytes on a GPU's busiest link direction / (B x e_op)
  B        achievable NVLink bandwidth per GPU and direction: fitted to `send` (one GPU copying to
           another is the most a link carries)
  call     fixed cost per NCCL call (launch, setup); one for collectives, one for send/recv and
           all-to-all (NCCL runs those as grouped point-to-point operations)
  latency  3.33 us per hop, DeepSeek's H800 NVLink figure (not fitted: two GPUs cannot tell a
           hop's latency from the call's cost)
  e_op     the collective's efficiency: its payload over what the link could carry in that time
           (NCCL's ring moves data through SM-driven FIFOs in chunks; tree pipelines up and down)
  2 GPUs: hops = 1 (all-gather, reduce-scatter, all-to-all, send), 2 (ring and tree all-reduce);
  bytes per link direction = S/2 (all-gather, reduce-scatter, all-to-all), S (all-reduce, send).

Fit: sizes 1 MiB to 4 GiB; every third of them (2, 16, 128 MiB, 1 GiB) held out; least squares on
log(time) by grid search. Sizes under 1 MiB are predicted and shown, not fitted.
"""
import json
import math
import statistics

DATA = "models/calibration/h200x2/nccl_algos.json"
LATENCY_US = 3.33
MIB = 1 << 20
FIT_SIZES = [MIB << i for i in range(13)]
HELD_OUT = set(FIT_SIZES[1::3])

# (config, op) -> (hops, bytes per link direction / S, call class, efficiency name)
SHAPE = {
    ("default", "send"): (1, 1.0, "p2p", None),
    ("default", "all_to_all"): (1, 0.5, "p2p", "all_to_all"),
    ("ring", "all_gather"): (1, 0.5, "coll", "ring_all_gather"),
    ("ring", "reduce_scatter"): (1, 0.5, "coll", "ring_reduce_scatter"),
    ("ring", "all_reduce"): (2, 1.0, "coll", "ring_all_reduce"),
    ("tree", "all_reduce"): (2, 1.0, "coll", "tree_all_reduce"),
}


def predict_us(size, shape, p):
    hops, per_link, call, eff = shape
    e = p[eff] if eff else 1.0
    return p[call] + hops * LATENCY_US + size * per_link / (p["B"] * e) * 1e6


def log_loss(points, shape, p):
    return sum(math.log(predict_us(s, shape, p) / t) ** 2 for s, t in points)


def grid(lo, hi, n):
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def main():
    data = json.load(open(DATA))
    series = {}
    for r in data["results"]:
        series.setdefault((r["config"], r["op"]), []).append((r["size_bytes"], r["time_us"]))
    fit = {k: [(s, t) for s, t in v if s in FIT_SIZES and s not in HELD_OUT]
           for k, v in series.items()}
    p = {}
    # B and the point-to-point call cost from send.
    best = None
    for b in grid(300e9, 450e9, 151):
        for c in grid(0, 30, 61):
            loss = log_loss(fit[("default", "send")], SHAPE[("default", "send")],
                            {"B": b, "p2p": c})
            if best is None or loss < best[0]:
                best = (loss, b, c)
    p["B"], p["p2p"] = best[1], best[2]
    # The collectives' call cost and efficiencies: alternate, each a 1-D grid.
    p["coll"] = 5.0
    effs = sorted({s[3] for s in SHAPE.values() if s[3]})
    for e in effs:
        p[e] = 0.8
    for _ in range(6):
        for e in effs:
            keys = [k for k, s in SHAPE.items() if s[3] == e]
            p[e] = min(grid(0.4, 1.1, 701),
                       key=lambda x: sum(log_loss(fit[k], SHAPE[k], {**p, e: x}) for k in keys))
        keys = [k for k, s in SHAPE.items() if s[2] == "coll"]
        p["coll"] = min(grid(0, 40, 401),
                        key=lambda x: sum(log_loss(fit[k], SHAPE[k], {**p, "coll": x})
                                          for k in keys))
    print("fitted: B = %.1f GB/s, collective call = %.1f us, p2p call = %.1f us" %
          (p["B"] / 1e9, p["coll"], p["p2p"]))
    for e in effs:
        print("  efficiency %s = %.3f" % (e, p[e]))
    print()
    print("| operation | algorithm | size | measured us | predicted us | error | |")
    print("|---|---|---:|---:|---:|---:|---|")
    errors = {"fitted": [], "held out": [], "under 1 MiB": []}
    for key, shape in SHAPE.items():
        config, op = key
        for s, t in sorted(series[key]):
            pred = predict_us(s, shape, p)
            err = pred / t - 1
            tag = "held out" if s in HELD_OUT else ("fitted" if s in FIT_SIZES else "under 1 MiB")
            errors[tag].append(abs(err))
            size = "%d KiB" % (s >> 10) if s < MIB else "%d MiB" % (s >> 20)
            algo = {"default": "NCCL's", "ring": "ring", "tree": "tree"}[config]
            if op in ("send", "all_to_all"):
                algo = "direct"
            print("| %s | %s | %s | %.1f | %.1f | %+.1f%% | %s |" %
                  (op.replace("_", "-"), algo, size, t, pred, 100 * err,
                   "held out" if tag == "held out" else ""))
    print()
    for tag, v in errors.items():
        print("%s: %d cases, median |error| %.1f%%, worst %.1f%%" %
              (tag, len(v), 100 * statistics.median(v), 100 * max(v)))


if __name__ == "__main__":
    main()
