#!/usr/bin/env python3
"""Fused attention forward at few heads x batch (issue 54: a prefill of one 2K prompt runs SDPA
over 16-32 heads, 16x fewer query tiles than the smallest case of h200_kernels.json, and the
whole-prefill profiles show it at ~350 TFLOPS against ~510 there).

SDPA forward (the backend PyTorch picks: cuDNN on the H200 and H100 with torch 2.11), causal,
BF16, q/k/v laid out as the prefill scripts lay them ([batch, seq, heads, d] transposed to
[batch, heads, seq, d]), over
  dims     (d_qk, d_v) = (128, 128) with 32 heads (Llama 3.1 8B) and (192, 128) with 16 heads
           (DeepSeek-V2-Lite's MLA, decompressed at prefill)
  seq      1024, 2048, 4096, 8192
  batch    1, 2, 4, 8, 16 (so batch x heads from 16 to 512)
each a CUDA graph of several back-to-back calls (at least ~2 ms a replay), timed with CUDA events,
median of 10 replays (tools/calibration/h200_common.run_cases).

Run on the lent H200 or H100 (tool `device`):
    PYTHONUNBUFFERED=1 python3 tools/calibration/h200_attention_small.py --out "$OUT"
Writes OUT/h200_attention_small.json: device facts, method, and per case its shape, FLOPs
(causal: half the square), median time (us) and every repeat.
"""

import torch
import torch.nn.functional as F

from h200_common import run_script

DEV = "cuda"
BF16 = torch.bfloat16
REPEATS = 10
DIMS = [(128, 128, 32), (192, 128, 16)]  # d_qk, d_v, heads
SEQS = [1024, 2048, 4096, 8192]
BATCHES = [1, 2, 4, 8, 16]


def causal_flops(batch, heads, seq, d_qk, d_v):
    return 2.0 * batch * heads * seq * seq / 2 * (d_qk + d_v)


def cases():
    for d_qk, d_v, heads in DIMS:
        for seq in SEQS:
            for batch in BATCHES:
                q = torch.randn(batch, seq, heads, d_qk, device=DEV, dtype=BF16).transpose(1, 2)
                k = torch.randn(batch, seq, heads, d_qk, device=DEV, dtype=BF16).transpose(1, 2)
                v = torch.randn(batch, seq, heads, d_v, device=DEV, dtype=BF16).transpose(1, 2)
                flops = causal_flops(batch, heads, seq, d_qk, d_v)
                launches = max(1, int(2e-3 * 4e14 / flops))
                yield ({"class": "attention_fwd", "batch": batch, "heads": heads, "seq": seq,
                        "d_qk": d_qk, "d_v": d_v, "causal": True, "flops": flops},
                       lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                       (q, k, v), launches)


def main():
    with torch.no_grad():
        run_script("h200_attention_small.json",
                   f"CUDA graph replays of back-to-back SDPA forward calls, timed with CUDA events, "
                   f"median of {REPEATS} (time per call); random BF16 inputs; no_grad",
                   lambda: [cases()], REPEATS)


if __name__ == "__main__":
    main()
