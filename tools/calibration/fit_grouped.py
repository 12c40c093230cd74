#!/usr/bin/env python3
"""Grouped expert GEMMs on the H200 (issue 33): which CUTLASS configuration each case ran, how
the plain-GEMM model codesim priced them with before ("before") predicts them, and the
configuration-aware model of models/cost/grouped_gemm.cpp ("aware"), fitted here. Pure Python,
no GPU:
    python3 tools/calibration/fit_grouped.py        (about 8 minutes)

Data: models/calibration/h200/moe/h200_moe_kernels.json (188 sampled cases, CUDA-graph timed,
every third of each class held out), h200_kernel_names.json (the kernel each launched),
h200_grouped_sweep.json (228 cases one factor at a time, DeepSeek-V3's expert shapes) and
h200_grouped_shapes.json (432: rows per expert swept on V2-Lite's, Qwen3-30B-A3B's and
Mixtral's experts) and h200_fp8_wgrad_k.json (170 FP8 weight gradients by their groups' K; its
34 BF16 cases are a control, not fitted: BF16's time steps with each 64-wide k-tile, which the
model does not count), all with the kernel each ran.

1. Configuration, read from the kernel names (CUTLASS 3 grouped kernels behind
   torch._grouped_mm and torch._scaled_grouped_mm with row-wise scales). Per group the GEMM is
   m x n x k (forward: rows x N x K; data gradient: rows x K x N; weight gradient: N x K x rows),
   m_avg its mean m:
     ping-pong, tile 64 x 128, one SM each: m_avg <= 128 (forward and data gradient);
     BF16 otherwise: cooperative 128 x 256 tiles in clusters of 2 along M, a 256 x 256 tile per
       2 SMs (66 clusters);
     FP8 otherwise: cooperative on 116 SMs (the grid 58 x 2), 128 x 128 x 128 tiles (256 x 128
       per pair of SMs) when `large` = two of m_avg, n, k at least 2048, else the wide
       128 x 256 x 64 (256 x 256).
   The rule is checked here against the kernel of every case (printed: misses). The kernel names
   also give the cluster shape: BF16 2 x 1, FP8 2 x 2. CUTLASS's grouped tile scheduler
   (PersistentTileSchedulerSm90Group) rounds each group's tile counts up to the cluster's, and
   the padded tiles run: a group's M tiles are counted in pairs (the 256-row unit tile), FP8's
   N tiles too (and its ping-pong's M tiles).
2. The model before (kernel_cost.cpp's plain GEMM tiling, the best of three tiles, BF16 terms
   x 0.94 for compute and x 0.50 for memory, the weight gradient at the mean K).
3. The configuration-aware model (models/cost/grouped_gemm.cpp runs the same): per dtype and
   kind (ping-pong; cooperative; FP8's wide tile; the cooperative kinds' weight gradients apart),
   each unit (SM or cluster) takes the tiles in launch order round-robin (a persistent grid), and
      main     = (compute^p + load^p)^(1/p)
      compute  = 2 tm tn k / (unit's share of the peak x e)
      load     = (tm + tn / mt) k bytes / (unit's bandwidth bw)   (operand panels streamed; the
                 group's mt M tiles share its weight panel: once from HBM, then from L2)
      epilogue = tm tn 2 / (unit's write rate w)                    (BF16 output)
      tile     = main + epilogue; ping-pong overlaps them: max(main, epilogue), and one
                 epilogue is left at the end; FP8's wide weight gradient adds `odd` to each
                 tile of a group whose K spans an odd number of 64-wide k-tiles (measured:
                 h200_fp8_wgrad_k.json, K of 16-64 rows runs slower than 128)
      time     = max(largest unit's sum of tiles, all bytes / (HBM x e_mem)) + setup + 1.33 us
   e, bw, w, p per kind, e_mem, setup per dtype and FP8's `odd`, fitted (Nelder-Mead on the mean absolute log
   error plus 0.3 x the worst) to the sweeps and the sampled cases not held out; errors on the
   sampled held-out third. The rates are per SM (grouped_gemm.cpp keeps them so).
"""
import json
import math
import re
import statistics

