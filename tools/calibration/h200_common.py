"""What the H200 measuring scripts here share: the device facts a result file records, how inputs
rotate past the L2, CUDA-graph replay timing, and eager cases timed and profiled kernel by kernel.
Imported by h200_kernels.py, h200_moe_kernels.py, h200_layers.py, h200_variability.py,
h200_power.py, h200_sustained.py, h200_steps.py, h200_step_extras.py and h200_unfused_attention.py
(Python finds this file beside them)."""
import datetime
import json
import math
import os
import statistics
import subprocess

import torch

L2_BYTES = 60e6  # the H200's L2 (KINDS.md of the device tool: 60 MB)


def device_facts():
    """GPU name, SMs, driver, torch, CUDA and the date (UTC), for a result file's header."""
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    return {"gpu": torch.cuda.get_device_name(0),
            "sms": torch.cuda.get_device_properties(0).multi_processor_count, "driver": driver,
            "torch": torch.__version__, "cuda": torch.version.cuda,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}


def input_sets(bytes_per_set):
    """Enough rotating input sets that repeats do not find their inputs in L2 (at most 4)."""
    return max(1, min(4, math.ceil(2 * L2_BYTES / max(bytes_per_set, 1))))


def graph_of(fn, args, launches):
    """One CUDA graph of `launches` back-to-back calls of fn(*args), warmed on a side stream before
    capture. Raises what capture raises (a kernel that synchronizes with the host)."""
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn(*args)
        torch.cuda.synchronize()
        with torch.cuda.graph(g):
            for _ in range(launches):
                fn(*args)
    torch.cuda.current_stream().wait_stream(s)
    return g


def graph_times(fn, inputs, launches, repeats):
    """Microseconds per call of fn(*args): one graph_of per input set, every graph replayed once,
    then `repeats` replays timed with CUDA events, rotating over the sets."""
    graphs = [graph_of(fn, args, launches) for args in inputs]
    for g in graphs:
        g.replay()
    torch.cuda.synchronize()
    times = []
    for i in range(repeats):
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        ev[0].record()
        graphs[i % len(graphs)].replay()
        ev[1].record()
        torch.cuda.synchronize()
        times.append(ev[0].elapsed_time(ev[1]) * 1000.0 / launches)
    return times


def eager_times(fn, inputs, repeats):
    """Microseconds of each of `repeats` calls of fn(*args), one at a time between CUDA events,
    rotating over the input sets (host launch gaps included)."""
    times = []
    for i in range(repeats):
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        ev[0].record()
        fn(*inputs[i % len(inputs)])
        ev[1].record()
        torch.cuda.synchronize()
        times.append(ev[0].elapsed_time(ev[1]) * 1000.0)
    return times


def timed(fn, repeats=10, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    return eager_times(fn, [()], repeats)


def kernels(fn):
    """One call's GPU kernels: [name, microseconds] summed by name, with their count."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    by_name = {}
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            t, n = by_name.get(e.name, (0.0, 0))
            by_name[e.name] = (t + e.device_time, n + 1)
    return [{"name": k[:160], "us": round(t, 2), "count": n}
            for k, (t, n) in sorted(by_name.items(), key=lambda kv: -kv[1][0])]


def case(out, what, fn, **facts):
    """Times fn (3 warm-up calls, then 10 between CUDA events, median) and lists one call's
    kernels under torch.profiler; appends the row to out["cases"] and prints it."""
    times = timed(fn)
    ks = kernels(fn)
    row = {"what": what, **facts, "time_us": statistics.median(times), "times_us": times,
           "kernel_us": round(sum(k["us"] for k in ks), 2),
           "kernel_count": sum(k["count"] for k in ks), "kernels": ks}
    out["cases"].append(row)
    print(what, facts, f"{row['time_us']:.0f} us (kernels {row['kernel_us']:.0f} us, "
          f"{row['kernel_count']})", flush=True)


def run_cases(parts, result, path, budget_s, repeats):
    """Times every (case, fn, args, launches) the `parts` yield as CUDA-graph replays (median of
    `repeats`), into result["cases"] (a case that raises, or comes after `budget_s` seconds, into
    result["skipped"] with why), rewriting `path` after each so a cut run keeps what it took."""
    import json
    import time
    start = time.time()
    for part in parts:
        for case, fn, fn_args, launches in part:
            if time.time() - start > budget_s:
                result["skipped"].append({**case, "why": "over budget"})
                continue
            try:
                times = graph_times(fn, [fn_args], launches, repeats)
                median = statistics.median(times)
                result["cases"].append({**case, "time_us": median, "times_us": times,
                                        "launches_per_replay": launches})
                print(json.dumps({k: v for k, v in case.items() if k != "weight_bytes"}),
                      f"{median:.1f} us", flush=True)
            except Exception as e:  # noqa: BLE001 - a shape that fails is a result
                result["skipped"].append({**case, "why": f"{type(e).__name__}: {str(e)[:200]}"})
                print(json.dumps(case), "skipped:", type(e).__name__, str(e)[:120], flush=True)
            finally:
                torch.cuda.empty_cache()
            with open(path, "w") as f:
                json.dump(result, f, indent=1)
    print(f"{len(result['cases'])} cases, {len(result['skipped'])} skipped, "
          f"{time.time() - start:.0f} s")


def run_script(file_name, method, parts, repeats, budget_s=240):
    """A measuring script's command line (--out, --budget-s) around run_cases: the device facts
    and `method` head OUT/`file_name`; `parts()` yields the case generators (called once the
    output folder exists)."""
    import argparse
    import os
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--budget-s", type=float, default=budget_s)
    args = parser.parse_args()
    result = {**device_facts(), "method": method, "cases": [], "skipped": []}
    os.makedirs(args.out, exist_ok=True)
    run_cases(parts(), result, os.path.join(args.out, file_name), args.budget_s, repeats)


def rnd(*shape, dtype=torch.bfloat16):
    """A random tensor of `shape` on the GPU, drawn in BF16 and cast to `dtype` (FP8 has no randn)."""
    return torch.randn(*shape, device="cuda", dtype=torch.bfloat16).to(dtype)


def capture(fn, warm=20):
    """fn() captured as a CUDA graph (after one run on a side stream), then replayed `warm` times."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    for _ in range(warm):
        g.replay()
    torch.cuda.synchronize()
    return g


def export_trace(fn, path):
    """One call of fn() under torch.profiler (CPU and CUDA), its Chrome trace written to `path`
    with the trace's name cut to the file name (the profiler records its absolute path)."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                            torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    prof.export_chrome_trace(path)
    with open(path) as f:
        data = json.load(f)
    data["traceName"] = os.path.basename(path)
    with open(path, "w") as f:
        json.dump(data, f)
