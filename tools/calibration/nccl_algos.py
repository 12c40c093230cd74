#!/usr/bin/env python3
"""NCCL collectives per algorithm on the GPUs of one node, timed on the device (issue 21).

Run on the lent machine (tool `device`): python3 tools/calibration/nccl_algos.py --out DIR
Writes DIR/nccl_algos.json: machine facts, then per configuration (NCCL_ALGO unset = NCCL's own
choice, Ring, Tree), operation and size the time of one call. With --forced (issue 34, not yet
run): DIR/nccl_forced.json, ring all-reduce and all-gather of 1 MiB - 1 GiB with NCCL_PROTO and
NCCL_MIN/MAX_NCHANNELS forced (LL, LL128, Simple x 2-24 channels), and NCCL's INFO log of its
channel search and tuning in DIR/nccl_debug.<pid>.log.

Timing: each measurement captures k calls of the operation back to back into one CUDA graph (so
no host launch gap sits between them), replays it once to warm up, then times R replays between
CUDA events on the capturing stream; time of one call = median over replays / k; the slower
rank's (a collective ends when its last rank does). Where a capture fails the same k calls are
issued eagerly back to back on the stream and the record says "method": "eager".

Operations and size (nccl-tests' definitions; n ranks; size = bytes of the buffer a rank holds):
  all_reduce       in place, size = the buffer; busbw = size / t x 2 (n - 1) / n
  all_gather       size = the gathered output; busbw = size / t x (n - 1) / n
  reduce_scatter   size = the input; busbw as all_gather
  all_to_all       size = what a rank sends (its own share included); busbw as all_gather
  send             rank 0 sends size to rank 1 (one direction); busbw = size / t
  sendrecv         rank r sends size to r + 1 and receives size from r - 1 at once; busbw = size / t

NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as the device README requires: NVLS cannot be
measured on the lent machines.
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

SIZES = [4 << 10, 16 << 10, 64 << 10, 256 << 10] + [(1 << 20) << i for i in range(13)]  # to 4 GiB
REPLAYS = 7
# Every configuration measures all_reduce; NCCL's own choice also the rest.
CONFIGS = [
    {"name": "default", "algo": None,
     "ops": ["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send", "sendrecv"]},
    {"name": "ring", "algo": "Ring", "ops": ["all_reduce", "all_gather", "reduce_scatter"]},
    {"name": "tree", "algo": "Tree", "ops": ["all_reduce"]},
]
# --forced (issue 34: the channel model's terms one at a time): ring all-reduce and all-gather
# with NCCL's protocol and channel count forced, 1 MiB - 1 GiB.
FORCED_SIZES = [(1 << 20) << i for i in range(0, 11, 2)]
FORCED_CONFIGS = [
    {"name": f"ring_{proto}_{ch}ch", "algo": "Ring", "ops": ["all_reduce", "all_gather"],
     "env": {"NCCL_PROTO": proto, "NCCL_MIN_NCHANNELS": str(ch), "NCCL_MAX_NCHANNELS": str(ch)},
     "sizes": FORCED_SIZES}
    for proto in ("LL", "LL128", "Simple") for ch in (2, 4, 8, 16, 24)
]


def calls_per_graph(size):
    """Enough calls that a replay lasts well past the event overhead, few enough for 4 GiB."""
    if size <= (1 << 20):
        return 200
    if size <= (64 << 20):
        return 40
    return 5


def time_graph(fn, k, stream):
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    dist.barrier()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        for _ in range(k):
            fn()
    torch.cuda.synchronize()
    dist.barrier()
    graph.replay()
    torch.cuda.synchronize()
    t = median_per_call(graph.replay, k, REPLAYS, stream)
    del graph
    return t


def time_eager(fn, k):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()

    def calls():
        for _ in range(k):
            fn()
    return median_per_call(calls, k, REPLAYS, torch.cuda.current_stream())


def operation(name, rank, n, size, dev):
    """fn() issuing one call of `name` on buffers of `size` bytes, and its bus factor."""
    elems = size // 2  # bf16
    chunk = elems // n
    if name == "all_reduce":
        buf = torch.randn(elems, device=dev, dtype=torch.bfloat16)
        return (lambda: dist.all_reduce(buf)), 2 * (n - 1) / n
    if name in ("all_gather", "reduce_scatter", "all_to_all"):
        whole = torch.randn(chunk * n, device=dev, dtype=torch.bfloat16)
        other = torch.empty_like(whole)
        part = torch.randn(chunk, device=dev, dtype=torch.bfloat16)
        fns = {"all_gather": lambda: dist.all_gather_into_tensor(other, part),
               "reduce_scatter": lambda: dist.reduce_scatter_tensor(part, whole),
               "all_to_all": lambda: dist.all_to_all_single(other, whole)}
        return fns[name], (n - 1) / n
    out = torch.randn(elems, device=dev, dtype=torch.bfloat16)
    inp = torch.empty_like(out)
    if name == "send":
        if rank == 0:
            return (lambda: dist.send(out, 1)), 1.0
        if rank == 1:
            return (lambda: dist.recv(inp, 0)), 1.0
        return (lambda: None), 1.0

    def sendrecv():
        reqs = dist.batch_isend_irecv([dist.P2POp(dist.isend, out, (rank + 1) % n),
                                       dist.P2POp(dist.irecv, inp, (rank - 1) % n)])
        for r in reqs:
            r.wait()
    return sendrecv, 1.0


def worker(rank, n, config, port, queue):
    os.environ["NCCL_NVLS_ENABLE"] = "0"
    if config["algo"]:
        os.environ["NCCL_ALGO"] = config["algo"]
    else:
        os.environ.pop("NCCL_ALGO", None)
    for key in ("NCCL_PROTO", "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS"):
        os.environ.pop(key, None)
    os.environ.update(config.get("env", {}))
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=n, device_id=torch.device(f"cuda:{rank}"))
    dev = f"cuda:{rank}"
    stream = torch.cuda.Stream()
    results = []
    for op in config["ops"]:
        for size in config.get("sizes", SIZES):
            fn, factor = operation(op, rank, n, size, dev)
            k = calls_per_graph(size)
            method = "graph"
            try:
                t = time_graph(fn, k, stream)
                failed = 0.0
            except Exception as e:  # noqa: BLE001 - a capture NCCL or PyTorch refuses
                method = "eager: " + type(e).__name__ + ": " + str(e).splitlines()[0][:120]
                failed = 1.0
            # Both ranks fall back together, or their calls would not match.
            if slowest(failed, rank) > 0:
                method = method if failed else "eager: the other rank's capture failed"
                torch.cuda.synchronize()
                t = time_eager(fn, k)
            t = slowest(t, rank)
            busbw = size / t * factor
            results.append({"config": config["name"], "op": op, "size_bytes": size,
                            "time_us": t * 1e6, "busbw_GBps": busbw / 1e9, "calls": k,
                            "method": method})
            if rank == 0:
                print(f"{config['name']:>8} {op:>15} {size:>11} {t * 1e6:>10.1f} us "
                      f"{busbw / 1e9:>7.1f} GB/s  {method[:40]}", flush=True)
            del fn
            torch.cuda.empty_cache()
    if rank == 0:
        queue.put(results)
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--forced", action="store_true",
                   help="protocol and channel count forced (nccl_forced.json), with NCCL's "
                        "INFO log of its channels and tuning (nccl_debug.<pid>.log)")
    args = p.parse_args()
    configs = FORCED_CONFIGS if args.forced else CONFIGS
    name = "nccl_forced.json" if args.forced else "nccl_algos.json"
    if args.forced:
        os.makedirs(args.out, exist_ok=True)
        os.environ["NCCL_DEBUG"] = "INFO"
        os.environ["NCCL_DEBUG_SUBSYS"] = "INIT,GRAPH,TUNING,ENV"
        os.environ["NCCL_DEBUG_FILE"] = os.path.join(args.out, "nccl_debug.%p.log")
    n = torch.cuda.device_count()
    ctx = mp.get_context("spawn")
    results = []
    for i, config in enumerate(configs):
        queue = ctx.Queue()
        procs = [ctx.Process(target=worker, args=(r, n, config, 29600 + i, queue))
                 for r in range(n)]
        for proc in procs:
            proc.start()
        results += queue.get()
        for proc in procs:
            proc.join()
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "partial.json"), "w") as f:
            json.dump(results, f)
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip().splitlines()
    topo = subprocess.run(["nvidia-smi", "topo", "-m"], capture_output=True, text=True).stdout
    nvlink = subprocess.run(["nvidia-smi", "nvlink", "-s", "-i", "0"], capture_output=True,
                            text=True).stdout
    out = {
        "gpu": smi[0].split(",")[0].strip() if smi else torch.cuda.get_device_name(0),
        "gpus": n,
        "driver": smi[0].split(",")[1].strip() if smi else "",
        "nccl": ".".join(map(str, torch.cuda.nccl.version())),
        "torch": torch.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "nvls": "0",
        "topology": topo,
        "nvlink_status_gpu0": nvlink,
        "replays": REPLAYS,
        "results": results,
    }
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, name), "w") as f:
        json.dump(out, f, indent=1)
    print(f"{out['gpu']} x{n}, driver {out['driver']}, NCCL {out['nccl']}, torch {out['torch']}")


if __name__ == "__main__":
    main()
