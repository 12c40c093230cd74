#!/usr/bin/env python3
"""NVLink collectives on the GPUs of one node, through PyTorch + NCCL (issue: validate the NVLink
model on a real node). One process per GPU.

Run on the lent machine (tool `device`): python3 tools/calibration/nccl_node.py --out DIR
Writes DIR/nccl_node.json: GPU name and count, driver, NCCL and torch versions, date, and per
operation and message size the time of one call (20 calls back to back between CUDA events after
warm-up, the median of 7 such runs; the slowest rank's, since a collective ends when its last
rank does), algorithm and bus bandwidth as nccl-tests define them:

  all_to_all_single, all_gather_into_tensor, reduce_scatter_tensor: size = bytes of the whole
  buffer on a rank (all-gather: its output; reduce-scatter: its input; all-to-all: what it sends),
  algbw = size / time, busbw = algbw x (n - 1) / n.
  ep_dispatch: all_to_all_single with uneven splits, rank s sending plans[n][s][d] rows of
  row_bytes to rank d (tools/calibration/ep_splits.json: one micro-batch of 4096 tokens per GPU
  routed by codesim's reference gate; FP8 rows of 7168 bytes plus 56 FP32 scales); busbw = the
  bytes the busiest rank sends to others over time.

NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as the device README requires.
"""
import argparse
import datetime
import json
import os
import subprocess

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from nccl_timing import median_per_call, slowest

SIZES = [1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20, 1 << 30]
WARMUP = 5
REPEATS = 7
ITERS = 20


def timed(fn, rank):
    """Time of one fn() in seconds on this rank: as nccl-tests do, ITERS calls back to back between
    two CUDA events (so that the ranks' launch skew and the event overhead spread over them),
    after warm-up; the median of REPEATS such runs."""
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()

    def calls():
        for _ in range(ITERS):
            fn()
    return median_per_call(calls, ITERS, REPEATS, torch.cuda.current_stream())


def worker(rank, n, args, queue):
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29533", rank=rank, world_size=n,
                            device_id=torch.device(f"cuda:{rank}"))
    dev = f"cuda:{rank}"
    results = []
    for size in SIZES:
        elems = size // 2  # bf16
        chunk = elems // n
        # Random data, never zeros (METHOD.md).
        send = torch.randn(chunk * n, device=dev, dtype=torch.bfloat16)
        recv = torch.empty_like(send)
        part = torch.randn(chunk, device=dev, dtype=torch.bfloat16)
        ops = {
            "all_to_all": lambda: dist.all_to_all_single(recv, send),
            "all_gather": lambda: dist.all_gather_into_tensor(recv, part),
            "reduce_scatter": lambda: dist.reduce_scatter_tensor(part, send),
        }
        for name, fn in ops.items():
            t = slowest(timed(fn, rank), rank)
            algbw = chunk * n * 2 / t
            results.append({"op": name, "size_bytes": chunk * n * 2, "time_us": t * 1e6,
                            "algbw_GBps": algbw / 1e9, "busbw_GBps": algbw * (n - 1) / n / 1e9})
        del send, recv, part
    splits = json.load(open(args.splits))
    ep = None
    if str(n) in splits["plans"]:
        plan = splits["plans"][str(n)]
        row = splits["row_bytes"]
        out_rows = plan[rank]
        in_rows = [plan[s][rank] for s in range(n)]
        send = torch.randint(0, 255, (sum(out_rows) * row,), device=dev, dtype=torch.uint8)
        recv = torch.empty(sum(in_rows) * row, device=dev, dtype=torch.uint8)
        fn = lambda: dist.all_to_all_single(recv, send, [r * row for r in in_rows],
                                            [r * row for r in out_rows])
        t = slowest(timed(fn, rank), rank)
        busiest = max(sum(plan[s][d] for d in range(n) if d != s) for s in range(n)) * row
        ep = {"op": "ep_dispatch", "tokens_per_gpu": 4096, "row_bytes": row,
              "busiest_rank_bytes": busiest, "time_us": t * 1e6, "busbw_GBps": busiest / t / 1e9}
    if rank == 0:
        queue.put({"results": results, "ep_dispatch": ep})
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--splits", default=os.path.join(os.path.dirname(__file__), "ep_splits.json"))
    args = p.parse_args()
    n = torch.cuda.device_count()
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(r, n, args, queue)) for r in range(n)]
    for proc in procs:
        proc.start()
    measured = queue.get()
    for proc in procs:
        proc.join()
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip().splitlines()
    topo = subprocess.run(["nvidia-smi", "topo", "-m"], capture_output=True, text=True).stdout
    result = {
        "gpu": smi[0].split(",")[0].strip() if smi else torch.cuda.get_device_name(0),
        "gpus": n,
        "driver": smi[0].split(",")[1].strip() if smi else "",
        "nccl": ".".join(map(str, torch.cuda.nccl.version())),
        "torch": torch.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "nvls": os.environ.get("NCCL_NVLS_ENABLE", "unset"),
        "topology": topo,
        "warmup": WARMUP,
        "repeats": REPEATS,
        "iterations_per_repeat": ITERS,
        **measured,
    }
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "nccl_node.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(f"{result['gpu']} x{n}, driver {result['driver']}, NCCL {result['nccl']}")
    print(f"{'op':>15} {'size':>10} {'time us':>10} {'busbw GB/s':>11}")
    for r in result["results"] + ([result["ep_dispatch"]] if result["ep_dispatch"] else []):
        print(f"{r['op']:>15} {r.get('size_bytes', r.get('busiest_rank_bytes')):>10} "
              f"{r['time_us']:>10.1f} {r['busbw_GBps']:>11.1f}")


if __name__ == "__main__":
    main()
