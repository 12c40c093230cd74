#!/usr/bin/env python3
"""Writes docs/validation.md: every comparison of codesim with a published figure in one table
(case, source, codesim, reference, error). codesim's figures come from the recorded outputs of the
shipped scenarios (tests/golden/*.run.json, which the golden tests keep equal to what the current
build prints) and from `codesim model` and `codesim topo --compare` (run here, a second each).
Nothing is fitted to any reference in this table (ISCA Table 3's costs, whose unit prices are
fitted to that table, are not listed).

    python3 tools/validation.py [--binary build/sim/cli/codesim]           # rewrite the page
    python3 tools/validation.py --check [--binary ...]                      # fail if it differs
"""
import json
import os
import subprocess
import sys

from generated_pages import ROOT, arguments, write_or_check

ISCA = "ISCA 2025 (arXiv 2505.09343)"
V3_REPORT = "DeepSeek-V3 report (arXiv 2412.19437)"


def golden(name, kind="run"):
    with open(os.path.join(ROOT, "tests", "golden", name + "." + kind + ".json")) as f:
        return json.load(f)


def gpu_hours_per_trillion(run):
    """GPU hours to train 1e12 tokens at the step's rate: GPUs x 24 h / tokens per day x 1e12."""
    return run["network"]["endpoints"] * 24 / run["tokens_per_day"] * 1e12


# Megatron-LM's README of July 2021 on examples/pretrain_gpt3_175B.sh: "With full global batch
# size of 1536 on 1024 A100 GPUs, each iteration takes around 32 seconds resulting in 138
# teraFLOPs per GPU which is 44% of the theoretical peak FLOPs."
MEGATRON_README = "Megatron-LM README (2021), examples/pretrain_gpt3_175B.sh"


def megatron_tflops(run):
    """TFLOPS per GPU by Narayanan et al.'s (SC 2021) count of a step with activation
    recomputation: 96 B s l h^2 (1 + s / 6h + V / 16 l h) for B sequences of s tokens, l layers of
    width h and a vocabulary of V (GPT-3 175B: 96 layers of 12288, V padded to 51,200)."""
    s, l, h, v = 2048, 96, 12288, 51200
    b = run["tokens_per_step"] / s
    flops = 96 * b * s * l * h * h * (1 + s / (6 * h) + v / (16 * l * h))
    return flops / run["step_time_s"] / run["network"]["endpoints"] / 1e12


def training_cases():
    v3, mrft = golden("deepseek-v3-h800-mpft"), golden("deepseek-v3-h800-mrft")
    return [
        ("DeepSeek-V3 step, 2048 H800, MPFT (`deepseek-v3-h800-mpft`)", f"{ISCA} Table 4",
         v3["step_time_s"], 19.926, "s"),
        ("DeepSeek-V3 step, replicas at drawn paces (`deepseek-v3-h800-variability`: the H200's "
         "measured pace spread by each GPU's busy fraction, assumed fail-slow rates and NIC "
         "spread)", f"{ISCA} Table 4",
         golden("deepseek-v3-h800-variability")["step_time_s"], 19.926, "s"),
        ("DeepSeek-V3 forward-only chunks `1F`, first rank", f"{ISCA} Table 4",
         v3["breakdown_s"]["1F"], 1.13, "s"),
        ("DeepSeek-V3 input-backward chunks `1B`, first rank", f"{ISCA} Table 4",
         v3["breakdown_s"]["1B"], 1.99, "s"),
        ("DeepSeek-V3 weight-gradient-only chunks `1W`, first rank", f"{ISCA} Table 4",
         v3["breakdown_s"]["1W"], 0.48, "s"),
        ("DeepSeek-V3 overlapped forward-and-backward pairs `1F1B`, first rank", f"{ISCA} Table 4",
         v3["breakdown_s"]["1F1B"], 13.95, "s"),
        ("DeepSeek-V3 idle `bubble`, first rank", f"{ISCA} Table 4", v3["breakdown_s"]["bubble"],
         2.06, "s"),
        ("DeepSeek-V3 optimizer `opt`", f"{ISCA} Table 4", v3["breakdown_s"]["opt"], 0.29, "s"),
        ("DeepSeek-V3 TFLOPS per GPU, causal", f"{ISCA} Table 4", v3["tflops_causal"], 385,
         "TFLOPS"),
        ("DeepSeek-V3 TFLOPS per GPU, non-causal", f"{ISCA} Table 4", v3["tflops_noncausal"], 432,
         "TFLOPS"),
        ("DeepSeek-V3 step on MRFT over MPFT (`deepseek-v3-h800-mrft`)", f"{ISCA} Table 4",
         mrft["step_time_s"] / v3["step_time_s"], 1.001, "ratio"),
        ("DeepSeek-V3 tokens per day (the run's average: 14.8T tokens in 2.664M GPU hours on 2048)",
         V3_REPORT, v3["tokens_per_day"] / 1e9, 14.8e12 / (2.664e6 / 2048) * 24 / 1e9, "B"),
        ("DeepSeek-V3 pre-training run, 14.8T tokens under failures and checkpoints "
         "(`deepseek-v3-h800-campaign`, fast tier, p50): GPU hours",
         V3_REPORT, golden("deepseek-v3-h800-campaign", "campaign")["gpu_hours"]["p50"] / 1e6,
         2.664, "M"),
        ("DeepSeek-V2, 1024 H800 assumed (`deepseek-v2-h800`): GPU hours per trillion tokens",
         "DeepSeek-V2 report (arXiv 2405.04434)",
         gpu_hours_per_trillion(golden("deepseek-v2-h800")) / 1e3, 172.8, "K"),
        ("Llama 3.1 405B, 8192 H100 (`llama3-405b-h100-8k`): TFLOPS per GPU",
         "Llama 3 report (arXiv 2407.21783) Table 4", golden("llama3-405b-h100-8k")["tflops_causal"],
         430, "TFLOPS"),
        ("GPT-3 175B, 1024 A100, Megatron-LM's example (`gpt3-175b-a100`): step",
         MEGATRON_README, golden("gpt3-175b-a100")["step_time_s"], 32, "s"),
        ("GPT-3 175B, 1024 A100 (`gpt3-175b-a100`): TFLOPS per GPU as Megatron-LM counts them "
         "(96 B s l h^2 (1 + s/6h + V/16lh): the recomputed forward and the whole attention square "
         "included)", MEGATRON_README, megatron_tflops(golden("gpt3-175b-a100")), 138, "TFLOPS"),
        ("DeepSeek-V3 decode bound, 400G IB (`deepseek-v3-decode-bound-ib`): TPOT", f"{ISCA} §2.3.2",
         golden("deepseek-v3-decode-bound-ib")["tpot_ms"], 14.76, "ms"),
        ("DeepSeek-V3 decode bound, NVL72 (`deepseek-v3-decode-bound-nvl72`): TPOT",
         f"{ISCA} §2.3.2", golden("deepseek-v3-decode-bound-nvl72")["tpot_ms"], 0.82, "ms"),
    ]


