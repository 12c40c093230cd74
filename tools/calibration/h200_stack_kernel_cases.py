"""The memory-bound and router kernels that PyTorch MoE layers and GPT-style blocks launch beside
their GEMMs, as h200_moe_kernels.py times them (its `permute`, `router` and `memory_gpt` classes):
token permute / un-permute, the router's scores, top-k, sorts, counts and scans, and the
norms, activations and dropout of GPT-style blocks. Each builder returns (name, HBM bytes, the
function, a maker of its inputs[, ...]); h200_moe_kernels.py times and records them."""
import torch
import torch.nn.functional as F

DEV = "cuda"
BF16 = torch.bfloat16


def permute_cases():
    """Token permute / un-permute as PyTorch MoE layers write them: gather rows by the sorted
    expert order (index_select), scatter rows into place (index_copy_), reduce top-k rows back
    per token (index_add_, scatter_add_, or a weighted view-sum)."""
    out = []

    def one(tokens, hidden, topk):
        rows = tokens * topk
        src = tokens * hidden * 2
        dst = rows * hidden * 2
        idx = torch.randperm(rows, device=DEV) // topk  # each token repeated top-k times, shuffled
        perm = torch.randperm(rows, device=DEV)
        tag = f"t{tokens}_h{hidden}_k{topk}"
        out.append((f"gather_{tag}", src + dst + rows * 8,
                    lambda x: x.index_select(0, idx),
                    lambda: (torch.randn(tokens, hidden, device=DEV, dtype=BF16),), src + dst))
        out.append((f"index_copy_{tag}", 2 * dst + rows * 8,
                    lambda y, d: d.index_copy_(0, perm, y),
                    lambda: (torch.randn(rows, hidden, device=DEV, dtype=BF16),
                             torch.empty(rows, hidden, device=DEV, dtype=BF16)), 2 * dst))
        out.append((f"index_add_{tag}", dst + 2 * src + rows * 8,
                    lambda y, d: d.index_add_(0, idx, y),
                    lambda: (torch.randn(rows, hidden, device=DEV, dtype=BF16),
                             torch.zeros(tokens, hidden, device=DEV, dtype=BF16)), dst + 2 * src))
        eidx = idx.view(-1, 1).expand(rows, hidden)
        out.append((f"scatter_add_{tag}", dst + 2 * src + rows * 8,
                    lambda y, d: d.scatter_add_(0, eidx, y),
                    lambda: (torch.randn(rows, hidden, device=DEV, dtype=BF16),
                             torch.zeros(tokens, hidden, device=DEV, dtype=BF16)), dst + 2 * src))
        probs = torch.rand(tokens, topk, 1, device=DEV, dtype=BF16)
        out.append((f"weighted_sum_{tag}", dst + src,
                    lambda y: (y.view(tokens, topk, hidden) * probs).sum(dim=1),
                    lambda: (torch.randn(rows, hidden, device=DEV, dtype=BF16),), dst + src))

    for shape in ((4096, 7168, 8), (8192, 2048, 6), (16384, 2048, 6), (4096, 4096, 2), (16384, 4096, 2),
                  (2048, 7168, 8), (8192, 5120, 6), (1024, 2048, 8), (16384, 7168, 8), (8192, 2048, 8)):
        one(*shape)
    return out


