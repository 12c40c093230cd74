#!/usr/bin/env python3
"""Parameters of each Hugging Face config codesim ships, counted by Hugging Face transformers.

Builds each model from its config.json on PyTorch's meta device (no weights, no GPU needed) and
counts its parameters: in all, per part (language model, vision tower and projector), the input
embedding and the output head, and the routed experts' share (so that the parameters a token
uses can be counted: the routed experts x top-k / experts). An independent count of the shapes
codesim reads: tests/llm/model_families_test.cpp compares codesim's counts with these.

Run where transformers and torch are installed (the lent H200 machine has them):
    python3 tools/calibration/hf_param_counts.py models/llm/configs tests/data/hf \
        > tests/data/hf_param_counts.json 2> tests/data/hf_param_counts.log
"""
import json
import pathlib
import sys

import torch
import transformers

# Model types transformers knows under another name (Kimi K2 ships DeepSeek-V3's code).
ALIASES = {"kimi_k2": "deepseek_v3"}


def build(config_dict):
    d = dict(config_dict)
    d.pop("quantization_config", None)  # count the BF16 model
    d.pop("auto_map", None)
    model_type = ALIASES.get(d["model_type"], d["model_type"])
    d["model_type"] = model_type
    config = transformers.AutoConfig.for_model(**d)
    autos = [transformers.AutoModelForCausalLM, transformers.AutoModelForImageTextToText]
    if "vision_config" in d:  # the whole checkpoint, its vision tower too
        autos.reverse()
    with torch.device("meta"):
        for auto in autos:
            try:
                return config, auto.from_config(config)
            except ValueError:
                continue
    raise ValueError("no model class for " + model_type)


def counts(model):
    out = {"total": 0, "embedding": 0, "head": 0, "routed_experts": 0, "vision": 0}
    for name, p in model.named_parameters():
        n = p.numel()
        out["total"] += n
        if "vision" in name or "multi_modal_projector" in name:
            out["vision"] += n
        elif "embed_tokens" in name or name.endswith("wte.weight") or name.endswith("wpe.weight"):
            out["embedding"] += n
        elif "lm_head" in name:
            out["head"] += n
        elif ".experts." in name or name.endswith(".experts.gate_up_proj") or \
                name.endswith(".experts.down_proj") or ".experts.gate_up_proj" in name or \
                ".experts.down_proj" in name:
            out["routed_experts"] += n
    return out


def main():
    results = {"transformers": transformers.__version__, "torch": torch.__version__, "models": {}}
    for folder in sys.argv[1:]:
        for path in sorted(pathlib.Path(folder).glob("*.json")):
            d = json.loads(path.read_text())
            if "model_type" not in d:
                continue
            try:
                _, model = build(d)
                results["models"][path.name] = counts(model)
            except Exception as e:  # noqa: BLE001 - record what failed and go on
                results["models"][path.name] = {"error": f"{type(e).__name__}: {e}"}
            print(path.name, results["models"][path.name], file=sys.stderr)
    json.dump(results, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
