#!/usr/bin/env python3
"""Grouped expert GEMMs on the H200 (issue 33): which CUTLASS configuration each case ran, how
the kernel model of models/cost/kernel_cost.cpp predicts them today, and how far a model that
knows the configuration gets. Pure Python, no GPU:
    python3 tools/calibration/fit_grouped.py        (about a minute)

Data: models/calibration/h200/moe/h200_moe_kernels.json (188 cases, CUDA-graph timed, every third
of each class held out) and h200_kernel_names.json (the kernel each case launched: torch.profiler).

1. Configuration. torch._grouped_mm (BF16) and torch._scaled_grouped_mm (FP8, row-wise scales)
   run CUTLASS 3 grouped kernels (a `prepare_grouped_gemm_data` kernel first). The names show a
   cooperative 128 x 256 tile (BF16; FP8: 128 x 128 or 128 x 256) or a ping-pong 64 x 128 tile.
   Rule checked here on every case: ping-pong when the mean rows per group of a 2d x 3d product
   (forward, data gradient) is at most 128, else cooperative; the 2d x 2d weight gradient always
   cooperative. BF16 grids have 132 CTAs, FP8 grids 58 x 2 = 116: FP8 runs on 116 SMs.
2. Today's model (mirrored from kernel_cost.cpp: the best of three tiles, BF16 terms x 0.94 for
   compute and x 0.50 for memory, the weight gradient at the mean K).
3. The configuration-aware model, per dtype and tile kind (ping-pong, cooperative):
      tiles   T = sum over groups of ceil(m / tm) ceil(n / tn)
      compute = sum over tiles of 2 tm tn (k_g + k0) / (peak x S/132 x e) x ceil(T/S) S / T
      memory  = bytes / (HBM x e_mem x min(1, T/S))
      time    = (compute^p + memory^p)^(1/p) + 1.33 us      (S = 132 BF16, 116 FP8)
   FP8 cooperative takes the faster of its two tiles. Fitted (Nelder-Mead on the mean absolute
   log error plus 0.3 x the worst) to the cases not held out; errors on the held-out ones.
"""
import json
import math
import re
import statistics

from fit_kernels import HBM, PEAK, gemm_us, loss

DIR = "models/calibration/h200/moe/"
LAUNCH_US = 1.33
BYTES = {"bf16": 2, "fp8": 1}
SMS = {"bf16": 132, "fp8": 116}
TILES = {"coop n256": (128, 256), "coop n128": (128, 128), "ping n128": (64, 128)}


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


def hbm_bytes(c):
    """Inputs read once, outputs written once (BF16 out), experts without rows not read."""
    K, N, b = c["k_fwd"], c["n_fwd"], BYTES[c["dtype"]]
    rows = [r for r in c["tokens_per_expert"] if r > 0]
    total, groups = sum(rows), len(rows)
    if c["pass"] == "wgrad":
        return total * (K + N) * b + groups * N * K * 2
    k, n = (K, N) if c["pass"] == "fwd" else (N, K)
    return total * k * b + groups * k * n * b + total * n * 2


def configuration(kernel_name):
    kind = "coop" if "Cooperative" in kernel_name else "ping"
    width = re.search(r"MMA_64x(\d+)x", kernel_name).group(1)
    return f"{kind} n{width}"


def rule(c):
    ps = problems(c)
    if c["pass"] != "wgrad" and sum(p[0] for p in ps) / len(ps) <= 128:
        return ["ping n128"]
    return ["coop n256"] if c["dtype"] == "bf16" else ["coop n128", "coop n256"]


def today_us(c):
    """kernel_cost.cpp's grouped GEMM as it stands (fit_kernels.py's mirror: each dtype's own e,
    k0, e_mem, times the grouped factors 0.94 and 0.50; the weight gradient at its mean K)."""
    ps = problems(c)
    params = {"bf16": (0.74, 224, 0.70), "fp8": (0.70, 480, 0.80)}[c["dtype"]]
    return gemm_us([m for m, _, _ in ps], ps[0][1], sum(k for _, _, k in ps) / len(ps),
                   c["dtype"], c["flops"], c["hbm_bytes"], params, LAUNCH_US, 0.94, 0.50)


def aware_us(c, params):
    ps, sms = problems(c), SMS[c["dtype"]]
    best = None
    for config in rule(c):
        e, k0, e_mem, p = params[config.split()[0]]
        tm, tn = TILES[config]
        tiles = sum(math.ceil(m / tm) * math.ceil(n / tn) for m, n, _ in ps)
        work = sum(math.ceil(m / tm) * math.ceil(n / tn) * 2 * tm * tn * (k + k0) for m, n, k in ps)
        compute = work / (PEAK[c["dtype"]] * sms / 132 * e) * math.ceil(tiles / sms) * sms / tiles
        memory = hbm_bytes(c) / (HBM * e_mem * min(1.0, tiles / sms))
        t = (compute ** p + memory ** p) ** (1 / p)
        best = min(best or 1e9, t)
    return best * 1e6 + LAUNCH_US


def decode(x):
    sig = lambda z: 1 / (1 + math.exp(-z))  # noqa: E731
    return {"ping": (sig(x[0]), math.exp(x[1]), sig(x[2]), 1 + math.exp(x[3])),
            "coop": (sig(x[4]), math.exp(x[5]), sig(x[6]), 1 + math.exp(x[7]))}


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


def main():
    cases = json.load(open(DIR + "h200_moe_kernels.json"))["cases"]
    names = {(c["class"], c["name"]): c["kernels"]
             for c in json.load(open(DIR + "h200_kernel_names.json"))["cases"]}
    grouped = [c for c in cases if c["class"].startswith("grouped_gemm")]
    ran = {}
    for c in grouped:
        main_kernel = next(k for k in names[(c["class"], c["name"])] if "device_kernel" in k["name"])
        ran[c["name"] + c["class"]] = (configuration(main_kernel["name"]), main_kernel["grid"])
    matched = sum(1 for c in grouped if ran[c["name"] + c["class"]][0] in rule(c))
    print(f"configuration rule matches {matched} of {len(grouped)} cases")
    for dtype in ("bf16", "fp8"):
        grids = {str(g) for (cfg, g), c in ((ran[c["name"] + c["class"]], c) for c in grouped)
                 if c["dtype"] == dtype}
        print(f"{dtype} grids: {', '.join(sorted(grids))}")
    for dtype in ("bf16", "fp8"):
        mine = [c for c in grouped if c["dtype"] == dtype]
        fit = [c for c in mine if not c["held_out"]]
        held = [c for c in mine if c["held_out"]]
        x = nelder_mead(lambda x: loss([aware_us(c, decode(x)) / c["time_us"] - 1 for c in fit]),
                        [1.0, math.log(300), 1.0, math.log(3)] * 2)
        params = decode(x)
        print(f"\n{dtype}: " + "; ".join(
            f"{kind} e {e:.3f} k0 {k0:.0f} e_mem {em:.3f} p {p:.2f}"
            for kind, (e, k0, em, p) in params.items()))
        for label, model in (("today", today_us), ("aware", lambda c: aware_us(c, params))):
            for which, group in (("fitted", fit), ("held out", held)):
                for pass_ in ("fwd", "dgrad", "wgrad", None):
                    sel = [c for c in group if pass_ is None or c["pass"] == pass_]
                    errors = [model(c) / c["time_us"] - 1 for c in sel]
                    print(f"  {label:6s} {which:9s} {pass_ or 'all':6s} {summary(errors)}")


if __name__ == "__main__":
    main()
