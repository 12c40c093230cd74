// A software stack's own kernels: which a piece runs, sized from its tensors, and the measured
// kernels' held-out errors (issue 33: router and permutation kernels, median <= 15%).
#include "sim/workload/stack_kernels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "tests/support/data_files.hpp"
#include "tests/support/errors.hpp"

namespace codesim::workload {
namespace {

using testing::held_out_summary;

const hardware::GpuSpec kGpu = hardware::find_preset("h200")->gpu;

std::vector<std::string> names_of(const std::vector<PieceKernel>& ks, cost::KernelClass kind) {
  std::vector<std::string> out;
  for (const PieceKernel& k : ks) {
    if (k.shape.kind == kind) {
      out.push_back(k.op);
    }
  }
  return out;
}

const PieceKernel& named(const std::vector<PieceKernel>& ks, const std::string& name) {
  for (const PieceKernel& k : ks) {
    if (k.op == name) {
      return k;
    }
  }
  throw std::runtime_error("no kernel " + name);
}

const StackKernel& inventory_kernel(SoftwareStack s, const std::string& name) {
  static const std::map<SoftwareStack, StackInventory> stacks{
      {SoftwareStack::pytorch, stack_inventory(SoftwareStack::pytorch)},
      {SoftwareStack::fused, stack_inventory(SoftwareStack::fused)}};
  for (const StackKernel& k : stacks.at(s).kernels) {
    if (k.name == name) {
      return k;
    }
  }
  throw std::runtime_error("no stack kernel " + name);
}

TEST(StackKernels, TheRouterRunsAsTheModelRoutes) {
  // DeepSeek-V3 scores by sigmoid and picks its top 8 within its 4 best of 8 expert groups:
  // under `fused`, its MoE layers' attention piece (the router's) runs the sigmoid, the
  // group-limited top-k (T x E x 16 bytes), the sort of the rows by expert, their count and one
  // cumsum. Time = bytes / (4.8 TB/s x the kernel's fraction) + its fixed time + 1.33 us.
  const auto v3 = *llm::find_preset("deepseek-v3");
  const KernelContext c{.tokens = 4096, .seq_len = 4096, .fp8_gemm = false, .ep = 64};
  const StackInventory fused = stack_inventory(SoftwareStack::fused);
  const auto ks =
      stack_kernels(fused, v3, {PieceKind::attention, Pass::forward}, c, llm::kMoeLayer);
  EXPECT_EQ(names_of(ks, cost::KernelClass::router),
            (std::vector<std::string>{"router scores (sigmoid)", "router group-limited top-k",
                                      "sort rows by expert", "count rows per expert",
                                      "expert offsets (cumsum)"}));
  const PieceKernel& top_k = named(ks, "router group-limited top-k");
  EXPECT_DOUBLE_EQ(top_k.shape.bytes.value, 4096.0 * 256 * 16);
  const StackKernel& measured = inventory_kernel(SoftwareStack::fused, top_k.op);
  EXPECT_NEAR(
      cost::predict(top_k.shape, kGpu).time.value,
      4096.0 * 256 * 16 / (4.8e12 * measured.hbm_efficiency) + measured.fixed.value + 1.33e-6,
      1e-12);
  // The sort's time does not grow with the rows: fixed only.
  EXPECT_DOUBLE_EQ(named(ks, "sort rows by expert").shape.bytes.value, 0.0);
  // Not in the backward, the MoE piece, a dense layer or a dense model.
  for (const auto& other :
       {stack_kernels(fused, v3, {PieceKind::attention, Pass::backward}, c, llm::kMoeLayer),
        stack_kernels(fused, v3, {PieceKind::mlp, Pass::forward}, c, llm::kMoeLayer),
        stack_kernels(fused, v3, {PieceKind::attention, Pass::forward}, c, llm::kDenseLayer),
        stack_kernels(fused, *llm::find_preset("llama3.1-8b"),
                      {PieceKind::attention, Pass::forward}, c, llm::kMoeLayer)}) {
    EXPECT_TRUE(names_of(other, cost::KernelClass::router).empty());
  }
  // DeepSeek-V2-Lite scores by softmax and takes a plain top-6 of 64: T x E x 4 read, T x k x 12
  // written; eager PyTorch scans the counts twice.
  const auto lite = *llm::find_preset("deepseek-v2-lite");
  const auto eager = stack_kernels(stack_inventory(SoftwareStack::pytorch), lite,
                                   {PieceKind::attention, Pass::forward}, c, llm::kMoeLayer);
  EXPECT_EQ(names_of(eager, cost::KernelClass::router),
            (std::vector<std::string>{"router scores (softmax)", "router top-k",
                                      "sort rows by expert", "count rows per expert",
                                      "expert offsets (cumsum)", "expert offsets (cumsum)"}));
  EXPECT_DOUBLE_EQ(named(eager, "router top-k").shape.bytes.value,
                   4096.0 * 64 * 4 + 4096.0 * 6 * 12);
}

int launches_of(const std::vector<PieceKernel>& ks, const std::string& part) {
  int n = 0;
  for (const PieceKernel& k : ks) {
    n += k.op.find(part) != std::string::npos ? k.shape.launches : 0;
  }
  return n;
}

TEST(StackKernels, EagerCountsEveryKernelItLaunches) {
  // Eager rotary on q and k (llama_8b_eager.json): forward neg, cat, two multiplies and an add
  // each (10, the op table's rotary kernel among them); backward two multiplies, two adds, a neg,
  // two fills and two copies each (18). SwiGLU: SiLU and the multiply; backward 4.
  const auto llama = *llm::find_preset("llama3.1-8b");
  const KernelContext c{.tokens = 4096, .seq_len = 4096, .fp8_gemm = false};
  const StackInventory eager = stack_inventory(SoftwareStack::pytorch);
  const auto forward =
      stack_kernels(eager, llama, {PieceKind::attention, Pass::forward}, c, llm::kDenseLayer);
  const auto backward =
      stack_kernels(eager, llama, {PieceKind::attention, Pass::backward}, c, llm::kDenseLayer);
  EXPECT_EQ(launches_of(forward, "rotary"), 10);
  EXPECT_EQ(launches_of(backward, "rotary"), 18);
  EXPECT_EQ(
      launches_of(stack_kernels(eager, llama, {PieceKind::mlp, Pass::forward}, c, llm::kDenseLayer),
                  "ffn_act"),
      2);
  EXPECT_EQ(launches_of(
                stack_kernels(eager, llama, {PieceKind::mlp, Pass::backward}, c, llm::kDenseLayer),
                "ffn_act"),
            4);
  // A piece's kernel count is its entries' launches; each launch pays the 1.33 us fixed cost.
  const KernelParams p{cost::default_params(), cost::attention_params()};
  int listed = 0;
  for (const PieceKernel& k : forward) {
    listed += k.shape.launches;
  }
  EXPECT_EQ(price(forward, kGpu, kGpu.sms, p).kernels, listed);
  // The eager MoE's integer arithmetic between router and gathers (v2_lite_eager.json's
  // forward): 18 kernels over about 16 int64 passes of the T x k picks and the FP32 cast of the T
  // x E logits: time = 18 x 1.33 us + bytes / (4.8 TB/s x the elementwise fraction).
  const auto lite = *llm::find_preset("deepseek-v2-lite");
  const auto moe =
      stack_kernels(eager, lite, {PieceKind::attention, Pass::forward}, c, llm::kMoeLayer);
  const PieceKernel& index = named(moe, "row positions (index arithmetic)");
  EXPECT_EQ(index.shape.launches, 18);
  const double bytes = 4096.0 * 64 * 4 * 1.5 + 4096.0 * 6 * 8 * 16;
  EXPECT_DOUBLE_EQ(index.shape.bytes.value, bytes);
  EXPECT_NEAR(cost::predict(index.shape, kGpu).time.value,
              18 * 1.33e-6 + bytes / (4.8e12 * cost::default_params().elementwise_efficiency),
              1e-12);
  // Not under torch.compile (its profiles were not counted kernel by kernel).
  EXPECT_EQ(launches_of(stack_kernels(stack_inventory(SoftwareStack::fused), lite,
                                      {PieceKind::attention, Pass::forward}, c, llm::kMoeLayer),
                        "index arithmetic"),
            0);
}

// The stack kernel that prices each measured kind of h200_moe_kernels.json.
const std::map<std::string, std::pair<SoftwareStack, std::string>> kMeasuredAs{
    {"softmax", {SoftwareStack::fused, "router scores (softmax)"}},
    {"sigmoid", {SoftwareStack::fused, "router scores (sigmoid)"}},
    {"topk", {SoftwareStack::fused, "router top-k"}},
    {"group_limited_topk", {SoftwareStack::fused, "router group-limited top-k"}},
    {"argsort", {SoftwareStack::fused, "sort rows by expert"}},
    {"sort", {SoftwareStack::fused, "sort rows by expert"}},
    {"count_scatter", {SoftwareStack::fused, "count rows per expert"}},
    {"cumsum", {SoftwareStack::fused, "expert offsets (cumsum)"}},
    {"gather", {SoftwareStack::pytorch, "gather tokens"}},
    {"index_copy", {SoftwareStack::pytorch, "index_copy rows"}},
    {"index_add", {SoftwareStack::pytorch, "index_add rows"}},
    {"weighted_sum", {SoftwareStack::pytorch, "weighted sum"}},
    {"mla_q_cat", {SoftwareStack::fused, "q and k assembly"}},
    {"mla_k_cat_expand", {SoftwareStack::pytorch, "q and k cat"}}};

TEST(StackKernels, HeldOutRouterAndPermutationCasesWithinTheTargets) {
  // models/calibration/h200/moe/h200_moe_kernels.json, the `router` and `permute` cases the
  // stacks price (fitted by tools/calibration/fit_stacks.py on the others): each predicted with
  // the measured bytes at its stack kernel's rate and fixed time. Issue 33's target per class:
  // median <= 15%. fit_stacks.py prints the same: router 26 held out, median 5.8%, worst 42.8%
  // (softmax, fitted to two cases); permutation 15, median 3.7%, worst 45.8% (index_add, top-2;
  // here 3.8% and 46.8% with the rates' three digits kept in software_stack.cpp).
  const auto data = testing::calibration_data("h200/moe/h200_moe_kernels.json");
  std::map<std::string, std::vector<double>> errors;
  for (const auto& c : data["cases"]) {
    // MLA's cats were timed with the GPT-style memory kernels.
    const std::string cls = c["class"] == "router" ? "router" : "permute";
    if (!c["held_out"].get<bool>() ||
        (c["class"] != "router" && c["class"] != "permute" && c["class"] != "memory_gpt")) {
      continue;
    }
    const std::string kind =
        std::regex_replace(c["name"].get<std::string>(), std::regex("_t[0-9]+.*"), "");
    const auto as = kMeasuredAs.find(kind);
    if (as == kMeasuredAs.end()) {
      continue;  // measured, not run by either stack (scatter_add, bincount, histc)
    }
    const StackKernel& k = inventory_kernel(as->second.first, as->second.second);
    const cost::KernelShape shape{.kind = k.kind,
                                  .bytes = core::Bytes(k.fixed.value > 0 && k.hbm_efficiency == 0
                                                           ? 0.0
                                                           : c["hbm_bytes"].get<double>()),
                                  .hbm_efficiency = k.hbm_efficiency,
                                  .fixed = k.fixed};
    const double predicted = cost::predict(shape, kGpu).time.value * 1e6;
    const double measured = c["time_us"].get<double>();
    errors[cls].push_back(std::fabs(predicted / measured - 1.0));
    std::cout << c["name"].get<std::string>() << ": predicted " << predicted << " us, measured "
              << measured << " us\n";
  }
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors["router"].size(), 26u);
  EXPECT_EQ(errors["permute"].size(), 15u);
  for (const auto& [cls, e] : errors) {
    const auto [median, worst] = held_out_summary(cls, e);
    EXPECT_LE(median, 0.15) << cls;
    EXPECT_LE(worst, 0.47) << cls;
  }
}

TEST(StackKernels, TheLossFollowsTheHeadInTrainingOnly) {
  // Eager PyTorch's cross-entropy over FP32 logits: forward the cast (6 bytes per logit) and
  // log_softmax (8); backward the gradient's zeros (4), log_softmax's backward (12) and the cast
  // back (6). DeepSeek-V3 at 4096 tokens on TP 2: 4096 x 129280 / 2 logits, and its MTP module's
  // as many again. torch.compile's: one fused pass each way (2 and 4 bytes per logit), and
  // DeepSeek's stack assumed the same (its trace has no head).
  auto v3 = *llm::find_preset("deepseek-v3");
  v3.mtp_depth = 1;
  const KernelContext c{.tokens = 4096, .seq_len = 4096, .tp = 2, .loss = true};
  const double logits = 4096.0 * 129280 / 2 * 2;
  auto loss_bytes = [&](SoftwareStack s, Pass pass, const KernelContext& context) {
    double bytes = 0;
    for (const PieceKernel& k :
         stack_kernels(stack_inventory(s), v3, {PieceKind::head, pass}, context, llm::kMoeLayer)) {
      if (k.op.find("softmax") != std::string::npos || k.op.find("logits") != std::string::npos ||
          k.op.find("loss") != std::string::npos) {
        bytes += k.shape.bytes.value;
      }
    }
    return bytes;
  };
  EXPECT_DOUBLE_EQ(loss_bytes(SoftwareStack::pytorch, Pass::forward, c), logits * (6 + 8));
  EXPECT_DOUBLE_EQ(loss_bytes(SoftwareStack::pytorch, Pass::backward, c), logits * (4 + 12 + 6));
  EXPECT_DOUBLE_EQ(loss_bytes(SoftwareStack::fused, Pass::forward, c), logits * 2);
  EXPECT_DOUBLE_EQ(loss_bytes(SoftwareStack::fused, Pass::backward, c), logits * 4);
  EXPECT_DOUBLE_EQ(loss_bytes(SoftwareStack::pytorch, Pass::weight, c), 0.0);
  EXPECT_DOUBLE_EQ(loss_bytes(SoftwareStack::deepseek, Pass::forward, c), logits * 2);
  EXPECT_DOUBLE_EQ(loss_bytes(SoftwareStack::deepseek, Pass::backward, c), logits * 4);
  // A prefill's head has no loss.
  KernelContext prefill = c;
  prefill.loss = false;
  for (const SoftwareStack s :
       {SoftwareStack::pytorch, SoftwareStack::fused, SoftwareStack::deepseek}) {
    EXPECT_DOUBLE_EQ(loss_bytes(s, Pass::forward, prefill), 0.0) << stack_name(s);
  }
}

TEST(StackKernels, TheLossKernelsReproduceTheirHeldOutVocabulary) {
  // fit_step_extras.py fitted the loss kernels at 128256 words; at 151936 (8192 tokens) the
  // measured kernels of h200_step_extras.json sum to 15997 us eager and 4328 us compiled; the
  // model's, each bytes / (4.8 TB/s x its fraction) + 1.33 us, land within 2%.
  const llm::LlmSpec m{.hidden = 2048, .vocab = 151936};
  const KernelContext c{.tokens = 8192, .seq_len = 8192, .fp8_gemm = false, .loss = true};
  for (const auto& [stack, measured_us] :
       {std::pair{SoftwareStack::pytorch, 15997.0}, std::pair{SoftwareStack::fused, 4328.0}}) {
    double us = 0;
    for (const Pass pass : {Pass::forward, Pass::backward}) {
      for (const StackKernel& k : stack_inventory(stack).kernels) {
        if (k.scope != StackScope::loss || k.pass != pass) {
          continue;
        }
        for (const PieceKernel& p : stack_kernels(stack_inventory(stack), m,
                                                  {PieceKind::head, pass}, c, llm::kDenseLayer)) {
          if (p.op == k.name) {
            us += cost::predict(p.shape, kGpu).time.value * 1e6;
          }
        }
      }
    }
    EXPECT_NEAR(us / measured_us, 1.0, 0.02) << stack_name(stack);
  }
}

TEST(StackKernels, TheEmbeddingLooksUpInForwardAndFillsItsTableInWeight) {
  // Llama 3.1 8B, 4096 tokens, TP 2 (vocabulary-parallel): the lookup reads and writes every
  // token's row, 2 x 4096 x 4096 x 2 bytes, in every stack (the op table's kernel). The table's
  // gradient is the stack's: eager zeros the GPU's share of the table (128256 / 2 x 4096 x 2
  // bytes), sorts the ids (bytes 0, a fixed time) and moves 6 + 6 bytes per token element of
  // all 4096 tokens; compiled zeros it in FP32 (4), adds atomically (10 per token element) and
  // casts it (6). No input gradient. DeepSeek's stack (assumed) only adds the tokens' gradients
  // into an FP32 table (10 per token element).
  const auto m = *llm::find_preset("llama3.1-8b");
  const KernelContext c{.tokens = 4096, .seq_len = 4096, .tp = 2, .sequence_parallel = true};
  const double tokens = 4096.0 * 4096;
  const double table = 128256.0 / 2 * 4096;
  auto bytes = [&](SoftwareStack s, Pass pass) {
    double b = 0;
    for (const PieceKernel& k :
         stack_kernels(stack_inventory(s), m, {PieceKind::embedding, pass}, c, llm::kDenseLayer)) {
      b += k.shape.bytes.value;
    }
    return b;
  };
  for (const SoftwareStack s :
       {SoftwareStack::pytorch, SoftwareStack::fused, SoftwareStack::deepseek}) {
    EXPECT_DOUBLE_EQ(bytes(s, Pass::forward), tokens * 2 * 2) << stack_name(s);
    EXPECT_DOUBLE_EQ(bytes(s, Pass::backward), 0.0) << stack_name(s);
  }
  EXPECT_DOUBLE_EQ(bytes(SoftwareStack::pytorch, Pass::weight), table * 2 + tokens * (6 + 6));
  EXPECT_DOUBLE_EQ(bytes(SoftwareStack::fused, Pass::weight), table * (4 + 6) + tokens * 10);
  EXPECT_DOUBLE_EQ(bytes(SoftwareStack::deepseek, Pass::weight), tokens * 10);
}

TEST(StackKernels, TheEmbeddingGradientReproducesItsHeldOutShape) {
  // fit_step_extras.py fitted the embedding's gradient kernels at V = 128256, H = 4096; at
  // V = 151936, H = 2048 (8192 tokens) the measured kernels of h200_step_extras.json sum to
  // 508 us eager (sort included) and 749 us compiled; the model's land within 3%.
  const llm::LlmSpec m{.hidden = 2048, .vocab = 151936};
  const KernelContext c{.tokens = 8192, .seq_len = 8192, .fp8_gemm = false};
  for (const auto& [stack, measured_us] :
       {std::pair{SoftwareStack::pytorch, 508.0}, std::pair{SoftwareStack::fused, 749.0}}) {
    double us = 0;
    for (const PieceKernel& p :
         stack_kernels(stack_inventory(stack), m, {PieceKind::embedding, Pass::weight}, c,
                       llm::kDenseLayer)) {
      us += cost::predict(p.shape, kGpu).time.value * 1e6;
    }
    EXPECT_NEAR(us / measured_us, 1.0, 0.03) << stack_name(stack);
  }
}

}  // namespace
}  // namespace codesim::workload
