"""What every H200 measuring script here records about the device and how it rotates inputs past
the L2: imported by h200_kernels.py, h200_moe_kernels.py and h200_layers.py (run from the
repository root; Python finds this file beside them)."""
import datetime
import math
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
