#!/usr/bin/env python3
"""Times DeepSeek-V3 training GEMM shapes on one GPU (BF16 and FP8) and a large device copy.

Run on the lent H200 (tool `device`): python3 tools/calibration/h200_gemm.py --out DIR
Writes DIR/h200_gemm.json: GPU name, driver, torch and CUDA versions, date, and per shape the
median of the timed repeats (CUDA events, after warm-up). Inputs are random normal, never zeros,
and several input sets rotate so that repeats do not run from L2.

Shapes (micro-batch of 4096 tokens, DeepSeek-V3, EP64: each GPU holds 4 experts and receives
4096 x 8 token-expert pairs, 8192 rows per expert):
  attention projections (q_down, q_up, kv_down, kv_up, o_proj), forward and the two backward
  GEMMs of o_proj; dense FFN (gate+up, down); shared expert; routed experts as a batch of 4
  GEMMs (gate+up, down).
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess

import torch

TOKENS = 4096
SHAPES = [
    # name, batch, m, n, k   (C[m,n] = A[m,k] B[k,n])
    ("q_down", 1, TOKENS, 1536, 7168),
    ("q_up", 1, TOKENS, 24576, 1536),
    ("kv_down", 1, TOKENS, 576, 7168),
    ("kv_up", 1, TOKENS, 32768, 512),
    ("o_proj", 1, TOKENS, 7168, 16384),
    ("o_proj_dgrad", 1, TOKENS, 16384, 7168),
    ("o_proj_wgrad", 1, 16384, 7168, TOKENS),
    ("dense_gate_up", 1, TOKENS, 36864, 7168),
    ("dense_down", 1, TOKENS, 7168, 18432),
    ("shared_gate_up", 1, TOKENS, 4096, 7168),
    ("shared_down", 1, TOKENS, 7168, 2048),
    ("experts_gate_up", 4, 8192, 4096, 7168),
    ("experts_down", 4, 8192, 7168, 2048),
    ("square_8192", 1, 8192, 8192, 8192),
]
WARMUP = 5
REPEATS = 20
INPUT_SETS = 3


def time_op(fn, inputs):
    for i in range(WARMUP):
        fn(*inputs[i % len(inputs)])
    torch.cuda.synchronize()
    times = []
    for i in range(REPEATS):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        args = inputs[i % len(inputs)]
        start.record()
        fn(*args)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)  # us
    return times


def bf16_case(batch, m, n, k):
    def make():
        a = torch.randn(batch, m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(batch, k, n, device="cuda", dtype=torch.bfloat16)
        return a, b
    inputs = [make() for _ in range(INPUT_SETS)]
    fn = (lambda a, b: torch.matmul(a[0], b[0])) if batch == 1 else (lambda a, b: torch.bmm(a, b))
    return time_op(fn, inputs)


def fp8_case(batch, m, n, k):
    def make():
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        bt = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)  # B column-major = B^T row-major
        return a, bt
    inputs = [make() for _ in range(INPUT_SETS)]
    one = torch.tensor(1.0, device="cuda")

    def fn(a, bt):
        for _ in range(batch):
            torch._scaled_mm(a, bt.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    return time_op(fn, inputs)


def copy_case(gigabytes):
    n = int(gigabytes * 1e9 / 2)
    src = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(src)
    return time_op(lambda s, d: d.copy_(s), [(src, dst)]), n * 2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    props = torch.cuda.get_device_properties(0)
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    result = {
        "gpu": torch.cuda.get_device_name(0),
        "sms": props.multi_processor_count,
        "driver": driver,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "method": f"CUDA events, {WARMUP} warm-up runs, median of {REPEATS}, {INPUT_SETS} rotating random-normal input sets",
        "gemms": [],
    }
    for name, batch, m, n, k in SHAPES:
        for dtype in ("bf16", "fp8"):
            times = bf16_case(batch, m, n, k) if dtype == "bf16" else fp8_case(batch, m, n, k)
            median = statistics.median(times)
            flops = 2.0 * batch * m * n * k
            result["gemms"].append({"name": name, "batch": batch, "m": m, "n": n, "k": k, "dtype": dtype,
                                    "time_us": median, "tflops": flops / median / 1e6,
                                    "times_us": times})
            print(f"{name:16s} {dtype} b={batch} m={m:6d} n={n:6d} k={k:6d} {median:10.1f} us {flops / median / 1e6:7.1f} TFLOP/s",
                  flush=True)
            torch.cuda.empty_cache()
    times, nbytes = copy_case(4.0)
    median = statistics.median(times)
    result["copy"] = {"bytes": nbytes, "time_us": median, "read_plus_write_GBps": 2 * nbytes / median / 1e3,
                      "times_us": times}
    print(f"copy {nbytes / 1e9:.1f} GB: {median:.1f} us, {2 * nbytes / median / 1e3:.0f} GB/s read+write")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "h200_gemm.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
