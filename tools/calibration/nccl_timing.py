"""Timing one NCCL call on the device, shared by nccl_node.py and nccl_algos.py."""
import statistics

import torch
import torch.distributed as dist


def median_per_call(run, calls, repeats, stream):
    """Seconds per call: `run()` issues `calls` calls on `stream`; it is timed between CUDA events
    `repeats` times, each after a barrier (so the ranks start together), and the median is taken."""
    times = []
    for _ in range(repeats):
        dist.barrier()
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        with torch.cuda.stream(stream):
            start.record()
            run()
            end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3 / calls)
    return statistics.median(times)


def slowest(t, rank):
    """The largest of the ranks' `t`: a collective ends when its last rank does."""
    v = torch.tensor([t], device=f"cuda:{rank}", dtype=torch.float64)
    dist.all_reduce(v, op=dist.ReduceOp.MAX)
    return v.item()