def router_cases():
    """The router's kernels on [tokens, experts] FP32 scores."""
    out = []

    def group_limited(s, groups, topk_group, k):
        t, e = s.shape
        g = s.view(t, groups, -1).topk(2, dim=-1).values.sum(-1)
        keep = g.topk(topk_group, dim=-1).indices
        mask = torch.zeros_like(g).scatter_(1, keep, 1.0)
        masked = s.masked_fill(mask.repeat_interleave(e // groups, dim=1) == 0, float("-inf"))
        return masked.topk(k, dim=-1)

    def one(tokens, experts, k):
        tag = f"t{tokens}_e{experts}_k{k}"
        nbytes = tokens * experts * 4

        def logits():
            return (torch.randn(tokens, experts, device=DEV, dtype=torch.float32),)
        out.append((f"softmax_{tag}", 2 * nbytes, lambda s: s.softmax(dim=-1), logits))
        out.append((f"sigmoid_{tag}", 2 * nbytes, lambda s: s.sigmoid(), logits))
        out.append((f"topk_{tag}", nbytes + tokens * k * 12, lambda s: s.topk(k, dim=-1), logits))
        if experts == 256:
            out.append((f"group_limited_topk_{tag}", nbytes * 4,
                        lambda s: group_limited(s, 8, 4, k), logits))
        flat = tokens * k
        ids = lambda: (torch.randint(0, experts, (flat,), device=DEV),)  # noqa: E731
        out.append((f"argsort_{tag}", flat * 8 * 3, lambda i: torch.argsort(i, stable=True), ids))
        out.append((f"sort_{tag}", flat * 8 * 3, lambda i: torch.sort(i, stable=True), ids))
        out.append((f"histc_{tag}", flat * 8, lambda i: torch.histc(i.float(), experts, 0, experts - 1),
                    ids))
        counts_buf = torch.zeros(experts, device=DEV, dtype=torch.int64)
        one = torch.ones(flat, device=DEV, dtype=torch.int64)
        out.append((f"count_scatter_{tag}", flat * 16,
                    lambda i: counts_buf.zero_().scatter_add_(0, i, one), ids))
        out.append((f"bincount_{tag}", flat * 8, lambda i: torch.bincount(i, minlength=experts), ids))
        out.append((f"cumsum_{tag}", experts * 16,
                    lambda c: torch.cumsum(c, 0),
                    lambda: (torch.randint(0, 100, (experts,), device=DEV),)))

    for shape in ((4096, 256, 8), (16384, 256, 8), (8192, 64, 6), (16384, 64, 6), (4096, 8, 2),
                  (16384, 8, 2), (8192, 160, 6), (8192, 128, 8), (1024, 256, 8)):
        one(*shape)
    return out


def memory_cases():
    """GPT-style blocks' memory-bound kernels, forward and forward + backward (autograd), and
    MLA's q/k concatenation."""
    out = []

    def one(tokens, hidden):
        tag = f"t{tokens}_h{hidden}"
        n = tokens * hidden * 2
        w = torch.randn(hidden, device=DEV, dtype=BF16)
        b = torch.randn(hidden, device=DEV, dtype=BF16)

        def act(grad=False):
            return (torch.randn(tokens, hidden, device=DEV, dtype=BF16, requires_grad=grad),)

        def fwd_bwd(f):
            def run(x):
                y = f(x)
                y.backward(torch.ones_like(y))
            return run
        out.append((f"layer_norm_{tag}", 2 * n, lambda x: F.layer_norm(x, (hidden,), w, b), act))
        out.append((f"layer_norm_fwd_bwd_{tag}", 5 * n, fwd_bwd(lambda x: F.layer_norm(x, (hidden,), w, b)),
                    lambda: act(True)))
        out.append((f"bias_add_{tag}", 2 * n, lambda x: x + b, act))
        out.append((f"gelu_tanh_{tag}", 2 * n, lambda x: F.gelu(x, approximate="tanh"), act))
        out.append((f"gelu_erf_{tag}", 2 * n, lambda x: F.gelu(x), act))
        out.append((f"gelu_fwd_bwd_{tag}", 5 * n, fwd_bwd(lambda x: F.gelu(x, approximate="tanh")),
                    lambda: act(True)))
        out.append((f"dropout_{tag}", 2 * n + tokens * hidden,
                    lambda x: F.dropout(x, 0.1, training=True), act))
        out.append((f"rms_norm_fwd_bwd_{tag}", 5 * n, fwd_bwd(lambda x: F.rms_norm(x, (hidden,), w)),
                    lambda: act(True)))
        out.append((f"silu_mul_fwd_bwd_{tag}", 3 * n * 2 + 2 * n,
                    fwd_bwd(lambda x: F.silu(x) * x), lambda: act(True)))

    def cat(tokens, heads):
        tag = f"t{tokens}_h{heads}"
        out.append((f"mla_q_cat_{tag}", tokens * heads * 192 * 2 * 2,
                    lambda a, r: torch.cat([a, r], dim=-1),
                    lambda: (torch.randn(tokens, heads, 128, device=DEV, dtype=BF16),
                             torch.randn(tokens, heads, 64, device=DEV, dtype=BF16))))
        out.append((f"mla_k_cat_expand_{tag}", tokens * heads * 192 * 2 + tokens * (heads * 128 + 64) * 2,
                    lambda a, r: torch.cat([a, r.expand(-1, heads, -1)], dim=-1),
                    lambda: (torch.randn(tokens, heads, 128, device=DEV, dtype=BF16),
                             torch.randn(tokens, 1, 64, device=DEV, dtype=BF16))))

    for shape in ((2048, 12288), (8192, 4096), (16384, 768), (4096, 2048), (8192, 6144)):
        one(*shape)
    for shape in ((4096, 128), (4096, 16), (16384, 16)):
        cat(*shape)
    return out