from fit_kernels import HBM, PEAK, gemm_us, loss
from fitted_constants import write_fit

DIR = "models/calibration/h200/moe/"
LAUNCH_US = 1.33
BYTES = {"bf16": 2, "fp8": 1}
SMS = {"bf16": 132, "fp8": 116}


def problems(c):
    """(m, n, k) per group: forward A[rows, K] W[K, N]; data gradient dC[rows, N] W^T; weight
    gradient dC^T[N, rows] A[rows, K] (K of the product = the group's rows)."""
    K, N = c["k_fwd"], c["n_fwd"]
    rows = [r for r in c["tokens_per_expert"] if r > 0]
    if c["pass"] == "fwd":
        return [(r, N, K) for r in rows]
    if c["pass"] == "dgrad":
        return [(r, K, N) for r in rows]
    return [(N, K, r) for r in rows]


def ran(kernel_name, dtype):
    """The kind a kernel name says: ping, coop, or FP8's wide cooperative tile."""
    if "Cooperative" not in kernel_name:
        return "ping"
    return "wide" if dtype == "fp8" and "MMA_64x256" in kernel_name else "coop"


def config(c):
    """(kind, tile m, tile n, units, SMs per unit) by the rule of the docstring."""
    ps = problems(c)
    m = sum(p[0] for p in ps) / len(ps)
    n, k = ps[0][1], sum(p[2] for p in ps) / len(ps)
    if c["pass"] != "wgrad" and m <= 128:
        return "ping", 64, 128, SMS[c["dtype"]], 1
    if c["dtype"] == "bf16":
        return "coop", 256, 256, 66, 2
    large = (m >= 2048 and k >= 2048) or (m >= 2048 and n >= 2048) or (k >= 2048 and n >= 2048)
    return ("coop", 256, 128, 58, 2) if large else ("wide", 256, 256, 58, 2)


def today_us(c):
    """The grouped GEMM as kernel_cost.cpp priced it before (fit_kernels.py's mirror: each
    dtype's own e, k0, e_mem, times the grouped factors 0.94 and 0.50; the weight gradient at its
    mean K)."""
    ps = problems(c)
    params = {"bf16": (0.74, 224, 0.70, 0), "fp8": (0.70, 480, 0.80, 0)}[c["dtype"]]
    flops = c.get("flops") or 2.0 * sum(m * n * k for m, n, k in ps)
    hbm = c.get("hbm_bytes") or sum(m * k + k * n for m, n, k in ps) * BYTES[c["dtype"]]
    return gemm_us([m for m, _, _ in ps], ps[0][1], sum(k for _, _, k in ps) / len(ps),
                   c["dtype"], flops, hbm, params, LAUNCH_US, 0.94, 0.50)


def kind_key(c):
    """The parameter set a case takes: its kind, the cooperative kinds' weight gradients apart."""
    kind = config(c)[0]
    return kind + "w" if kind != "ping" and c["pass"] == "wgrad" else kind


KEYS = {"bf16": ("ping", "coop", "coopw"), "fp8": ("ping", "coop", "coopw", "wide", "widew")}


