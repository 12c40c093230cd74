// The typed scenario: what a scenario YAML says once loaded, presets applied and checked.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/core/units.hpp"
#include "topologies/cost.hpp"
#include "topologies/network_spec.hpp"

namespace codesim::config {

enum class PathSelection { ecmp_hash, spread, fixed };
enum class ScheduleMethod { one_f_one_b, zb1p, dualpipe, dualpipev };
enum class WorkloadKind { train, prefill, decode };
enum class GemmPrecision { bf16, fp8 };
enum class WirePrecision { bf16, fp8, logfmt8, logfmt10 };
enum class DispatchMode { deepep_normal, direct, deepep_low_latency };
enum class Balance { none, bias, perfect };
enum class OutputFormat { table, json, csv, md, html };
enum class InferenceMode { model, bound };

// Spelling of each enum value in scenario files: EnumNames<E>::values.
template <class E>
struct EnumNames;

#define CODESIM_ENUM_NAMES(E, ...)                      \
  template <>                                           \
  struct EnumNames<E> {                                 \
    static constexpr std::array values = {__VA_ARGS__}; \
  };

CODESIM_ENUM_NAMES(topologies::Family,
                   std::pair{topologies::Family::node, std::string_view("node")},
                   std::pair{topologies::Family::ft2, std::string_view("ft2")},
                   std::pair{topologies::Family::ft3, std::string_view("ft3")},
                   std::pair{topologies::Family::mrft, std::string_view("mrft")},
                   std::pair{topologies::Family::mpft, std::string_view("mpft")},
                   std::pair{topologies::Family::slimfly, std::string_view("slimfly")},
                   std::pair{topologies::Family::dragonfly, std::string_view("dragonfly")})
CODESIM_ENUM_NAMES(topologies::PlaneCrossing,
                   std::pair{topologies::PlaneCrossing::at_source, std::string_view("at-source")},
                   std::pair{topologies::PlaneCrossing::at_destination,
                             std::string_view("at-destination")})
CODESIM_ENUM_NAMES(PathSelection,
                   std::pair{PathSelection::ecmp_hash, std::string_view("ecmp-hash")},
                   std::pair{PathSelection::spread, std::string_view("spread")},
                   std::pair{PathSelection::fixed, std::string_view("static")})
CODESIM_ENUM_NAMES(ScheduleMethod, std::pair{ScheduleMethod::one_f_one_b, std::string_view("1f1b")},
                   std::pair{ScheduleMethod::zb1p, std::string_view("zb1p")},
                   std::pair{ScheduleMethod::dualpipe, std::string_view("dualpipe")},
                   std::pair{ScheduleMethod::dualpipev, std::string_view("dualpipev")})
CODESIM_ENUM_NAMES(WorkloadKind, std::pair{WorkloadKind::train, std::string_view("train")},
                   std::pair{WorkloadKind::prefill, std::string_view("prefill")},
                   std::pair{WorkloadKind::decode, std::string_view("decode")})
CODESIM_ENUM_NAMES(InferenceMode, std::pair{InferenceMode::model, std::string_view("model")},
                   std::pair{InferenceMode::bound, std::string_view("bound")})
CODESIM_ENUM_NAMES(GemmPrecision, std::pair{GemmPrecision::bf16, std::string_view("bf16")},
                   std::pair{GemmPrecision::fp8, std::string_view("fp8")})
CODESIM_ENUM_NAMES(WirePrecision, std::pair{WirePrecision::bf16, std::string_view("bf16")},
                   std::pair{WirePrecision::fp8, std::string_view("fp8")},
                   std::pair{WirePrecision::logfmt8, std::string_view("logfmt8")},
                   std::pair{WirePrecision::logfmt10, std::string_view("logfmt10")})
CODESIM_ENUM_NAMES(DispatchMode,
                   std::pair{DispatchMode::deepep_normal, std::string_view("deepep-normal")},
                   std::pair{DispatchMode::direct, std::string_view("direct")},
                   std::pair{DispatchMode::deepep_low_latency,
                             std::string_view("deepep-low-latency")})
CODESIM_ENUM_NAMES(Balance, std::pair{Balance::none, std::string_view("none")},
                   std::pair{Balance::bias, std::string_view("bias")},
                   std::pair{Balance::perfect, std::string_view("perfect")})
CODESIM_ENUM_NAMES(OutputFormat, std::pair{OutputFormat::table, std::string_view("table")},
                   std::pair{OutputFormat::json, std::string_view("json")},
                   std::pair{OutputFormat::csv, std::string_view("csv")},
                   std::pair{OutputFormat::md, std::string_view("md")},
                   std::pair{OutputFormat::html, std::string_view("html")})
#undef CODESIM_ENUM_NAMES

template <class E>
std::string_view enum_name(E e) {
  for (const auto& [value, name] : EnumNames<E>::values) {
    if (value == e) {
      return name;
    }
  }
  return "?";
}

struct ModelSection {
  std::string preset;  // catalog name, or empty when `config` is given
  std::string config;  // model config JSON path, resolved against the scenario file
  llm::LlmSpec spec;   // the resolved model
};

struct HardwareSection {
  std::string preset;
  hardware::HardwareSpec spec;  // the preset with the scenario's overrides applied
  int nodes = 0;
  int comm_sms = 0;  // SMs held by communication kernels while they overlap compute
  core::BytesPerSecond sm_copy_rate;  // what one such SM sends per second
};

struct TopologySection {
  topologies::NetworkSpec network;
  core::Seconds switch_latency;  // per switch-to-switch link
  PathSelection path_selection = PathSelection::ecmp_hash;
  std::vector<int> failed_planes;
};

struct ParallelismSection {
  int pp = 1;
  int ep = 1;
  int dp = 1;
  int tp = 1;
};

struct ScheduleSection {
  ScheduleMethod method = ScheduleMethod::one_f_one_b;
  int micro_batch_sequences = 1;
};

struct PrecisionSection {
  GemmPrecision gemm = GemmPrecision::fp8;
  WirePrecision dispatch = WirePrecision::fp8;
  WirePrecision combine = WirePrecision::bf16;
};

struct WorkloadSection {
  WorkloadKind kind = WorkloadKind::train;
  int seq_len = 4096;
  int global_batch_sequences = 1;
  PrecisionSection precision;
};

struct SkewSection {
  double zipf = 0.0;  // popularity exponent of topic clusters; 0 = uniform
  int topics = 1;
};

struct RoutingSection {
  int node_limit = 4;
  DispatchMode dispatch = DispatchMode::deepep_normal;
  Balance balance = Balance::bias;
  SkewSection skew;
  int seed = 1;
  int plans = 4;             // routing plans per step
  int sample_tokens = 1024;  // per GPU, per plan
  int balance_steps = 100;
};

// Prefill and decode steps (workload.kind prefill | decode).
struct InferenceSection {
  InferenceMode mode = InferenceMode::model;
  int micro_batches = 2;              // overlapped: one's attention under the other's all-to-all
  int prompt_tokens_per_gpu = 16384;  // prefill: prompt tokens each GPU computes per step
  int requests_per_gpu = 64;          // decode: sequences each GPU decodes per step
  int context_len = 4096;             // decode: tokens in each request's KV cache
  int redundant_experts = 0;          // EPLB replicas in the EP group
  bool shared_expert_routed = false;  // decode: the shared expert as one more routed expert
  bool mtp = false;                   // multi-token prediction as a speculative draft
  double mtp_acceptance = 0.85;       // of the drafted token
  int bound_hidden = 0;               // bound mode: channels per token on the wire; 0 = model's
};

struct OutputSection {
  std::vector<OutputFormat> formats;
  std::string dir;
  std::string chrome_trace;  // empty: none
};

struct Scenario {
  std::string source_file;  // the YAML it was loaded from
  std::string name;
  std::string description;
  ModelSection model;
  HardwareSection hardware;
  TopologySection topology;
  topologies::UnitPrices cost;
  ParallelismSection parallelism;
  ScheduleSection schedule;
  WorkloadSection workload;
  RoutingSection routing;
  InferenceSection inference;
  OutputSection output;

  int gpus() const { return hardware.nodes * hardware.spec.gpus_per_node; }
};

}  // namespace codesim::config
