#!/usr/bin/env python3
"""A GPU's power and clock model, fitted to models/calibration/<gpu>/power/<gpu>_clock.json (kernel
classes at duties 0.45-1, the SM clock from NVML, confirmed by cycle-counting probes) and the idle
power of <gpu>_power.json; <gpu> is h200 or h100 (the same scripts ran on both). Writes
<gpu>/power/fit_power.json, whose "constants" the build embeds (calibration::power_<gpu>) as the
preset's PowerSpec (models/hardware/catalog.cpp).

  awake      the board's power with clocks up and the SMs idle (one thread spinning, as a rank
             waiting on communication): the common intercept of the memory-bound kernels' power
             against their duty (none of them throttles)
  dynamic    per kind of work, watts above `awake` while it runs flat out at the top clock: the
             slope of those lines; for GEMMs and attention (which throttle) from their runs that
             stayed at the top clock: (P - awake) / duty, less the power of the kernel's own HBM
             bytes at the copy kernel's watts per TB/s (the simulator prices a tensor kernel's
             bytes that way beside its FLOPs: a small-batch GEMM streams its weights; its
             arithmetic is in its FLOPs, so the plain copy's energy per byte, not an SM-side
             kernel's with its ALU work)
  kappa      per kind: its time at clock f is max(1, kappa x f_max / f) x its time at f_max (the
             kernels' part that does not follow the SM clock sets the floor), least squares over
             its throttled runs; 0 for kinds that never slowed
  gamma      per kind, energy per unit of work goes as (f / f_max)^gamma: least squares of its
             throttled runs' power, P = awake + duty x dynamic x (f / f_max)^gamma x t(f_max) / t(f);
             kinds that never throttled take the median of the others
  rate       per kind, the measured kernel's rate at f_max (TFLOP/s for tensor work and attention,
             TB/s of HBM for the rest): the preset divides it by its peak for the kernel's share

Run: python3 tools/calibration/fit_power.py [--gpu h200|h100]
"""
import argparse
import json
import math
import os
import statistics

from fitted_constants import write_fit

HERE = os.path.dirname(os.path.abspath(__file__))
CALIBRATION = os.path.join(HERE, "..", "..", "models", "calibration")
CAPPED = 4  # NVML's clock-event reason bit: software power cap


def data(gpu):
    return os.path.join(CALIBRATION, gpu, "power")


