#!/usr/bin/env python3
"""DeepEP's kernel terms (hardware::CommCosts ep_*), fitted to three rows of DeepEP's published
H800 tables (models/calibration/deepep/deepep_published.json), one per term; every other row is
a prediction (tests/cli/deepep_table_test.cpp, sim/engine/README.md's table).

The model prices each row with `codesim a2a` (routing as DeepEP's tests: random tokens, balanced
experts); the three runs are recorded in deepep_kernels_model.json with the terms they were
priced with (the a2a report's `ep_costs`). Each term scales one binding part of its row's time,
time = latency + fixed cost + bandwidth time, so the fit inverts that part:

  ep_forward_rate_per_sm   normal kernels, EP16 dispatch (43 GB/s in DeepEP's accounting: its
                           bytes x chosen nodes over the time), where the forwarding SMs' copy
                           rate binds: the bandwidth time scales as 1 / rate
  ep_low_latency_rate      low-latency kernels, pure RDMA, EP8 dispatch (163 us), where the NIC
                           binds at its small-message efficiency x this rate (below 1): the
                           bandwidth time scales as 1 / efficiency
  ep_low_latency_nvlink_message
                           the NVLink variant's EP8 dispatch (77 us): what is left after the
                           latency and the bandwidth time (at the fitted rate), over the busiest
                           sender's messages copied over NVLink (the record's fixed cost / the
                           term it was priced with)

The normal and low-latency kernels' call costs are not fitted: DeepEP's EP8 normal row leaves no
room for one (the model is at its time with none) and the low-latency rate absorbs its call;
both stay 0 in models/hardware/catalog.cpp.

Run: python3 tools/calibration/fit_deepep_kernels.py [--binary build/sim/cli/codesim [--check]]
  --binary B records the three runs anew (after a model change; the fit is the same at any
  recorded terms: each inversion removes the term the run was priced with); with --check (a
  test) it only checks that the record is what B prints.
"""
import json
import os
import subprocess
import sys

from fitted_constants import recorded_fit_main

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "models", "calibration", "deepep")
PUBLISHED = os.path.join(DATA, "deepep_published.json")
MODEL = os.path.join(DATA, "deepep_kernels_model.json")
OUTPUT = os.path.join(DATA, "fit_deepep_kernels.json")

# The fitted rows as tests/cli/deepep_table_test.cpp runs them.
NORMAL = ["a2a", "--gpu", "h800", "--mode", "deepep-normal", "--family", "mpft", "--strength",
          "0", "--node-limit", "4", "--sms", "24", "--tokens", "4096", "--format", "json",
          "--ep", "16"]
LOW_LATENCY = ["a2a", "--gpu", "h800", "--family", "ft2", "--strength", "0", "--node-limit", "8",
               "--tokens", "128", "--format", "json", "--ep", "8", "--mode"]
RUNS = {"normal_ep16": NORMAL,
        "low_latency_ep8": LOW_LATENCY + ["deepep-low-latency"],
        "low_latency_nvlink_ep8": LOW_LATENCY + ["deepep-low-latency-nvlink"]}
KEEP = ("time_us", "latency_us", "fixed_cost_us", "bandwidth_time_us", "bound_by",
        "deepep_rdma_bytes_per_gpu")


def record(binary):
    """The three runs' dispatch phases and the terms they were priced with."""
    out = {}
    for name, args in RUNS.items():
        j = json.loads(subprocess.run([binary] + args, check=True, capture_output=True,
                                      text=True).stdout)
        out[name] = {"command": "codesim " + " ".join(args), "ep_costs": j["ep_costs"],
                     "dispatch": {k: j["dispatch"][k] for k in KEEP}}
    return out




def published_rows():
    with open(PUBLISHED) as f:
        p = json.load(f)
    normal = {r["ep"]: r for r in p["normal"]["rows"]}
    low_latency = {r["ep"]: r for r in p["low_latency"]["rows"]}
    return normal[16]["dispatch_GBps"], low_latency[8]["rdma_dispatch_us"], \
        low_latency[8]["nvlink_dispatch_us"]


def fit():
    """The fit's output: the three terms, the rows they come from and the model's record."""
    with open(MODEL) as f:
        model = json.load(f)
    normal_gbps, rdma_us, nvlink_us = published_rows()

    run = model["normal_ep16"]
    d, k = run["dispatch"], run["ep_costs"]
    assert d["bound_by"] == "SM copy rate", d["bound_by"]
    published_us = d["deepep_rdma_bytes_per_gpu"] / (normal_gbps * 1e9) * 1e6
    rate_per_sm = k["forward_rate_per_sm_GBps"] * d["bandwidth_time_us"] / (
        published_us - d["latency_us"] - d["fixed_cost_us"])
    print(f"normal EP16 dispatch: published {normal_gbps} GB/s = {published_us:.1f} us, model "
          f"{d['time_us']:.1f} us at {k['forward_rate_per_sm_GBps']} GB/s per SM: "
          f"{rate_per_sm:.4f} GB/s per SM")

    run = model["low_latency_ep8"]
    d, k = run["dispatch"], run["ep_costs"]
    small = k["nic_small_message_efficiency"]
    used = min(1.0, small * k["low_latency_rate"])
    assert used < 1 and d["bound_by"].startswith("ib "), (used, d["bound_by"])
    efficiency = used * d["bandwidth_time_us"] / (rdma_us - d["latency_us"] - d["fixed_cost_us"])
    assert efficiency < 1, efficiency
    rate = efficiency / small
    print(f"low-latency EP8 dispatch: published {rdma_us} us, model {d['time_us']:.1f} us at "
          f"rate {k['low_latency_rate']}: rate {rate:.5f} (efficiency {efficiency:.4f} of the "
          f"NIC)")

    run = model["low_latency_nvlink_ep8"]
    d, k = run["dispatch"], run["ep_costs"]
    messages = (d["fixed_cost_us"] - k["low_latency_call_us"]) / k["low_latency_nvlink_message_us"]
    bandwidth_us = d["bandwidth_time_us"] * min(1.0, small * k["low_latency_rate"]) / efficiency
    message_us = (nvlink_us - d["latency_us"] - k["low_latency_call_us"] - bandwidth_us) / messages
    print(f"low-latency NVLink EP8 dispatch: published {nvlink_us} us, model "
          f"{d['time_us']:.1f} us; {messages:.0f} messages copied by the busiest sender: "
          f"{message_us * 1e3:.2f} ns each")

    return {"source": "models/calibration/deepep/deepep_published.json",
            "script": "tools/calibration/fit_deepep_kernels.py",
            "model": "models/calibration/deepep/deepep_kernels_model.json",
            "rows": {"normal_ep16_dispatch_GBps": normal_gbps,
                     "low_latency_ep8_dispatch_us": rdma_us,
                     "low_latency_nvlink_ep8_dispatch_us": nvlink_us},
            "constants": {"ep_forward_rate_per_sm_gbps": round(rate_per_sm, 2),
                          "ep_low_latency_rate": round(rate, 4),
                          "ep_low_latency_nvlink_message_us": round(message_us, 5)}}


def main():
    return recorded_fit_main(__doc__.splitlines()[0], MODEL, record, fit, OUTPUT,
                             "fit_deepep_kernels.py")


if __name__ == "__main__":
    sys.exit(main())