def model_cases(binary):
    out = []
    for preset, label in (("deepseek-v3", "DeepSeek-V3"), ("deepseek-v2", "DeepSeek-V2"),
                          ("qwen2.5-72b", "Qwen-2.5 72B"), ("llama3.1-405b", "LLaMA-3.1 405B")):
        m = json.loads(subprocess.run([binary, "model", preset, "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)
        published = m["published"]
        if "kv_cache_bytes_per_token" in published:
            out.append((f"{label}: KV cache per token", f"{ISCA} Table 1",
                        m["kv_cache_bytes_per_token"] / 1e3, published["kv_cache_bytes_per_token"] / 1e3,
                        "KB"))
        out.append((f"{label}: training GFLOP per token, sequence 4096", f"{ISCA} Table 2",
                    m["training_gflop_per_token"], published["training_gflop_per_token"], "GFLOP"))
    return out


def topology_cases(binary):
    rows = json.loads(subprocess.run([binary, "topo", "--compare", "ft2,mpft,ft3,sf,df", "--format",
                                      "json"], check=True, capture_output=True, text=True).stdout)
    out = []
    for r in rows:
        for key in ("switches", "links"):
            out.append((f"{r['name'].upper()}: {key} for {r['endpoints']:,} endpoints",
                        f"{ISCA} Table 3", r[key], r["published"][key], ""))
    return out


def render(cases):
    lines = [
        "# Validation: codesim against published figures",
        "",
        "Generated by `tools/validation.py` from the shipped scenarios' recorded outputs",
        "(`tests/golden/*.run.json`) and `codesim model` / `codesim topo`; CI checks that it is current",
        "(`Validation.PageIsCurrent`). Nothing in this table was fitted to its reference; what the",
        "models were fitted to, and their errors on held-out kernels, is in",
        "`models/calibration/README.md`. Why each case lands where it does: `docs/guide/training.md`,",
        "`docs/guide/inference.md`, `scenarios/README.md`.",
        "",
        "| case | source | codesim | reference | error |",
        "|---|---|---:|---:|---:|",
    ]
    for case, source, mine, reference, unit in cases:
        error = (mine / reference - 1) * 100 if reference else 0.0
        fmt = (lambda v: f"{v:,.0f}") if unit == "" else (lambda v: f"{v:.3f}" if unit == "ratio"
                                                          else f"{v:,.2f}")
        suffix = f" {unit}" if unit not in ("", "ratio") else ""
        lines.append(f"| {case} | {source} | {fmt(mine)}{suffix} | {fmt(reference)}{suffix} | "
                     f"{error:+.1f}% |")
    return "\n".join(lines) + "\n"


def main():
    args = arguments()
    page = render(training_cases() + model_cases(args.binary) + topology_cases(args.binary))
    return write_or_check({"docs/validation.md": page}, args.check, "python3 tools/validation.py")


if __name__ == "__main__":
    sys.exit(main())
