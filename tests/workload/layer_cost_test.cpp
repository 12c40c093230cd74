// One transformer layer forward + backward on one H200, predicted against the layers measured in
// models/calibration/h200/moe/h200_layers.json (validation only: nothing is fitted to them).
// Eager runs are predicted with software.stack pytorch, torch.compile runs with fused; the
// tokens each local expert received are the measured ones. The runs are back to back (3 warm-up
// calls, then 10 timed: a layer of 5-41 ms keeps the board at its power cap), so the prediction
// is the layer's at the clock the governor gives it run back to back (models/cost/clock_model).
#include "sim/workload/layer_cost.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "models/cost/clock_model.hpp"
#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "sim/workload/chrome_import.hpp"
#include "sim/workload/stack_kernels.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::workload {
namespace {

// The layers of tools/calibration/h200_layers.py as specs.
std::map<std::string, llm::LlmSpec> measured_layers() {
  llm::LlmSpec v3 = *llm::find_preset("deepseek-v3");
  v3.dense_layers = 0;
  llm::LlmSpec v2_lite = *llm::find_preset("deepseek-v2-lite");
  v2_lite.dense_layers = 0;
  const llm::LlmSpec mixtral{.name = "mixtral",
                             .hidden = 4096,
                             .layers = 1,
                             .heads = 32,
                             .vocab = 32000,
                             .ffn_inter_dim = 14336,
                             .attention = llm::GqaSpec{.kv_heads = 8, .head_dim = 128},
                             .moe = llm::MoeSpec{.routed_experts = 8,
                                                 .activated_experts = 2,
                                                 .expert_inter_dim = 14336}};
  // GPT-style: LayerNorm, biases, a 4 x GELU MLP, learned positions (no rotary).
  const llm::LlmSpec gpt{.name = "gpt_2048",
                         .hidden = 2048,
                         .layers = 1,
                         .heads = 16,
                         .vocab = 50304,
                         .ffn_inter_dim = 8192,
                         .ffn = llm::FfnKind::gelu,
                         .attention = llm::GqaSpec{.kv_heads = 16, .head_dim = 128},
                         .learned_positions = 2048};
  return {{"v3_ep64", v3},         {"v3_ep32", v3},
          {"v2_lite", v2_lite},    {"mixtral", mixtral},
          {"llama_8b", *llm::find_preset("llama3.1-8b")}, {"gpt_2048", gpt}};
}

// One measured run of h200_layers.json as the model sees it: the layer, the stack its mode
// stands for (eager: pytorch, compiled: fused), the tokens and each local expert's rows.
struct MeasuredRun {
  std::string layer;  // "v2_lite"
  std::string mode;   // "eager" | "compiled"
  llm::LlmSpec model;
  KernelContext kernels;
  PieceModel pieces;
  double forward_us = 0;
  double forward_backward_us = 0;
};

// The two sittings of tools/calibration/h200_layers.py (2026-12-02 and 2026-12-04).
constexpr const char* kSittings[] = {"h200_layers.json", "h200_layers_sitting2.json"};

std::vector<MeasuredRun> measured_runs(const std::string& file = kSittings[0]) {
  const auto data = testing::calibration_data("h200/moe/" + file);
  const auto layers = measured_layers();
  std::vector<MeasuredRun> out;
  for (const auto& run : data["runs"]) {
    MeasuredRun r{.layer = run["layer"], .mode = run["mode"]};
    r.model = layers.at(r.layer);
    const int seq = run["seq"];
    r.kernels = {.tokens = seq * run["batch"].get<int>(), .seq_len = seq, .fp8_gemm = false};
    if (!run["tokens_per_local_expert"].is_null()) {
      r.kernels.expert_rows = run["tokens_per_local_expert"].get<std::vector<double>>();
    }
    r.pieces = stack_profile(r.mode == "eager" ? SoftwareStack::pytorch : SoftwareStack::fused,
                             {.cuda_graphs = false});
    r.forward_us = run["fwd_us"];
    r.forward_backward_us = run["fwd_bwd_us"];
    out.push_back(std::move(r));
  }
  return out;
}

struct LayerError {
  std::string layer;
  double forward = 0;           // predicted / measured - 1
  double forward_backward = 0;  // the same
};

// A pass (or several) run back to back at the clock the governor settles at: its kernels' work
// at that clock, the host's gaps beside it.
double sustained_us(const std::vector<PieceCost>& passes, const hardware::GpuSpec& gpu) {
  PieceCost all;
  for (const PieceCost& p : passes) {
    all += p;
  }
  return cost::govern(all.work, all.total - all.work.total(), gpu.power).stretch.value * 1e6;
}

std::vector<LayerError> layer_errors(const std::string& file = kSittings[0]) {
  const auto gpu = hardware::find_preset("h200")->gpu;
  std::vector<LayerError> out;
  for (const MeasuredRun& r : measured_runs(file)) {
    const LayerCost c =
        layer_cost(r.pieces, {.model = &r.model, .gpu = gpu, .kernels = r.kernels}, r.model.layer(r.model.layers - 1));
    out.push_back(
        {r.layer + " " + r.mode, sustained_us({c.forward}, gpu) / r.forward_us - 1,
         sustained_us({c.forward, c.backward_input, c.backward_weight}, gpu) /
                 r.forward_backward_us -
             1});
  }
  return out;
}

TEST(LayerCost, SumsTheLayersPiecesOverThePasses) {
  // F + B + W of the attention and mlp pieces = the layer.
  const llm::LlmSpec m = *llm::find_preset("llama3.1-8b");
  const PieceContext c{.model = &m,
                       .gpu = hardware::find_preset("h200")->gpu,
                       .kernels = {.tokens = 4096, .seq_len = 4096, .fp8_gemm = false}};
  const PieceModel pm = stack_profile(SoftwareStack::fused);
  double pieces = 0;
  for (const Pass pass : {Pass::forward, Pass::backward, Pass::weight}) {
    for (const PieceKind kind : {PieceKind::attention, PieceKind::mlp}) {
      pieces += piece_time(pm, c, {kind, pass}, 0).value;
    }
  }
  EXPECT_NEAR(layer_cost(pm, c, llm::kDenseLayer).forward_backward().value, pieces, 1e-12);
}

TEST(LayerCost, MeasuredH200LayersWithinTheTargets) {
  // Issue 33's target is 7% per layer forward + backward. Against the mean of the two sittings'
  // medians (the error of the mean: 1 / (1 / 2 (1 / (1 + e1) + 1 / (1 + e2))) - 1) every layer
  // is within it; a sitting alone is within 8.5%, the sittings' spread (up to 4.9%, the second
  // faster) above the target (models/calibration/README.md). Forward alone (measured under
  // no_grad) is not a target: within 20%.
  const std::vector<LayerError> first = layer_errors(kSittings[0]);
  const std::vector<LayerError> second = layer_errors(kSittings[1]);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    SCOPED_TRACE(first[i].layer);
    ASSERT_EQ(first[i].layer, second[i].layer);
    const auto of_mean = [](double a, double b) { return 1 / (0.5 / (1 + a) + 0.5 / (1 + b)) - 1; };
    const double fb = of_mean(first[i].forward_backward, second[i].forward_backward);
    // The table in models/calibration/README.md.
    std::printf("| %s | %+.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %+.1f%% |\n",
                first[i].layer.c_str(), 100 * first[i].forward, 100 * second[i].forward,
                100 * first[i].forward_backward, 100 * second[i].forward_backward, 100 * fb);
    EXPECT_LE(std::abs(fb), 0.07);
    for (const LayerError& e : {first[i], second[i]}) {
      EXPECT_LE(std::abs(e.forward_backward), 0.085);
      EXPECT_LE(std::abs(e.forward), 0.20);
    }
  }
}

