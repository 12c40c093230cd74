#!/usr/bin/env python3
"""BF16 GEMMs with a small inner or outer dimension, plain and batched (issue 54: the GEMM model
prices the unfused attention's batched GEMMs, k = 128, about a quarter slow; h200_kernels.json's
fit has no GEMM with k under 512, so its k / (k + k0) term is extrapolated there).

Cases, each C = A B with A [batch, m, k] and B [batch, k, n] row-major (torch.matmul for batch 1,
torch.bmm otherwise), random BF16, CUDA-graph timed (h200_common.run_cases: one graph of several
launches, median of 10 replays, time per launch):
  plain_small_k   batch 1, m = n in 2048-16384, k in 64-512: the k-term alone
  scores          batch (heads x sequences) 12-96, m = n = s in 1024-4096, k = head dim 64 / 128:
                  the attention scores Q K^T and, backward, the probabilities' gradient dO V^T
  context         the same batches, m = s, n = head dim, k = s: P V and, backward, dV, dQ, dK
  plain_small_n   batch 1, m in 8192-32768, n = 64 / 128, k = 4096

Run on the lent H200 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_small_k.py --out "$OUT"
Writes OUT/h200_small_k.json: device facts, method, and per case its part, shape, FLOPs, bytes
(A, B and C once each), median time (us) and every repeat.
"""

import torch

from h200_common import run_script

BF16 = torch.bfloat16
REPEATS = 10


def gemm(part, batch, m, n, k):
    a = torch.randn(batch, m, k, device="cuda", dtype=BF16)
    b = torch.randn(batch, k, n, device="cuda", dtype=BF16)
    flops = 2 * batch * m * n * k
    fn = (lambda a, b: torch.matmul(a[0], b[0])) if batch == 1 else torch.bmm
    # Enough launches per graph for about 2 ms at 600 TFLOP/s.
    launches = max(1, min(64, int(2e-3 / (flops / 600e12))))
    return ({"part": part, "batch": batch, "m": m, "n": n, "k": k, "flops": flops,
             "hbm_bytes": batch * (m * k + k * n + m * n) * 2}, fn, (a, b), launches)


def cases():
    for mn in (2048, 4096, 8192, 16384):
        for k in (64, 128, 256, 512):
            yield gemm("plain_small_k", 1, mn, mn, k)
    for batch in (12, 48, 96):
        for s in (1024, 2048, 4096):
            for d in (64, 128):
                yield gemm("scores", batch, s, s, d)
                yield gemm("context", batch, s, d, s)
    for m in (8192, 32768):
        for n in (64, 128):
            yield gemm("plain_small_n", 1, m, n, 4096)


def main():
    run_script("h200_small_k.json",
               f"CUDA graph replays timed with CUDA events, median of {REPEATS}, time per launch; "
               "random BF16 A [batch, m, k] and B [batch, k, n], row-major, torch.matmul (batch 1) "
               "or torch.bmm", lambda: [cases()], REPEATS)


if __name__ == "__main__":
    main()
