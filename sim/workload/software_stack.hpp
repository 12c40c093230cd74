// What a software stack launches besides the op tables' kernels, and at what speed: a scenario's
// `software.stack` (docs/model/software-stacks.md).
//
//   pytorch   eager PyTorch: the MoE moves tokens with index_select / index_copy / index_add
//             and a broadcast multiply-and-sum, MLA assembles q and k with strided `cat`s,
//             rotary embedding runs as five kernels, residual adds and gradient sums are
//             kernels of their own;
//   fused     torch.compile (default mode) on the same layers: the stand-in for a fused stack
//             (Transformer Engine, Megatron-Core); Triton fuses norms with residual adds,
//             rotary with MLA's cat and the MoE's gathers with their neighbours, but the
//             backward of index_select stays PyTorch's index_add;
//   deepseek  DeepSeek's own kernels, known only through its H800 profile trace: no inventory
//             of its own, the trace's scales instead (trace_model.hpp).
//
// The kernels each stack adds were read from torch.profiler traces of whole layers on an H200
// (models/calibration/h200/moe/traces, imported with `codesim trace import`); each one's speed
// is a fraction of HBM bandwidth measured on its own kernel (h200_moe_kernels.json). Bytes are
// BF16 elements x 2 of the tensors named: T x H (the GPU's tokens by the hidden width), R x H
// (the rows its routed experts receive), Q (MLA's query or key heads, tokens x heads x d_qk).
// The router's kernels (top-k, the sort of the rows by expert, counts, scans) are not paced by
// HBM: each has a fixed time of its own besides its bytes (T x E router scores, T x k picks, E
// experts) over its measured rate.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/cost/kernel_cost.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/piece_id.hpp"

namespace codesim::workload {

enum class SoftwareStack { pytorch, fused, deepseek };

inline constexpr std::array kSoftwareStackNames{
    std::pair{SoftwareStack::pytorch, std::string_view("pytorch")},
    std::pair{SoftwareStack::fused, std::string_view("fused")},
    std::pair{SoftwareStack::deepseek, std::string_view("deepseek")}};
constexpr const auto& spellings(SoftwareStack) {
  return kSoftwareStackNames;
}

std::string_view stack_name(SoftwareStack s);

// Where a stack kernel runs: every layer's attention or mlp piece, an MoE layer's routed
// experts (its mlp piece), MLA's attention, a layer with rotary embedding, or an MoE layer's
// router (its attention piece): any router, one scoring by softmax or by sigmoid, one picking
// its top-k plainly or within its best expert groups; the loss after the output head; or the
// token embedding's weight gradient.
enum class StackScope {
  attention,
  mlp,
  routed_experts,
  mla,
  rotary,
  router,
  softmax_router,
  sigmoid_router,
  top_k_router,
  group_limited_router,
  loss,      // the head piece's cross-entropy over the vocabulary
  embedding  // the embedding piece (its table's gradient)
};

// The tensors a stack kernel's bytes count in: BF16 elements = the factors x their tensors, and
// the router's bytes = the factors x theirs.
struct StackElements {
  double tokens = 0;  // x T x H
  double rows = 0;    // x R x H
  double query = 0;  // x Q (MLA: tokens x heads x d_qk; rotary: tokens x (heads + kv heads) x rope)
  double scores = 0;   // x T x E x 4 bytes (the router's FP32 scores over the routed experts)
  double picks = 0;    // x T x k x 8 bytes (the experts each token picked, int64)
  double experts = 0;  // x E x 8 bytes (per-expert counts and offsets)
  double logits = 0;   // bytes per logit, T x V / TP of them (and the MTP modules' too)
  double table = 0;    // x V / TP x H (the embedding table's share on the GPU)
};

struct StackKernel {
  std::string name;  // "index_add (index_select's backward)"
  StackScope scope = StackScope::attention;
  Pass pass = Pass::forward;
  cost::KernelClass kind = cost::KernelClass::elementwise;
  StackElements elements;     // BF16 elements read plus written
  double hbm_efficiency = 0;  // measured fraction of HBM; 0: the class's
  core::Seconds fixed;        // the kernel's own fixed time, beyond the one every kernel pays
  // Irregular access: rows picked by index (gathers, index_copy, index_add, the weighted sum over
  // each token's experts) or strided views (eager rotary): what its measured fraction lacks of a
  // streaming kernel's is set by the SMs and L2 (atomics, scattered or strided rows), not by HBM,
  // and keeps its time on a GPU of other bandwidth.
  bool irregular = false;
  // Kernels the entry stands for (an op the stack writes as several calls; the bytes are all of
  // theirs), each paying the fixed cost of a kernel and, without CUDA graphs, the host's launch.
  int launches = 1;
};

// What the host spends issuing one kernel when the step is not replayed from CUDA graphs
// (`software.cuda_graphs: false`): the framework's Python, dispatch and the launch itself.
struct HostLaunch {
  core::Seconds inference;  // a forward without autograd (prefill, decode)
  core::Seconds training;   // forward and backward under autograd
};

// An op-table kernel a stack runs its own way: the bytes it moves against the op table's count,
// and its measured fraction of HBM (0: its class's), per pass.
struct OpRates {
  double forward_factor = 1;
  double backward_factor = 1;
  double forward_efficiency = 0;
  double backward_efficiency = 0;
  bool irregular = false;    // strided views (as StackKernel::irregular)
  int forward_launches = 1;  // kernels per pass (as StackKernel::launches)
  int backward_launches = 1;
};

struct StackInventory {
  SoftwareStack stack = SoftwareStack::deepseek;
  // Whether the stack's own token movement replaces the op tables' permute and un-permute.
  bool replaces_permutes = false;
  // SwiGLU's activation, against the op table's fused kernel (F: read gate and up, write one;
  // B: read three, write two): eager PyTorch runs SiLU and the multiply apart, and backward two
  // multiplies, SiLU's backward and the cat of the two gradients, on the gate/up output's
  // strided halves.
  OpRates gated_activation;
  // The residual stream's norms (each layer's attention and FFN norm), where the stack fuses the
  // residual add into them (forward: x and h in, y and norm(y) out, 2x the op table's 1 in, 1
  // out).
  OpRates residual_norm;
  HostLaunch host;
  std::vector<StackKernel> kernels;
};

StackInventory stack_inventory(SoftwareStack s);

}  // namespace codesim::workload