def aware_us(c, params):
    """The configuration-aware model; params[kind_key] = (e, bw, w, p, e_mem, setup)."""
    _, tm, tn, units, per_unit = config(c)
    e, bw, w, p, e_mem, setup, odd = params[kind_key(c)]
    ping = kind_key(c) == "ping"
    fp8 = c["dtype"] == "fp8"
    odd_rule = kind_key(c) == "widew"
    b = BYTES[c["dtype"]]
    unit_peak = PEAK[c["dtype"]] / 132 * per_unit
    epilogue = tm * tn * 2 / (w * per_unit)
    diff = [0.0] * (units + 1)  # tiles dealt round-robin: each unit's extra over `whole`
    whole, start, total_bytes = 0.0, 0, 0.0
    for m, n, k in problems(c):
        mt = math.ceil(m / tm)
        nt = math.ceil(n / tn)
        if fp8:  # the 2 x 2 cluster: N tiles in pairs; ping-pong's M tiles too
            nt = 2 * math.ceil(nt / 2)
            mt = 2 * math.ceil(mt / 2) if ping else mt
        tiles = mt * nt
        total_bytes += (m * k + k * n) * b + m * n * 2
        compute = 2 * tm * tn * k / (unit_peak * e)
        load = (tm + tn / mt) * k * b / (bw * per_unit)
        main = (compute ** p + load ** p) ** (1 / p)
        t = max(main, epilogue) if ping else main + epilogue
        if odd_rule and math.ceil(k / 64) % 2:
            t += odd
        rounds, rest = divmod(tiles, units)
        whole += rounds * t
        first, end = start % units, start % units + rest
        diff[first] += t
        diff[min(end, units)] -= t
        if end > units:
            diff[0] += t
            diff[end - units] -= t
        start += tiles
    extra, running = 0.0, 0.0
    for j in range(units):
        running += diff[j]
        extra = max(extra, running)
    busiest = whole + extra + (epilogue if ping else 0.0)
    return (max(busiest, total_bytes / (HBM * e_mem)) + setup) * 1e6 + LAUNCH_US


def decode(x, keys):
    """x: 4 per kind, then e_mem and setup, then FP8's odd-k-tile cost."""
    sig = lambda z: 1 / (1 + math.exp(-z))  # noqa: E731
    base = 4 * len(keys)
    odd = math.exp(x[base + 2]) * 1e-6 if len(x) > base + 2 else 0.0
    return {key: (sig(x[4 * i]), math.exp(x[4 * i + 1]) * 1e9, math.exp(x[4 * i + 2]) * 1e9,
                  1 + math.exp(x[4 * i + 3]), sig(x[base]), math.exp(x[base + 1]) * 1e-6, odd)
            for i, key in enumerate(keys)}


def nelder_mead(f, x0, step=0.3, iters=6000):
    n = len(x0)
    pts = [list(x0)] + [[x0[j] + (step if j == i else 0) for j in range(n)] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=vals.__getitem__)
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        if vals[-1] - vals[0] < 1e-10:
            break
        mid = [sum(p[j] for p in pts[:-1]) / n for j in range(n)]
        point = lambda t: [mid[j] + t * (pts[-1][j] - mid[j]) for j in range(n)]  # noqa: E731
        xr = point(-1)
        fr = f(xr)
        if fr < vals[0]:
            xe = point(-2)
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = point(0.5)
            fc = f(xc)
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                pts = [pts[0]] + [[pts[0][j] + 0.5 * (p[j] - pts[0][j]) for j in range(n)]
                                  for p in pts[1:]]
                vals = [vals[0]] + [f(p) for p in pts[1:]]
    return pts[min(range(n + 1), key=vals.__getitem__)]


def summary(errors):
    a = sorted(abs(e) for e in errors)
    return f"{len(a):3d} cases, median {100 * statistics.median(a):5.1f}%, worst {100 * a[-1]:6.1f}%"


def rounded(dtype, params):
    """The fitted terms as the build embeds them (models/cost/grouped_gemm.cpp reads them by
    name), at the precision printed: e and e_mem to 4 decimals, rates in GB/s to 2, p to 3,
    setup and the odd k-tiles' cost in us to 3."""
    out = {}
    for key, (e, bw, w, p, _, _, _) in params.items():
        out.update({f"{dtype}_{key}_e": round(e, 4), f"{dtype}_{key}_bw_gbps": round(bw / 1e9, 2),
                    f"{dtype}_{key}_w_gbps": round(w / 1e9, 2), f"{dtype}_{key}_p": round(p, 3)})
    first = next(iter(params.values()))
    out[f"{dtype}_memory_efficiency"] = round(first[4], 4)
    out[f"{dtype}_setup_us"] = round(first[5] * 1e6, 3)
    if dtype == "fp8":
        out["fp8_odd_k_tiles_us"] = round(first[6] * 1e6, 3)
    return out


