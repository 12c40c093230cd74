// The fused-attention model: its FLOPs and efficiency terms, and its error on the H200 attention
// measurements it was not fitted to (the held-out third of
// models/calibration/h200/h200_kernels.json).
#include "models/cost/attention_cost.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/hardware/catalog.hpp"
#include "tests/support/data_files.hpp"

namespace codesim::cost {
namespace {

const hardware::GpuSpec kH200Gpu = hardware::find_preset("h200")->gpu;

TEST(AttentionCost, FlopsAreTheTwoProductsOverTheCausalHalf) {
  // 2 x B H S^2 / 2 x (d_qk + d_v): 2 x 4 x 16 x 8192^2 / 2 x 256; forward + backward 3.5 x.
  const AttentionShape s{.batch = 4, .heads = 16, .seq = 8192, .d_qk = 128, .d_v = 128};
  EXPECT_DOUBLE_EQ(attention_flops(s).value, 2.0 * 4 * 16 * 8192.0 * 8192 / 2 * 256);
  AttentionShape full = s;
  full.causal = false;
  full.pass = AttentionPass::forward_backward;
  EXPECT_DOUBLE_EQ(attention_flops(full).value, 3.5 * 2 * attention_flops(s).value);
}

TEST(AttentionCost, TimeIsFlopsOverThePeakTimesTheFittedEfficiencyPlusTheLastTiles) {
  // e = a x D / (D + d0) x S / (S + s0), D = (d_qk + d_v) / 2; time = FLOPs / (989 TFLOPS x e)
  // + k x the FLOPs of one 128-row query tile over the S keys / (989 / 132 TFLOPS x e) + launch.
  const AttentionParams p = attention_params();
  const AttentionShape s{.batch = 1, .heads = 16, .seq = 32768, .d_qk = 64, .d_v = 64};
  const double e = p.forward.a * 64 / (64 + p.forward.d0) * 32768 / (32768 + p.forward.s0);
  const double tile = 2.0 * 128 * 32768 * 128;
  const double launch = default_params().launch_overhead.value;
  const KernelCost c = predict_attention(s, kH200Gpu, kH200Gpu.sms);
  EXPECT_EQ(c.bound, "compute");
  EXPECT_NEAR(c.efficiency, e, 1e-12);
  EXPECT_NEAR(
      c.time.value,
      attention_flops(s).value / (989e12 * e) + p.forward.tail * tile / (989e12 / 132 * e) + launch,
      1e-12);
  // MLA's 192/128 runs at D = 160.
  const AttentionShape mla{.batch = 1, .heads = 16, .seq = 4096, .d_qk = 192, .d_v = 128};
  EXPECT_NEAR(predict_attention(mla, kH200Gpu, kH200Gpu.sms).efficiency,
              p.forward.a * 160 / (160 + p.forward.d0) * 4096 / (4096 + p.forward.s0), 1e-12);
  // Communication holding 20 of 132 SMs leaves 112: the spread part grows by 132 / 112, the last
  // tiles' (one SM each) does not.
  const KernelCost held = predict_attention(s, kH200Gpu, 112);
  const double last = p.forward.tail * tile / (989e12 / 132 * e);
  EXPECT_NEAR((held.time.value - launch - last) / (c.time.value - launch - last), 132.0 / 112,
              1e-12);
}

TEST(AttentionCost, FewHeadsCasesWithinTheTargets) {
  // The last tiles' term is what a one-prompt prefill's attention pays: SDPA forward at 16-512
  // heads x batch and 1K-8K tokens on the H100 (h100/kernels/attention_small.json; fitted on two
  // thirds, the calls over 5 ms left out as at the power cap). Every case within 16%, the median
  // within 5% (without the term: 32% and 46% at 16-32 heads x batch, 1-2K tokens).
  const auto data = testing::calibration_data("h100/kernels/attention_small.json");
  const hardware::GpuSpec h100 = hardware::find_preset("h100")->gpu;
  std::vector<double> errors;
  for (const auto& c : data["cases"]) {
    if (c["time_us"].get<double>() >= 5000) {
      continue;
    }
    const AttentionShape s{.batch = c["batch"].get<double>(),
                           .heads = c["heads"].get<double>(),
                           .seq = c["seq"].get<double>(),
                           .d_qk = c["d_qk"].get<int>(),
                           .d_v = c["d_v"].get<int>()};
    const double predicted = predict_attention(s, h100, h100.sms).time.value * 1e6;
    errors.push_back(std::fabs(predicted / c["time_us"].get<double>() - 1));
  }
  ASSERT_EQ(errors.size(), 37u);
  std::sort(errors.begin(), errors.end());
  EXPECT_LE(errors[errors.size() / 2], 0.05);
  EXPECT_LE(errors.back(), 0.16);
}

TEST(AttentionCost, BackwardIsForwardAndBackwardLessForward) {
  // A backward pass adds the forward + backward kernels' time less the forward's (one fixed
  // cost), and 2.5 x the forward FLOPs.
  AttentionShape s{.batch = 1, .heads = 128, .seq = 4096, .d_qk = 192, .d_v = 128};
  const KernelCost forward = predict_attention(s, kH200Gpu, 112);
  s.pass = AttentionPass::forward_backward;
  const KernelCost both = predict_attention(s, kH200Gpu, 112);
  s.pass = AttentionPass::backward;
  const KernelCost backward = predict_attention(s, kH200Gpu, 112);
  EXPECT_NEAR(backward.time.value,
              both.time.value - forward.time.value + default_params().launch_overhead.value, 1e-15);
  EXPECT_DOUBLE_EQ(backward.flops.value, 2.5 * forward.flops.value);
}

TEST(AttentionCost, HeldOutH200CasesWithinTheTargets) {
  // The attention terms were fitted (tools/calibration/fit_attention.py) on the cases not held
  // out; on the held-out third, per pass, the median error must stay within 10% and the worst
  // within 40%.
  const auto data = testing::calibration_data("h200/h200_kernels.json");
  EXPECT_EQ(data["gpu"], "NVIDIA H200");
  for (const char* cls : {"attention_fwd", "attention_fwd_bwd"}) {
    std::vector<double> errors;
    for (const auto& c : data["cases"]) {
      if (c["class"] != cls || !c["held_out"].get<bool>()) {
        continue;
      }
      const AttentionShape s{.batch = c["batch"].get<double>(),
                             .heads = c["heads"].get<double>(),
                             .seq = c["seq"].get<double>(),
                             .d_qk = c["d_qk"].get<int>(),
                             .d_v = c["d_v"].get<int>(),
                             .causal = c["causal"].get<bool>(),
                             .pass = std::string(cls) == "attention_fwd"
                                         ? AttentionPass::forward
                                         : AttentionPass::forward_backward};
      EXPECT_NEAR(attention_flops(s).value, c["flops"].get<double>(),
                  1e-9 * c["flops"].get<double>());
      const double predicted = predict_attention(s, kH200Gpu, kH200Gpu.sms).time.value * 1e6;
      const double measured = c["time_us"].get<double>();
      errors.push_back(std::fabs(predicted / measured - 1));
      std::cout << cls << " " << c["name"].get<std::string>() << ": predicted " << predicted
                << " us, measured " << measured << " us\n";
    }
    ASSERT_EQ(errors.size(), 4u) << cls;
    std::sort(errors.begin(), errors.end());
    EXPECT_LE((errors[1] + errors[2]) / 2, 0.10) << cls;
    EXPECT_LE(errors.back(), 0.40) << cls;
  }
}

}  // namespace
}  // namespace codesim::cost
