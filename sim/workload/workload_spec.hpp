// What step runs, as a scenario's workload: section gives it: its kind, sequences, recompute,
// dropout and precisions. parameters.hpp declares each key with its doc and default (the
// struct's own; the global batch derived).
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "sim/workload/training_state.hpp"

namespace codesim::workload {

enum class WorkloadKind { train, prefill, decode };
inline constexpr std::array kWorkloadKindNames = {
    std::pair{WorkloadKind::train, std::string_view("train")},
    std::pair{WorkloadKind::prefill, std::string_view("prefill")},
    std::pair{WorkloadKind::decode, std::string_view("decode")}};
constexpr const auto& spellings(WorkloadKind) {
  return kWorkloadKindNames;
}

enum class GemmPrecision { bf16, fp8 };
inline constexpr std::array kGemmPrecisionNames = {
    std::pair{GemmPrecision::bf16, std::string_view("bf16")},
    std::pair{GemmPrecision::fp8, std::string_view("fp8")}};
constexpr const auto& spellings(GemmPrecision) {
  return kGemmPrecisionNames;
}

// Payload formats of expert dispatch and combine.
enum class WirePrecision { bf16, fp8, logfmt8, logfmt10 };
inline constexpr std::array kWirePrecisionNames = {
    std::pair{WirePrecision::bf16, std::string_view("bf16")},
    std::pair{WirePrecision::fp8, std::string_view("fp8")},
    std::pair{WirePrecision::logfmt8, std::string_view("logfmt8")},
    std::pair{WirePrecision::logfmt10, std::string_view("logfmt10")}};
constexpr const auto& spellings(WirePrecision) {
  return kWirePrecisionNames;
}

enum class StatePrecision { bf16, fp32 };
inline constexpr std::array kStatePrecisionNames = {
    std::pair{StatePrecision::bf16, std::string_view("bf16")},
    std::pair{StatePrecision::fp32, std::string_view("fp32")}};
constexpr const auto& spellings(StatePrecision) {
  return kStatePrecisionNames;
}

struct PrecisionSpec {
  GemmPrecision gemm = GemmPrecision::fp8;
  WirePrecision dispatch = WirePrecision::fp8;
  WirePrecision combine = WirePrecision::bf16;
  // The training state (training_state.hpp): FP32 master weights or not, gradients, moments.
  bool master_weights = true;
  StatePrecision gradients = StatePrecision::fp32;
  StatePrecision optimizer_states = StatePrecision::bf16;
};

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::train;
  int seq_len = 4096;
  int global_batch_sequences = 1;  // derived: dp x micro_batch_sequences
  Recompute recompute = Recompute::none;
  bool dropout = false;  // attention-probability and hidden dropout
  PrecisionSpec precision;
};

}  // namespace codesim::workload