// torch.compile fuses each residual add into the norm after it: the fused stack's attention and
// FFN norms move x and h in and y and norm(y) out, twice the op table's in-and-out, at the fused
// kernel's measured rate; MLA's latent norms (no residual add) keep the op table's.
TEST(LayerCost, FusedStackNormsCarryTheResidualAdd) {
  llm::LlmSpec m = *llm::find_preset("deepseek-v2-lite");
  m.dense_layers = 0;
  const KernelContext k{.tokens = 4096, .seq_len = 4096, .fp8_gemm = false};
  const PieceId attn_f{PieceKind::attention, Pass::forward};
  auto find = [](const std::vector<PieceKernel>& ks, const std::string& op) {
    for (const PieceKernel& x : ks) {
      if (x.op == op) {
        return x;
      }
    }
    ADD_FAILURE() << op;
    return PieceKernel{};
  };
  const auto table = piece_kernels(m, attn_f, k, llm::kMoeLayer);
  const auto fused = stack_kernels(stack_inventory(SoftwareStack::fused), m, attn_f, k, llm::kMoeLayer);
  EXPECT_DOUBLE_EQ(find(fused, "attn_norm").shape.bytes.value,
                   2 * find(table, "attn_norm").shape.bytes.value);
  EXPECT_DOUBLE_EQ(find(fused, "attn_norm").shape.hbm_efficiency, 0.786);
  EXPECT_DOUBLE_EQ(find(fused, "kv_norm").shape.bytes.value,
                   find(table, "kv_norm").shape.bytes.value);
  EXPECT_DOUBLE_EQ(find(fused, "kv_norm").shape.hbm_efficiency, 0);
  const PieceId attn_b{PieceKind::attention, Pass::backward};
  EXPECT_DOUBLE_EQ(
      find(stack_kernels(stack_inventory(SoftwareStack::fused), m, attn_b, k, llm::kMoeLayer), "attn_norm")
          .shape.hbm_efficiency,
      0.244);
}

