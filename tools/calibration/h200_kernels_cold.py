#!/usr/bin/env python3
"""Were h200_kernels.py's GEMM and attention times cold? (issue 54: the kernel fits are meant to be
cold, at the top SM clock, and the clock model throttles them; a fit taken partly throttled counts
the power cap twice.)

Every GEMM (BF16, FP8) and attention case of h200_kernels.py, twice:
  hot   as h200_kernels.py times them (its time_fn: 3 warm-ups, median of 10, graphs under 50 us),
        the cases back to back in its order, then a probe spin right after: the SM clock the
        case ended at
  cold  after 1 s idle and a 40 ms spin of one thread (clocks up, SMs idle), 5 calls each
        between a probe spin before and after (h200_clock.py's: 40,000 cycles of one thread,
        timed; cycles over microseconds is the clock where it ran) and a 2 ms spin after, all
        queued before the GPU reaches them (no host gap inside the timed events; under 50 us: a
        CUDA graph of 20 launches, captured before the idle second)
The hot probe is queued behind a 0.5 ms spin too: an event recorded on an idle GPU would time the
host's launch. (h200_kernels.py's eager timing records its events around a call on an idle GPU:
its kernels of 50 us and more include the host's launch of the call.)
With --attention: only the attention cases, cold, each with its heads divided by the power of
two that brings one call under 5 ms (a call longer than the governor's window throttles within
itself; the efficiency the fit reads is per FLOP and depends on head dimension and sequence, and
a grid of that many heads still fills the SMs), its time scaled back by that factor; written to
attention_cold.json.
The board's power limit and clocks are read, never set.

Run on a lent GPU (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_kernels_cold.py --out "$OUT"
Writes OUT/kernels_cold.json: device facts, method, per case its class, name, shape, FLOPs, and
hot / cold median microseconds with the probe clocks.
"""
import argparse
import json
import os
import statistics
import time

import torch

from h200_clock import PROBE_CYCLES
from h200_common import device_facts, graph_of
from h200_kernels import ATTENTION, GEMMS, GRAPH_LAUNCHES, attention_case, gemm_case, time_fn

COLD_CALLS = 5


def ev():
    return torch.cuda.Event(enable_timing=True)


def spin_ms(ms):
    torch.cuda._sleep(int(ms * 1e-3 * 1.98e9))  # cycles at the top clock


def probe():
    """A probe spin between two events, queued: (before, after)."""
    a, b = ev(), ev()
    a.record()
    torch.cuda._sleep(PROBE_CYCLES)
    b.record()
    return a, b


def mhz(pair):
    return PROBE_CYCLES / (pair[0].elapsed_time(pair[1]) * 1000.0)


def probe_mhz():
    """The SM clock now: a probe queued behind a 0.5 ms spin (no host gap in its events)."""
    spin_ms(0.5)
    pair = probe()
    torch.cuda.synchronize()
    return mhz(pair)


def cold(fn, inputs, graphed):
    """Median microseconds per call over COLD_CALLS calls after 1 s idle and a 40 ms spin, and the
    probes' median clocks before and after the calls."""
    graphs = [graph_of(fn, a, GRAPH_LAUNCHES) for a in inputs] if graphed else None
    fn(*inputs[0])
    torch.cuda.synchronize()
    time.sleep(1.0)
    spin_ms(40)
    calls = []
    for i in range(COLD_CALLS):
        before = probe()
        a, b = ev(), ev()
        a.record()
        if graphed:
            graphs[i % len(graphs)].replay()
        else:
            fn(*inputs[i % len(inputs)])
        b.record()
        calls.append((before, (a, b), probe()))
        spin_ms(2)
    torch.cuda.synchronize()
    times = [c[1][0].elapsed_time(c[1][1]) * 1000.0 / (GRAPH_LAUNCHES if graphed else 1)
             for c in calls]
    return (statistics.median(times), times, statistics.median(mhz(c[0]) for c in calls),
            statistics.median(mhz(c[2]) for c in calls))


