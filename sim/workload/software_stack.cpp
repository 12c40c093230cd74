// The stacks' kernel inventories. Each kernel below was seen in the H200 layer traces
// (models/calibration/h200/moe/traces: `<layer>_eager.json` for pytorch, `_compiled.json` for
// fused) with the op it serves; its speed is the median fraction of HBM bandwidth of the kernels
// of its kind in h200_moe_kernels.json that are not held out (tools/calibration/fit_stacks.py
// prints them and the held-out errors). The layer traces' times are never fitted to.
#include "sim/workload/software_stack.hpp"

#include <utility>

#include "models/calibration/launch.hpp"
#include "models/calibration/stacks.hpp"
#include "models/calibration/step_extras.hpp"
#include "sim/core/named.hpp"

namespace codesim::workload {
namespace {

using cost::KernelClass;
using namespace core::literals;

// Fractions of HBM bandwidth (4.8 TB/s on the H200), fit_stacks.py over h200_moe_kernels.json:
// index_select gathering T tokens into R rows (2.47 TB/s), index_copy (1.33), index_add (0.32,
// bytes R x H read and T x H read and written), the broadcast multiply-and-sum that weights the
// experts' outputs (0.67, bytes R x H and T x H), a strided cat (MLA's k with the shared rotary
// key expanded: 0.97) and a contiguous one (MLA's q: 3.67).
// (fit_stacks.json, embedded at build time.)
namespace stacks = calibration::stacks;

// The stack kernels timed in the layers' own layout (tools/calibration/fit_launch.py over
// h200/launch/h200_launch.json, bytes over time less the fixed cost, one shape of three held
// out): eager SwiGLU on the gate/up output's strided halves (forward SiLU and multiply,
// 1.82 TB/s; backward 2.69), eager rotate-half rotary on q/k's strided views (forward 1.04;
// backward's strided kernels 0.90), torch.compile's weighted sum over top-k (forward 3.16,
// backward 3.32).
// torch.compile's residual add fused into the norm (fit_launch.py over h200_launch_fused.json, 3
// shapes fitted, one held out): forward 3.77 TB/s counting x and h in, y and norm(y) out;
// backward 1.17 TB/s counting the norm's 3 elements as the op table does.
// torch.compile's SwiGLU on the gate/up output's halves (same fit, 2 shapes fitted, Mixtral held
// out: +1.1% / -0.2%): forward 4.33 TB/s counting 3 elements per output, backward 2.26 TB/s
// counting 5, as the op table counts them.
// (fit_launch.json, embedded at build time, as the host costs below.)
namespace launch = calibration::launch;

// Cross-entropy over the vocabulary (tools/calibration/fit_step_extras.py over
// models/calibration/h200/steps/h200_step_extras.json: each kernel's bytes per logit over its
// time at 8192 tokens x 128256 words; 32000 and 151936 words held out: eager +4.8% / +0.4%,
// compiled +30.6% / -0.7%, the small vocabulary partly in L2). Eager, as training code writes it
// (logits.float(), then F.cross_entropy): the cast to FP32 (2 bytes in, 4 out: 2.11 TB/s),
// log_softmax (4 in, 4 out: 2.10), backward the loss gradient's zeros (4 out: 4.70),
// log_softmax's backward (8 in, 4 out: 2.98) and the cast back to BF16 (4 in, 2 out: 4.39).
// torch.compile: one online log-softmax reading the BF16 logits (2 in: 1.30 TB/s) and one
// backward (2 in, 2 out: 2.09).
// (fit_step_extras.json, embedded at build time.)
namespace fit = calibration::step_extras;

// The router's kernels, each a fixed time (less the 1.33 us every kernel pays) and a fraction of
// HBM, fitted by fit_stacks.py to the `router` cases of h200_moe_kernels.json not held out
// (held out: 26 cases, median 5.8%): scores (softmax, sigmoid: FP32 T x E in and out, small
// enough to stay in L2), top-k (T x E read, T x k values and indices out; its sort of the k
// picks included), the group-limited top-k as DeepSeek-V3 routes (the group scores' top-2 sums,
// the groups' top-k, the mask, the top-k over the kept experts: T x E x 16 bytes), the stable
// argsort of the T x k picks by expert (a radix sort: its time does not grow with the rows at
// these sizes), the count of rows per expert (scatter_add of ones) and a cumsum over the experts.
struct RouterKernel {
  double efficiency = 0;
  core::Seconds fixed;
};
// A router kernel of fit_stacks.json by its kind's constants (fixed time in microseconds).
constexpr RouterKernel router_kernel(double efficiency, double fixed_us) {
  return {efficiency, core::microseconds(fixed_us)};
}
constexpr RouterKernel kSoftmaxScores =
    router_kernel(stacks::router_softmax_hbm_efficiency, stacks::router_softmax_fixed_us);
constexpr RouterKernel kSigmoidScores =
    router_kernel(stacks::router_sigmoid_hbm_efficiency, stacks::router_sigmoid_fixed_us);
constexpr RouterKernel kTopK =
    router_kernel(stacks::router_topk_hbm_efficiency, stacks::router_topk_fixed_us);
constexpr RouterKernel kGroupLimitedTopK = router_kernel(
    stacks::router_group_limited_topk_hbm_efficiency, stacks::router_group_limited_topk_fixed_us);
constexpr RouterKernel kSortByExpert =
    router_kernel(stacks::router_argsort_hbm_efficiency, stacks::router_argsort_fixed_us);
constexpr RouterKernel kCountPerExpert = router_kernel(stacks::router_count_scatter_hbm_efficiency,
                                                       stacks::router_count_scatter_fixed_us);
constexpr RouterKernel kCumsum =
    router_kernel(stacks::router_cumsum_hbm_efficiency, stacks::router_cumsum_fixed_us);

// Host time per kernel without CUDA graphs (fit_launch.py: tiny layers, hidden 256 and 128
// tokens, whose kernels are all shorter than their launch; time over the kernels the profiler
// counted, mean of a Llama-style and an MLA + MoE layer): eager PyTorch 32.0 us per kernel of a
// forward without autograd, 36.9 us of forward + backward; torch.compile (no graphs) 26.6 and
// 45.4 us (fewer kernels, each with the compiled wrapper's and autograd's work).
constexpr HostLaunch kEagerHost{.inference = core::microseconds(launch::host_pytorch_inference_us),
                                .training = core::microseconds(launch::host_pytorch_training_us)};
constexpr HostLaunch kCompiledHost{.inference = core::microseconds(launch::host_fused_inference_us),
                                   .training = core::microseconds(launch::host_fused_training_us)};

StackKernel k(std::string name, StackScope scope, Pass pass, KernelClass kind, StackElements e,
              double efficiency = 0) {
  return {std::move(name), scope, pass, kind, e, efficiency, {}};
}

// A kernel of irregular access (StackKernel::irregular).
StackKernel irregular(StackKernel kernel) {
  kernel.irregular = true;
  return kernel;
}

// An entry that stands for `n` kernels (StackKernel::launches; the fits write their counts as
// doubles).
StackKernel launched(StackKernel kernel, double n) {
  kernel.launches = static_cast<int>(n);
  return kernel;
}

// Eager rotary runs on q and on k, each as the kernels fit_launch.py counts (its
// eager_rotary_*_launches, from the layer traces): forward a neg and a cat, then multiplies and
// an add, the op table's one rotary kernel among them; backward the strided kernels, the op
// table's among them, and the slices' fills and copies.
constexpr int kRotaryTensors = 2;
constexpr int kRotaryNegAndCat = kRotaryTensors * 2;
constexpr int kRotaryForward =
    kRotaryTensors * static_cast<int>(launch::eager_rotary_forward_launches);
constexpr int kRotaryBackward =
    kRotaryTensors * static_cast<int>(launch::eager_rotary_backward_launches);

// The embedding table's weight gradient (fit_step_extras.py over h200_step_extras.json: each
// kernel's bytes over its time at 8192 tokens, V = 128256, H = 4096; V = 151936, H = 2048 held
// out: eager -2.2%, compiled -0.6%). Eager (nn.Embedding's backward): the gradient table zeroed
// (2 bytes per table element), the token ids sorted with their segment scans (a fixed time at
// these token counts), each token's gradient summed per segment (2 bytes in, 4 out per token
// element) and the sums scattered to their rows (4 in, 2 out). torch.compile: the table zeroed in
// FP32 (4), the tokens' gradients added atomically (2 in, 4 read and written) and the table cast to
// BF16 (4 in, 2 out).
void add_embedding_kernels(std::vector<StackKernel>& out, SoftwareStack s) {
  const Pass W = Pass::weight;
  const auto e = StackScope::embedding;
  if (s == SoftwareStack::pytorch) {
    out.push_back(k("embedding gradient zeros", e, W, KernelClass::elementwise, {.table = 1},
                    fit::embedding_eager_gradient_zeros));
    out.push_back({"embedding token sort",
                   e,
                   W,
                   KernelClass::router,
                   {},
                   1.0,
                   core::microseconds(fit::embedding_eager_sort_fixed_us)});
    out.push_back(k("embedding per-segment sums", e, W, KernelClass::permute, {.tokens = 3},
                    fit::embedding_eager_per_segment_sums));
    out.push_back(k("embedding sums to rows", e, W, KernelClass::permute, {.tokens = 3},
                    fit::embedding_eager_sums_to_rows));
  } else {
    out.push_back(k("embedding gradient zeros (FP32)", e, W, KernelClass::elementwise, {.table = 2},
                    fit::embedding_compiled_gradient_zeros_fp32));
    out.push_back(k("embedding atomic adds", e, W, KernelClass::permute, {.tokens = 5},
                    fit::embedding_compiled_atomic_adds));
    out.push_back(k("embedding gradient to BF16", e, W, KernelClass::elementwise, {.table = 3},
                    fit::embedding_compiled_gradient_to_bf16));
  }
}

StackKernel router_kernel(std::string name, StackScope scope, StackElements e, RouterKernel r) {
  return {std::move(name), scope, Pass::forward, KernelClass::router, e, r.efficiency, r.fixed};
}

// The router's kernels, as both stacks run them (the layer traces: PyTorch's top-k, CUB's radix
// sort and scatter-gather kernels under torch.compile too; `cumsums` scans, eager's two or
// compile's one fused). Their backward: eager's softmax router's (pytorch_kernels); others
// unpriced.
void add_router_kernels(std::vector<StackKernel>& out, int cumsums) {
  using enum StackScope;
  out.push_back(
      router_kernel("router scores (softmax)", softmax_router, {.scores = 2}, kSoftmaxScores));
  out.push_back(
      router_kernel("router scores (sigmoid)", sigmoid_router, {.scores = 2}, kSigmoidScores));
  out.push_back(router_kernel("router top-k", top_k_router, {.scores = 1, .picks = 1.5}, kTopK));
  out.push_back(router_kernel("router group-limited top-k", group_limited_router, {.scores = 4},
                              kGroupLimitedTopK));
  out.push_back(router_kernel("sort rows by expert", StackScope::router, {}, kSortByExpert));
  out.push_back(
      router_kernel("count rows per expert", StackScope::router, {.picks = 2}, kCountPerExpert));
  for (int i = 0; i < cumsums; ++i) {
    out.push_back(
        router_kernel("expert offsets (cumsum)", StackScope::router, {.experts = 2}, kCumsum));
  }
}

// Eager PyTorch (the MoE written as tools/calibration/h200_layers.py writes it, as PyTorch MoE
// layers are).
std::vector<StackKernel> pytorch_kernels() {
  using enum StackScope;
  const Pass F = Pass::forward;
  const Pass B = Pass::backward;
  std::vector<StackKernel> out{
      k("logits to FP32", loss, F, KernelClass::elementwise, {.logits = 6},
        fit::loss_eager_logits_to_fp32),
      k("log_softmax", loss, F, KernelClass::elementwise, {.logits = 8},
        fit::loss_eager_log_softmax),
      k("loss gradient zeros", loss, B, KernelClass::elementwise, {.logits = 4},
        fit::loss_eager_loss_gradient_zeros),
      k("log_softmax backward", loss, B, KernelClass::elementwise, {.logits = 12},
        fit::loss_eager_log_softmax_backward),
      k("logits gradient to BF16", loss, B, KernelClass::elementwise, {.logits = 6},
        fit::loss_eager_logits_gradient_to_bf16),
      // Residual adds, and the sums of the residual stream's gradients (vectorized adds).
      k("residual add", attention, F, KernelClass::elementwise, {.tokens = 3}),
      k("residual add", mlp, F, KernelClass::elementwise, {.tokens = 3}),
      k("residual gradient sum", attention, B, KernelClass::elementwise, {.tokens = 3}),
      k("residual gradient sum", mlp, B, KernelClass::elementwise, {.tokens = 3}),
      // Rotate-half rotary as neg, cat, two multiplies and an add on strided views (10 elements
      // moved per rotary element; the op table's kernel moves 2); its backward as multiplies,
      // adds and a neg (9 more, strided) and fills and copies of the slices (6, vectorized).
      // (The neg and the cat are 3 of the 8; all at the rate measured for the whole sequence.)
      // Kernels: kRotary* above (10 forward, 18 backward with the slices').
      launched(irregular(k("rotary neg and cat (eager)", rotary, F, KernelClass::permute,
                           {.query = 3}, launch::eager_rotary_forward)),
               kRotaryNegAndCat),
      launched(irregular(k("rotary multiplies and add (eager)", rotary, F, KernelClass::elementwise,
                           {.query = 5}, launch::eager_rotary_forward)),
               kRotaryForward - 1 - kRotaryNegAndCat),
      launched(irregular(k("rotary backward (eager)", rotary, B, KernelClass::elementwise,
                           {.query = 9}, launch::eager_rotary_backward)),
               kRotaryBackward - 1),
      launched(k("rotary backward slices", rotary, B, KernelClass::memcpy, {.query = 6}),
               kRotaryTensors * launch::eager_rotary_slice_launches),
      // MLA: q = cat(q_nope, q_rope) and k = cat(k_nope, k_rope expanded) over strided heads;
      // backward: each cat's slices copied out and made contiguous (a cat and a copy each).
      launched(k("q and k cat", mla, F, KernelClass::permute, {.query = 4},
                 stacks::mla_k_cat_expand_hbm_efficiency),
               2),
      launched(k("q and k cat backward", mla, B, KernelClass::permute, {.query = 8},
                 stacks::mla_k_cat_expand_hbm_efficiency),
               4),
      // Tokens to their experts' rows: index_select of the tokens, a zeroed padded buffer cloned
      // and index_copy'd into; back: index_select of the rows, a clone and index_copy to
      // (token, k) order, then the weighted sum over k.
      irregular(k("gather tokens", routed_experts, F, KernelClass::permute,
                  {.tokens = 1, .rows = 1}, stacks::gather_hbm_efficiency)),
      k("zero rows", routed_experts, F, KernelClass::elementwise, {.rows = 1}),
      launched(k("clone rows", routed_experts, F, KernelClass::memcpy, {.rows = 4}), 2),
      launched(irregular(k("index_copy rows", routed_experts, F, KernelClass::permute, {.rows = 4},
                           stacks::index_copy_hbm_efficiency)),
               2),
      irregular(k("gather rows back", routed_experts, F, KernelClass::permute, {.rows = 2},
                  stacks::gather_hbm_efficiency)),
      launched(irregular(k("weighted sum", routed_experts, F, KernelClass::elementwise,
                           {.tokens = 1, .rows = 1}, stacks::weighted_sum_hbm_efficiency)),
               stacks::weighted_sum_launches),
      // Backward: the weighted sum's two broadcast multiplies and the weights' sum; index_copy's
      // backward gathers; index_select's backward is index_add into zeros (atomic adds, paced by
      // the source rows: R x H read, the micro-benchmark's accounting), twice.
      launched(irregular(k("weighted sum backward", routed_experts, B, KernelClass::elementwise,
                           {.tokens = 2, .rows = 2}, stacks::weighted_sum_hbm_efficiency)),
               3),
      launched(irregular(k("gather gradient rows", routed_experts, B, KernelClass::permute,
                           {.rows = 4}, stacks::gather_hbm_efficiency)),
               2),
      launched(
          k("zero rows", routed_experts, B, KernelClass::elementwise, {.tokens = 1, .rows = 1}), 2),
      launched(irregular(k("index_add rows", routed_experts, B, KernelClass::permute,
                           {.tokens = 4, .rows = 2}, stacks::index_add_hbm_efficiency)),
               2),
      // The integer arithmetic between the router and the gathers (v2_lite_eager.json's forward,
      // the kernels no entry above prices): the router logits cast to FP32, the picked weights
      // gathered and cast back, each pick's local expert (a remainder), the padded counts (an
      // add, a floor division and a multiply), their offsets less the counts, the picks' experts
      // in sorted order, the first row of each expert, each pick's row (two index kernels, an
      // arange and two adds), each row's token (a floor division) and the offsets cast to int32:
      // 18 kernels, mostly over the T x k picks (about 16 int64 passes over them).
      launched(k("row positions (index arithmetic)", StackScope::router, F,
                 KernelClass::elementwise, {.scores = 1.5, .picks = 16}),
               18),
      // The router's backward: the scores' gradient zeroed and the picked weights' gradient
      // scattered into it, softmax's backward and the cast to BF16 (T x E, FP32).
      launched(k("router backward", softmax_router, B, KernelClass::elementwise, {.scores = 7}), 5),
  };
  add_router_kernels(out, 2);
  add_embedding_kernels(out, SoftwareStack::pytorch);
  return out;
}

// torch.compile (default mode): Triton fuses the residual adds into the norms (priced there, by
// StackInventory's residual norm terms), rotary into MLA's cats and the gathers into their
// neighbours; index_select's backward stays PyTorch's index_add.
std::vector<StackKernel> fused_kernels() {
  using enum StackScope;
  const Pass F = Pass::forward;
  const Pass B = Pass::backward;
  // (A single layer's trace also shows its last residual add alone, only because no norm
  // follows it: in a model every residual add feeds the next norm, which prices it.)
  std::vector<StackKernel> out{
      k("log_softmax (fused)", loss, F, KernelClass::elementwise, {.logits = 2},
        fit::loss_compiled_log_softmax_fused),
      k("log_softmax backward (fused)", loss, B, KernelClass::elementwise, {.logits = 4},
        fit::loss_compiled_log_softmax_backward_fused),
      k("q and k assembly", mla, F, KernelClass::permute, {.query = 4},
        stacks::mla_q_cat_hbm_efficiency),
      k("q and k assembly backward", mla, B, KernelClass::permute, {.query = 6},
        stacks::mla_q_cat_hbm_efficiency),
      irregular(k("norm and gather tokens", routed_experts, F, KernelClass::permute,
                  {.tokens = 1, .rows = 1}, stacks::gather_hbm_efficiency)),
      k("zero rows", routed_experts, F, KernelClass::elementwise, {.rows = 2}),
      irregular(k("gather rows", routed_experts, F, KernelClass::permute, {.rows = 2},
                  stacks::gather_hbm_efficiency)),
      // One fused reduction reads the rows and writes the tokens; its backward reads the
      // tokens' gradient and the rows and writes the rows' gradient.
      irregular(k("weighted sum", routed_experts, F, KernelClass::elementwise,
                  {.tokens = 1, .rows = 1}, launch::fused_weighted_sum_forward)),
      irregular(k("weighted sum backward", routed_experts, B, KernelClass::elementwise,
                  {.tokens = 1, .rows = 2}, launch::fused_weighted_sum_backward)),
      irregular(k("gather gradient rows", routed_experts, B, KernelClass::permute, {.rows = 4},
                  stacks::gather_hbm_efficiency)),
      k("copy rows", routed_experts, B, KernelClass::memcpy, {.rows = 2}),
      irregular(k("index_add rows", routed_experts, B, KernelClass::permute,
                  {.tokens = 4, .rows = 2}, stacks::index_add_hbm_efficiency)),
  };
  add_router_kernels(out, 1);
  add_embedding_kernels(out, SoftwareStack::fused);
  return out;
}

// DeepSeek's stack: its trace's pieces are the layers', so what its head and embedding launch in
// training was never seen. Assumed the fewest passes the work needs, at the memory-bound rates
// its trace's memory scale sets: the loss over the vocabulary as one fused pass reading the BF16
// logits and one backward reading them and writing their gradient (each head, the MTP module's
// too), and the embedding's gradient as the tokens' gradients added into an FP32 table (2 bytes
// read, 4 read and written per element), no cast or zeroing per micro-batch.
std::vector<StackKernel> deepseek_kernels() {
  using enum StackScope;
  return {
      k("loss (fused cross-entropy)", loss, Pass::forward, KernelClass::elementwise, {.logits = 2}),
      k("loss backward (fused cross-entropy)", loss, Pass::backward, KernelClass::elementwise,
        {.logits = 4}),
      k("embedding gradient adds (FP32)", embedding, Pass::weight, KernelClass::permute,
        {.tokens = 5}),
  };
}

}  // namespace

std::string_view stack_name(SoftwareStack s) {
  return core::name_in(kSoftwareStackNames, s);
}

StackInventory stack_inventory(SoftwareStack s) {
  switch (s) {
    case SoftwareStack::pytorch:
      // SiLU (2 elements moved) and multiply (3) for the fused kernel's 3; backward multiply
      // (3), multiply (3), SiLU's backward (3) and the cat (4) for its 5.
      return {.stack = s,
              .replaces_permutes = true,
              .gated_activation = {.forward_factor = 5.0 / 3.0,
                                   .backward_factor = 13.0 / 5.0,
                                   .forward_efficiency = launch::eager_swiglu_forward,
                                   .backward_efficiency = launch::eager_swiglu_backward,
                                   .irregular = true,
                                   .forward_launches =
                                       static_cast<int>(launch::eager_swiglu_forward_launches),
                                   .backward_launches =
                                       static_cast<int>(launch::eager_swiglu_backward_launches)},
              .host = kEagerHost,
              .kernels = pytorch_kernels()};
    case SoftwareStack::fused:
      return {.stack = s,
              .replaces_permutes = true,
              .gated_activation = {.forward_efficiency = launch::fused_swiglu_forward,
                                   .backward_efficiency = launch::fused_swiglu_backward},
              .residual_norm = {.forward_factor = 2,
                                .forward_efficiency = launch::fused_residual_norm_forward,
                                .backward_efficiency = launch::fused_residual_norm_backward},
              .host = kCompiledHost,
              .kernels = fused_kernels()};
    case SoftwareStack::deepseek:
      break;
  }
  // DeepSeek's host cost was never measured: assumed that of the compiled stack.
  return {.stack = SoftwareStack::deepseek, .host = kCompiledHost, .kernels = deepseek_kernels()};
}

}  // namespace codesim::workload