TEST(LayerCost, TheDeepseekStackDoesNotPriceOtherStacksLayers) {
  // DeepSeek's trace scales on eager layers: 24-33% short on the MoE layers (the permutes eager
  // PyTorch runs are not DeepSeek's), which is why each stack has its own profile.
  const auto layers = measured_layers();
  const llm::LlmSpec& m = layers.at("v3_ep64");
  const PieceContext c{.model = &m,
                       .gpu = hardware::find_preset("h200")->gpu,
                       .kernels = {.tokens = 4096,
                                   .seq_len = 4096,
                                   .fp8_gemm = false,
                                   .expert_rows = {8042, 8401, 8163, 8162}}};
  const double deepseek = layer_cost(deepseek_profile(), c, llm::kMoeLayer).forward_backward().value;
  const double eager = layer_cost(stack_profile(SoftwareStack::pytorch), c, llm::kMoeLayer)
                           .forward_backward()
                           .value;
  EXPECT_LT(deepseek, 0.8 * eager);
}

// Each measured layer's profiler trace (one forward + backward), imported: the GPU time of every
// kernel class codesim's importer names, and whether the model's kernels for that layer and stack
// include the class. Issue 33: no class the model leaves unpriced above 2% of the layer's time.
TEST(LayerCost, ProfiledLayersLeaveNoUnpricedClassAboveTwoPercent) {
  const auto gpu = hardware::find_preset("h200")->gpu;
  for (const MeasuredRun& r : measured_runs()) {
    SCOPED_TRACE(r.layer + " " + r.mode);
    const StepTrace t =
        import_chrome_trace_file(CODESIM_SOURCE_DIR "/models/calibration/h200/moe/traces/" +
                                 r.layer + "_" + r.mode + ".json");
    std::map<cost::KernelClass, double> measured;
    double total = 0;
    for (const Op& op : t.ops) {
      measured[op.op_class] += op.measured_us.value_or(0);
      total += op.measured_us.value_or(0);
    }
    // The model's time per class (the fused attention kernel under its pass's class), for the
    // per-class table beside this one.
    std::set<cost::KernelClass> priced;
    std::map<cost::KernelClass, double> modelled;
    for (const PieceKind kind : {PieceKind::attention, PieceKind::mlp}) {
      for (const Pass pass : {Pass::forward, Pass::backward, Pass::weight}) {
        for (const PieceKernel& k :
             stack_kernels(r.pieces.stack, r.model, {kind, pass}, r.kernels, r.model.layer(r.model.layers - 1))) {
          const cost::KernelClass cls = !k.attention ? k.shape.kind
                                        : pass == Pass::forward
                                            ? cost::KernelClass::attention_forward
                                            : cost::KernelClass::attention_backward;
          priced.insert(cls);
          modelled[cls] += price({k}, gpu, gpu.sms, r.pieces.params).total.value * 1e6;  // us
        }
      }
    }
    // The table in models/calibration/README.md: each class's share, * where unpriced.
    std::printf("| %s %s |", r.layer.c_str(), r.mode.c_str());
    for (const auto& [cls, time] : measured) {
      const double share = time / total;
      std::printf(" %s %.1f%%%s", std::string(cost::kernel_class_name(cls)).c_str(), 100 * share,
                  priced.contains(cls) ? "" : "*");
      if (!priced.contains(cls)) {
        EXPECT_LT(share, 0.02) << cost::kernel_class_name(cls);
      }
    }
    std::printf(" |\n| %s %s model/measured |", r.layer.c_str(), r.mode.c_str());
    for (const auto& [cls, time] : measured) {
      std::printf(" %s %.2f", std::string(cost::kernel_class_name(cls)).c_str(),
                  modelled[cls] / time);
    }
    std::printf(" |\n");
  }
}

}  // namespace
}  // namespace codesim::workload