def cases():
    for name, batch, m, n, k in GEMMS:
        for dtype in ("bf16", "fp8"):
            yield (f"gemm_{dtype}", name, {"dtype": dtype, "batch": batch, "m": m, "n": n, "k": k},
                   lambda dtype=dtype, batch=batch, m=m, n=n, k=k: gemm_case(dtype, batch, m, n, k))
    for name, batch, heads, seq, d_qk, d_v, causal in ATTENTION:
        for backward in (False, True):
            yield ("attention_fwd_bwd" if backward else "attention_fwd", name,
                   {"batch": batch, "heads": heads, "seq": seq, "d_qk": d_qk, "d_v": d_v,
                    "causal": causal},
                   lambda b=batch, h=heads, s=seq, dq=d_qk, dv=d_v, c=causal, bw=backward:
                   attention_case(b, h, s, dq, dv, c, bw))


def attention_cold(result, call_ms=5.0):
    """The attention cases cold, heads divided so that one call stays under `call_ms`."""
    for name, batch, heads, seq, d_qk, d_v, causal in ATTENTION:
        for backward in (False, True):
            cls = "attention_fwd_bwd" if backward else "attention_fwd"
            flops, _, fn, inputs = attention_case(batch, heads, seq, d_qk, d_v, causal, backward)
            probe_us = cold(fn, inputs[:1], False)[0]
            del fn, inputs
            factor = 1
            while probe_us / factor > call_ms * 1e3 and heads // factor > 1:
                factor *= 2
            flops, _, fn, inputs = attention_case(batch, heads // factor, seq, d_qk, d_v, causal,
                                                  backward)
            median, times, start, end = cold(fn, inputs, False)
            result["cases"].append({
                "class": cls, "name": name, "batch": batch, "heads": heads, "seq": seq,
                "d_qk": d_qk, "d_v": d_v, "causal": causal, "heads_timed": heads // factor,
                "cold_us": median * factor, "cold_times_us": times, "cold_start_mhz": start,
                "cold_end_mhz": end})
            print(f"cold {cls:18s} {name:18s} heads {heads // factor:3d} {median:9.1f} us "
                  f"x{factor} = {median * factor:10.1f} us {start:6.0f}-{end:4.0f} MHz", flush=True)
            del fn, inputs
            torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--attention", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    result = {**device_facts(), "method": __doc__.split("\n\n")[1], "cases": []}
    if args.attention:
        attention_cold(result)
        with open(os.path.join(args.out, "attention_cold.json"), "w") as f:
            json.dump(result, f, indent=1)
        return
    listed = list(cases())
    for cls, name, shape, build in listed:  # hot: back to back, as h200_kernels.py ran them
        flops, _, fn, inputs = build()
        median, times, graphed = time_fn(fn, inputs)
        clock = probe_mhz()
        result["cases"].append({"class": cls, "name": name, **shape, "flops": flops,
                                "graphed": graphed, "hot_us": median, "hot_times_us": times,
                                "hot_end_mhz": clock})
        print(f"hot  {cls:18s} {name:26s} {median:10.1f} us {clock:6.0f} MHz", flush=True)
        del fn, inputs
        torch.cuda.empty_cache()
    for row, (cls, name, _, build) in zip(result["cases"], listed):
        _, _, fn, inputs = build()
        median, times, start, end = cold(fn, inputs, row["graphed"])
        row.update({"cold_us": median, "cold_times_us": times, "cold_start_mhz": start,
                    "cold_end_mhz": end})
        print(f"cold {cls:18s} {name:26s} {median:10.1f} us {start:6.0f}-{end:4.0f} MHz "
              f"(hot/cold {row['hot_us'] / median:.3f})", flush=True)
        del fn, inputs
        torch.cuda.empty_cache()
    with open(os.path.join(args.out, "kernels_cold.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