def fit(gpu="h200"):
    """The power model of `gpu` from its clock and power runs: the output JSON's content."""
    clock = json.load(open(os.path.join(data(gpu), f"{gpu}_clock.json")))
    idle = json.load(open(os.path.join(data(gpu), f"{gpu}_power.json")))["idle"]["energy_mean_w"]
    fmax = clock["max_sm_mhz"]
    cases = {c["case"]: c for c in clock["cases"]}
    kinds = {"tensor_bf16": "gemm_bf16_8192", "tensor_fp8": "gemm_fp8_8192",
             "attention": "attention_fwd_causal", "sm_memory": "rmsnorm_16384x7168",
             "sm_memory_elementwise": "silu_mul_16384x8192", "copy": "copy_1gib"}
    free = lambda d: CAPPED not in d["reasons"]
    # awake: one intercept for the memory-bound lines (their runs that never throttled).
    xs, ys, which = [], [], []
    for k in ("sm_memory", "sm_memory_elementwise", "copy"):
        for d in cases[kinds[k]]["duties"]:
            if free(d):
                xs.append(d["duty"]); ys.append(d["energy_mean_w"]); which.append(k)
    # Common intercept, separate slopes: the intercept by grid search (0.1 W steps), each slope by
    # least squares through it.
    names = sorted(set(which))
    best = None
    for a in [x / 10 for x in range(600, 2000)]:
        err = 0
        for k in names:
            px = [x for x, w in zip(xs, which) if w == k]
            py = [y for y, w in zip(ys, which) if w == k]
            s = sum(x * (y - a) for x, y in zip(px, py)) / sum(x * x for x in px)
            err += sum((a + s * x - y) ** 2 for x, y in zip(px, py))
        if best is None or err < best[0]:
            best = (err, a)
    awake = best[1]
    out = {"script": "tools/calibration/fit_power.py", "fit_args": {"gpu": gpu},
           "data": f"{gpu}/power/{gpu}_clock.json, {gpu}/power/{gpu}_power.json ({clock['gpu']})",
           "idle_w": idle, "awake_w": awake, "max_mhz": fmax, "kinds": {}}
    print(f"idle {idle:.1f} W, awake (clocks up, SMs idle) {awake:.1f} W, f_max {fmax} MHz")
    for k, name in kinds.items():
        c = cases[name]
        runs = c["duties"]
        top = [d for d in runs if free(d) and d["nvml_sm_mhz"] >= fmax - 1]
        t_ref = statistics.median(d["kernel_us"] for d in top)
        dyn = statistics.mean((d["energy_mean_w"] - awake) / d["duty"] for d in top)
        capped = [d for d in runs if not free(d) and d["nvml_sm_mhz"] < fmax - 30]
        slowed = [d for d in capped if d["kernel_us"] > t_ref * 1.01]
        cnt = len(slowed)
        kappa = 0.0
        if cnt:  # least squares of max(1, kappa f_max / f) against the measured time ratios
            def err(kp):
                return sum((max(1.0, kp * fmax / d["nvml_sm_mhz"]) - d["kernel_us"] / t_ref) ** 2
                           for d in capped)
            kappa = min((x / 10000 for x in range(5000, 10001)), key=err)
        rows = []
        for d in capped:
            r = d["nvml_sm_mhz"] / fmax
            stretch = max(1.0, kappa / r) if kappa else 1.0
            ratio = (d["energy_mean_w"] - awake) * d["kernel_us"] / (d["duty"] * dyn * t_ref)
            g = math.log(ratio) / math.log(r)
            rows.append((d["duty"], d["nvml_sm_mhz"], d["kernel_us"] / t_ref, stretch, g))
        gamma_k = None
        if cnt:  # least squares in watts over the kind's throttled runs
            def perr(g):
                return sum((awake + d["duty"] * dyn * (d["nvml_sm_mhz"] / fmax) ** g * t_ref
                            / d["kernel_us"] - d["energy_mean_w"]) ** 2 for d in capped)
            gamma_k = min((x / 1000 for x in range(0, 3001)), key=perr)
        work = c["flops"] / 1e12 if c["flops"] else c["hbm_bytes"] / 1e12  # TFLOP or TB
        out["kinds"][k] = {"case": name, "t_ref_us": t_ref, "rate": work / (t_ref * 1e-6),
                           "dynamic_w": dyn, "kappa": kappa, "gamma": gamma_k, "capped": rows}
        print(f"{k:22s} {name:22s} t_ref {t_ref:8.1f} us  dynamic {dyn:6.1f} W  kappa {kappa:.4f}"
              + (f"  gamma {gamma_k:.3f}" if gamma_k is not None else ""))
        for duty, f, tr, st, g in rows:
            print(f"    duty {duty:.2f} at {f:5.0f} MHz: time x{tr:.3f} (model x{st:.3f}), gamma {g:.2f}")
    fitted = [v["gamma"] for v in out["kinds"].values() if v["gamma"] is not None]
    gamma = statistics.median(fitted)
    out["gamma_unthrottled_kinds"] = gamma
    print(f"gamma of the kinds that never throttled (median of the others) {gamma:.3f}")
    copy = out["kinds"]["copy"]
    for k in ("tensor_bf16", "tensor_fp8", "attention"):
        v = out["kinds"][k]
        tbps = cases[v["case"]]["hbm_bytes"] / 1e12 / (v["t_ref_us"] * 1e-6)
        v["traffic_w"] = copy["dynamic_w"] * min(1.0, tbps / copy["rate"])
        print(f"{k}: its own {tbps:.3f} TB/s of HBM draw {v['traffic_w']:.1f} W of its dynamic")
    constants = {"idle_w": round(idle, 1), "awake_w": awake, "max_clock_mhz": fmax}
    for k, v in out["kinds"].items():
        constants[f"{k}_dynamic_w"] = round(v["dynamic_w"] - v.get("traffic_w", 0), 1)
        constants[f"{k}_rate"] = round(v["rate"], 4 if v["rate"] < 100 else 1)
        constants[f"{k}_clock_bound"] = v["kappa"]
        constants[f"{k}_energy_exponent"] = v["gamma"] if v["gamma"] is not None else gamma
    out["constants"] = constants
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu", default="h200", choices=["h200", "h100"])
    args = parser.parse_args()
    write_fit(fit(args.gpu), os.path.join(data(args.gpu), "fit_power.json"))


if __name__ == "__main__":
    main()
