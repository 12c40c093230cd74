#!/usr/bin/env python3
"""DeepEP's normal kernels as DeepSeek's training ran them, fitted to its H800 profile trace
(models/calibration/deepseek-h800/train.json: one DualPipe chunk pair of 4 MoE layers, EP 64,
4096 tokens per micro-batch, 20 SMs held by DeepEP).

Per layer the trace's communication stream runs six DeepEP kernels: an FP8 dispatch of the
output gradients with the handle cached (the backward's), the forward's layout
(get_dispatch_layout) and count exchange (notify_dispatch), the forward's FP8 dispatch, and two
BF16 combines (the forward's, and the backward's of the input gradients). codesim prices a
transfer in the dispatch direction and one in the combine direction (`codesim a2a`, the same
EP 64 round on H800 MPFT that the main scenario routes: deepseek-v3, node limit 4, the reference
gate with its default skew and 100 balancing steps, 20 SMs, 8 GB/s per SM); the kernels here are
slower than that model of DeepEP's published benchmark, whose time there is its SMs' copying
(the forwarding SMs' cap binds, not a link):

  deepep_dispatch_rate   model bandwidth time / (measured dispatch kernels' mean - model latency):
                         the share of their pace alone the kernel's SMs keep
  deepep_combine_rate    the same for the combine kernels
  deepep_layout_us       layout + notify kernels' mean per forward dispatch (the count exchange
                         waits for every peer: mostly the EP group's skew, as it ran)

Nothing is held out: the trace has 8 kernels of each direction and 4 of setup, all used; their
spread is printed. The model's side is recorded in deepep_model.json (run with --binary to
rewrite it); `--binary B --check` (a test) fails when the build's model no longer gives it.

Run: python3 tools/calibration/fit_deepep_trace.py [--binary build/sim/cli/codesim [--check]]
"""
import json
import os
import statistics
import subprocess
import sys

from fitted_constants import recorded_fit_main

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "models", "calibration", "deepseek-h800")
TRACE = os.path.join(DATA, "train.json")
MODEL = os.path.join(DATA, "deepep_model.json")
OUTPUT = os.path.join(DATA, "fit_deepep_trace.json")

# The round the model prices: the trace's EP group and micro-batch, the main scenario's routing
# and copy rate (scenarios/deepseek-v3-h800-mpft.yaml with presets/h800-cluster.yaml).
A2A = ["a2a", "--gpu", "h800", "--family", "mpft", "--model", "deepseek-v3", "--ep", "64",
       "--tokens", "4096", "--node-limit", "4", "--sms", "20", "--sm-copy-rate", "8GBps",
       "--mode", "deepep-normal", "--dispatch", "fp8", "--combine", "bf16", "--format", "json"]

# DeepEP's internode kernels by what they do (substrings of the kernel names).
KINDS = {"dispatch": "::internode::dispatch<", "combine": "::internode::combine<",
         "layout": "get_dispatch_layout<", "notify": "::internode::notify_dispatch<"}


def trace_kernels():
    """Durations (us) of the trace's DeepEP kernels, by kind, in trace order."""
    with open(TRACE) as f:
        events = json.load(f)["traceEvents"]
    kernels = sorted((e for e in events if e.get("ph") == "X" and e.get("cat") == "kernel"),
                     key=lambda e: e["ts"])
    return {kind: [e["dur"] for e in kernels if part in e["name"]] for kind, part in KINDS.items()}


def model_round(binary):
    """The model's dispatch and combine of the round (time, latency, fixed cost, bandwidth time)."""
    out = json.loads(subprocess.run([binary] + A2A, check=True, capture_output=True,
                                    text=True).stdout)
    keep = ("time_us", "latency_us", "fixed_cost_us", "bandwidth_time_us", "bound_by")
    return {"command": "codesim " + " ".join(A2A),
            "dispatch": {k: out["dispatch"][k] for k in keep},
            "combine": {k: out["combine"][k] for k in keep}}


def fit():
    """The fit's output: the constants, the measured kernels and the model's round."""
    measured = trace_kernels()
    with open(MODEL) as f:
        model = json.load(f)
    out = {"source": "models/calibration/deepseek-h800/train.json",
           "script": "tools/calibration/fit_deepep_trace.py",
           "model": "models/calibration/deepseek-h800/deepep_model.json",
           "measured_us": measured, "constants": {}, "spread": {}}
    for kind in ("dispatch", "combine"):
        m = model[kind]
        # The rate scales the kernel's SM caps: it is the ratio of times only where they bind.
        assert m["bound_by"] == "SM copy rate", (kind, m["bound_by"])
        kernels = measured[kind]
        mean = statistics.fmean(kernels)
        rate = m["bandwidth_time_us"] / (mean - m["latency_us"] - m["fixed_cost_us"])
        out["constants"][f"deepep_{kind}_rate"] = round(rate, 4)
        out["spread"][kind] = {"mean_us": round(mean, 1), "min_us": min(kernels),
                               "max_us": max(kernels), "model_us": m["time_us"],
                               "kernels": len(kernels)}
        print(f"{kind}: {len(kernels)} kernels, mean {mean:.0f} us ({min(kernels)}-{max(kernels)}),"
              f" model {m['time_us']:.0f} us ({m['bound_by']}): rate {rate:.4f}")
    setup = [a + b for a, b in zip(measured["layout"], measured["notify"], strict=True)]
    out["constants"]["deepep_layout_us"] = round(statistics.fmean(setup), 1)
    out["spread"]["layout"] = {"mean_us": round(statistics.fmean(setup), 1), "min_us": min(setup),
                               "max_us": max(setup), "kernels": len(setup)}
    print(f"layout + notify per forward dispatch: {len(setup)}, mean "
          f"{statistics.fmean(setup):.0f} us ({min(setup)}-{max(setup)})")
    return out


def main():
    return recorded_fit_main(__doc__.splitlines()[0], MODEL, model_round, fit, OUTPUT,
                             "fit_deepep_trace.py")


if __name__ == "__main__":
    sys.exit(main())
