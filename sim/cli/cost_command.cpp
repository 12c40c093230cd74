// `codesim cost CLASS ...`: one kernel's predicted time, so the model can be checked by hand.
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "models/cost/attention_cost.hpp"
#include "models/cost/kernel_cost.hpp"
#include "models/hardware/catalog.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/usage.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/report/figure_table.hpp"
#include "sim/report/format.hpp"
#include "sim/report/table.hpp"

namespace codesim::cli {
namespace {

using nlohmann::ordered_json;

cost::KernelClass kernel_class_of(const std::string& name) {
  const auto kind = cost::kernel_class_from(name);
  if (!kind || *kind == cost::KernelClass::communication) {
    throw_usage_error(
        "cost", "unknown kernel class '" + name + "'",
        "one of: gemm, grouped_gemm, attention, attention_forward, attention_backward, "
        "elementwise, norm, quantize, memcpy, optimizer");
  }
  return *kind;
}

int sms_of(const CostOptions& o, const hardware::HardwareSpec& hw) {
  const int sms = o.sms > 0 ? o.sms : hw.gpu.sms;
  if (sms > hw.gpu.sms) {
    throw_usage_error("cost", "--sms " + std::to_string(sms) + " exceeds the " +
                                  std::to_string(hw.gpu.sms) + " SMs of " + hw.name);
  }
  return sms;
}

// What every kernel's prediction says.
nlohmann::ordered_json cost_json(const cost::KernelCost& c) {
  return {{"sms", c.sms},
          {"flops", c.flops.value},
          {"bytes", c.bytes.value},
          {"time_us", c.time.value * 1e6},
          {"bound", c.bound},
          {"efficiency", c.efficiency},
          {"achieved_tflops", c.flops.value / c.time.value / 1e12}};
}

// `cost attention`: a fused attention kernel by its shape.
void run_attention(const CostOptions& o, const hardware::HardwareSpec& hw, std::ostream& out) {
  if (o.heads < 1 || o.seq < 1 || o.batch < 1 || o.d_qk < 1 || o.d_v < 0) {
    throw_usage_error("cost", "attention needs --heads, --seq, --batch and --d-qk of at least 1");
  }
  if (o.pass != "fwd" && o.pass != "fwd+bwd") {
    throw_usage_error("cost", "unknown pass '" + o.pass + "'", "fwd or fwd+bwd", "--pass");
  }
  const cost::AttentionShape shape{.batch = o.batch,
                                   .heads = o.heads,
                                   .seq = o.seq,
                                   .d_qk = o.d_qk,
                                   .d_v = o.d_v > 0 ? o.d_v : o.d_qk,
                                   .causal = o.causal,
                                   .pass = o.pass == "fwd" ? cost::AttentionPass::forward
                                                           : cost::AttentionPass::forward_backward};
  const cost::KernelCost c = cost::predict_attention(shape, hw.gpu, sms_of(o, hw));
  nlohmann::ordered_json j{{"schema_version", 1},
                           {"hardware", hw.name},
                           {"class", "attention"},
                           {"pass", o.pass},
                           {"causal", o.causal}};
  j.update(cost_json(c));
  j["fitted"] =
      "attention terms fitted to models/calibration/h200/h200_kernels.json "
      "(tools/calibration/fit_attention.py); Hopper efficiencies, an assumption elsewhere";
  write_figures(j, o.format, out);
}

}  // namespace

void run_cost(const CostOptions& o, std::ostream& out) {
  const hardware::HardwareSpec hw = hardware_preset("cost", o.hardware);
  if (o.kind == "attention") {
    run_attention(o, hw, out);
    return;
  }
  const cost::KernelClass kind = kernel_class_of(o.kind);
  const bool gemm = kind == cost::KernelClass::gemm || kind == cost::KernelClass::grouped_gemm;
  const bool by_rows = !o.rows.empty();
  if (by_rows && kind != cost::KernelClass::grouped_gemm) {
    throw_usage_error("cost", "--rows gives a grouped GEMM's groups; " + o.kind + " has none",
                      "use grouped_gemm, or --m and --batch", "--rows");
  }
  double rows = 0;
  for (const double r : o.rows) {
    rows += r;
  }
  if (by_rows && rows < 1) {
    throw_usage_error("cost", "--rows gives no rows at all", "give each group's rows", "--rows");
  }
  if (gemm && ((!by_rows && (o.m < 1 || o.batch < 1)) || o.n < 1 || o.k < 1)) {
    throw_usage_error("cost", "a GEMM needs --m, --n and --k of at least 1");
  }
  if (!gemm && o.flops <= 0 && o.bytes <= 0) {
    throw_usage_error("cost", "a " + o.kind + " kernel needs --flops or --bytes");
  }
  if (o.dtype == "fp8" && hw.gpu.fp8_peak.value <= 0) {
    throw_usage_error("cost", hw.name + " has no FP8 tensor cores", "use --dtype bf16", "--dtype");
  }
  const int sms = sms_of(o, hw);
  const cost::KernelShape shape{.kind = kind,
                                .dtype = o.dtype == "fp8" ? cost::DType::fp8 : cost::DType::bf16,
                                .m = o.m,
                                .n = o.n,
                                .k = o.k,
                                .batch = o.batch,
                                .group_m = o.rows,
                                .flops = core::Flops(o.flops),
                                .bytes = core::Bytes(o.bytes)};
  const cost::KernelCost c = cost::predict(shape, hw.gpu, sms, cost::default_params());
  nlohmann::ordered_json j{
      {"schema_version", 1}, {"hardware", hw.name}, {"class", o.kind}, {"dtype", o.dtype}};
  j.update(cost_json(c));
  j["waves"] = c.waves;
  j["fitted"] =
      "GEMM efficiencies fitted to models/calibration/h200/h200_gemm.json; see "
      "models/cost/kernel_cost.cpp for every parameter's source";
  write_figures(j, o.format, out);
}

}  // namespace codesim::cli
