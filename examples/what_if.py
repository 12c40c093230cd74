#!/usr/bin/env python3
"""A what-if from Python: DeepSeek-V3's step on 2048 H800 with faster NICs, in the fast tier.

    .venv/bin/python examples/what_if.py [scenarios/deepseek-v3-h800-mpft.yaml]

(install the package first: README.md, "Python").
"""
import sys

import codesim

path = sys.argv[1] if len(sys.argv) > 1 else "scenarios/deepseek-v3-h800-mpft.yaml"
base = codesim.simulate(codesim.load(path), fidelity="fast")
faster = codesim.simulate(codesim.load(path).set("hardware.nic_bandwidth", "800Gbps"),
                          fidelity="fast")
for label, r in (("400 Gb/s NICs", base), ("800 Gb/s NICs", faster)):
    print(f"{label}: step {r.step_time_s:.3f} s, {r.tokens_per_day / 1e9:.1f} B tokens/day, "
          f"MFU {100 * r.mfu_causal:.1f}%")