def fit():
    sampled = [c for c in json.load(open(DIR + "h200_moe_kernels.json"))["cases"]
               if c["class"].startswith("grouped_gemm")]
    names = {(c["class"], c["name"]): c["kernels"]
             for c in json.load(open(DIR + "h200_kernel_names.json"))["cases"]}
    sweep = [c for f in ("h200_grouped_sweep.json", "h200_grouped_shapes.json")
             for c in json.load(open(DIR + f))["cases"]]
    sweep += [c for c in json.load(open(DIR + "h200_fp8_wgrad_k.json"))["cases"]
              if c["dtype"] == "fp8"]
    misses = 0
    for c in sampled:
        kernel = next(k for k in names[(c["class"], c["name"])] if "device_kernel" in k["name"])
        misses += ran(kernel["name"], c["dtype"]) != config(c)[0]
    for c in sweep:
        misses += ran(c["kernel"], c["dtype"]) != config(c)[0]
    print(f"configuration rule: {misses} misses over {len(sampled) + len(sweep)} kernels")
    constants = {}
    for dtype in ("bf16", "fp8"):
        keys = KEYS[dtype]
        fit = ([c for c in sampled if c["dtype"] == dtype and not c["held_out"]]
               + [c for c in sweep if c["dtype"] == dtype])
        held = [c for c in sampled if c["dtype"] == dtype and c["held_out"]]
        f = lambda x: loss([aware_us(c, decode(x, keys)) / c["time_us"] - 1  # noqa: E731
                            for c in fit])
        x = [1.0, math.log(30), math.log(15), math.log(2)] * len(keys) + [1.5, math.log(2.0)]
        x += [math.log(3.0)] if dtype == "fp8" else []
        for _ in range(3):
            x = nelder_mead(f, x, iters=3000)
        params = decode(x, keys)
        constants.update(rounded(dtype, params))
        first = params[keys[0]]
        print(f"\n{dtype} (e_mem {first[4]:.4f}, setup {first[5] * 1e6:.3f} us, odd k-tiles "
              f"{first[6] * 1e6:.3f} us): " + "; ".join(
                  f"{key} e {e:.4f} bw {bw / 1e9:.2f} GB/s w {w / 1e9:.2f} GB/s p {p:.3f}"
                  for key, (e, bw, w, p, _, _, _) in params.items()))
        for label, model in (("before", today_us), ("aware", lambda c: aware_us(c, params))):
            for which, group in (("sweeps", [c for c in sweep if c["dtype"] == dtype]),
                                 ("held out", held)):
                for pass_ in ("fwd", "dgrad", "wgrad", None):
                    sel = [c for c in group if pass_ is None or c["pass"] == pass_]
                    errors = [model(c) / c["time_us"] - 1 for c in sel]
                    print(f"  {label:6s} {which:9s} {pass_ or 'all':6s} {summary(errors)}")
        worst = sorted(held, key=lambda c: -abs(aware_us(c, params) / c["time_us"] - 1))[:3]
        for c in worst:
            print(f"    worst held out: {c['name']} "
                  f"{100 * (aware_us(c, params) / c['time_us'] - 1):+.1f}%")
    return {"source": [DIR + f for f in ("h200_moe_kernels.json", "h200_kernel_names.json",
                                         "h200_grouped_sweep.json", "h200_grouped_shapes.json",
                                         "h200_fp8_wgrad_k.json")],
            "script": "tools/calibration/fit_grouped.py",
            # check_fits.py does not refit it: the test suite has no 8 minutes to spare.
            "refit_by_hand": "python3 tools/calibration/fit_grouped.py (about 8 minutes)",
            "constants": constants}


def main():
    write_fit(fit(), DIR + "fit_grouped.json")


if __name__ == "__main__":
    main()
