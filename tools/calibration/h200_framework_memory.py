#!/usr/bin/env python3
"""What a PyTorch process holds on the GPU beside its tensors (issue 55, item 4: framework
overheads), read as the driver sees it (nvidia-smi's memory.used of the device, this process
alone on it) against what PyTorch's allocator reserved, step by step:
    start           before CUDA is initialized
    context         torch.cuda.init() and one small tensor: the CUDA context and PyTorch's kernels
    cublas          one BF16 matmul: cuBLAS's handle and workspace
    cublaslt        one BF16 matmul with a bias through the Lt path (addmm)
    flash           one scaled_dot_product_attention forward and backward
    fragmentation   after allocating and freeing tensors of mixed sizes as a training step does
                    (reserved minus allocated: the caching allocator's held free blocks)
Run on the lent H200 (tool `device`):
    python3 tools/calibration/h200_framework_memory.py --out "$OUT"
Writes OUT/h200_framework_memory.json.
"""
import argparse
import json
import os
import subprocess

import torch
import torch.nn.functional as F


def used_mib():
    out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits",
                          "-i", "0"], capture_output=True, text=True).stdout.strip()
    return float(out)


def point(rows, name):
    torch.cuda.synchronize() if torch.cuda.is_initialized() else None
    reserved = torch.cuda.memory_reserved() / 2**20 if torch.cuda.is_initialized() else 0.0
    allocated = torch.cuda.memory_allocated() / 2**20 if torch.cuda.is_initialized() else 0.0
    rows.append({"point": name, "driver_used_mib": used_mib(), "torch_reserved_mib": reserved,
                 "torch_allocated_mib": allocated})
    print(rows[-1], flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    rows = []
    point(rows, "start")
    torch.cuda.init()
    x = torch.ones(1, device="cuda")
    point(rows, "context")
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    b = a @ a
    point(rows, "cublas")
    c = torch.addmm(torch.zeros(4096, device="cuda", dtype=torch.bfloat16), a, a)
    point(rows, "cublaslt")
    q = torch.randn(1, 32, 4096, 128, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    F.scaled_dot_product_attention(q, q, q, is_causal=True).sum().backward()
    point(rows, "flash")
    del a, b, c, q
    keep = []
    for i in range(200):
        t = torch.empty(int((i % 7 + 1) * 3e6 + i * 1e4), device="cuda", dtype=torch.bfloat16)
        if i % 3 == 0:
            keep.append(t)
    point(rows, "fragmentation")
    del keep, x
    stats = torch.cuda.memory_stats()
    result = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
              "cuda": torch.version.cuda, "method": __doc__, "points": rows,
              "allocator": {k: stats[k] for k in ("num_alloc_retries", "num_ooms")}}
    with open(os.path.join(args.out, "h200_framework_memory.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
