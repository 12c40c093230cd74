// The typed scenario: what a scenario YAML says once loaded, presets applied and checked.
#pragma once

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/hardware/hardware_spec.hpp"
#include "models/llm/llm_spec.hpp"
#include "sim/campaign/campaign_spec.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/serve/serve_spec.hpp"
#include "sim/variability/variability_spec.hpp"
#include "sim/workload/ep_mode.hpp"
#include "sim/workload/inference_kind.hpp"
#include "sim/workload/optimizer_update.hpp"
#include "sim/workload/schedule.hpp"
#include "sim/workload/software_stack.hpp"
#include "sim/workload/training_state.hpp"
#include "topologies/cost.hpp"
#include "topologies/family.hpp"

namespace codesim::config {

using workload::ScheduleMethod;
using DispatchMode = workload::EpMode;

// `automatic`: the fabric's usual routing (InfiniBand: dmodk on fat trees, minhop on router
// networks; RoCE: ecmp-hash).
enum class PathSelection {
  automatic,
  ecmp_hash,
  spread,
  fixed,
  dmodk,
  ftree,
  minhop,
  updn,
  valiant,
  ugal
};
enum class Fabric { infiniband, roce };
enum class WorkloadKind { train, prefill, decode };
enum class GemmPrecision { bf16, fp8 };
enum class WirePrecision { bf16, fp8, logfmt8, logfmt10 };
enum class StatePrecision { bf16, fp32 };
enum class Balance { none, bias, perfect };
using InferenceMode = workload::InferenceMode;

// Spelling of each enum value in scenario files: EnumNames<E>::values. A module names its own
// enum by `spellings(E)` beside it (core/parameter.hpp); config names the others here.
template <class E>
struct EnumNames;
template <class E>
requires requires(E e) {
  spellings(e);
}
struct EnumNames<E> {
  static constexpr const auto& values = spellings(E{});
};

#define CODESIM_ENUM_NAMES(E, ...)                      \
  template <>                                           \
  struct EnumNames<E> {                                 \
    static constexpr std::array values = {__VA_ARGS__}; \
  };

template <>
struct EnumNames<topologies::Family> {
  static inline const auto& values = topologies::family_names();  // the family registry's
};
template <>
struct EnumNames<workload::SoftwareStack> {
  static constexpr const auto& values = workload::kSoftwareStackNames;
};
CODESIM_ENUM_NAMES(topologies::PlaneCrossing,
                   std::pair{topologies::PlaneCrossing::at_source, std::string_view("at-source")},
                   std::pair{topologies::PlaneCrossing::at_destination,
                             std::string_view("at-destination")})
CODESIM_ENUM_NAMES(Fabric, std::pair{Fabric::infiniband, std::string_view("infiniband")},
                   std::pair{Fabric::roce, std::string_view("roce")})
CODESIM_ENUM_NAMES(PathSelection, std::pair{PathSelection::automatic, std::string_view("auto")},
                   std::pair{PathSelection::ecmp_hash, std::string_view("ecmp-hash")},
                   std::pair{PathSelection::spread, std::string_view("spread")},
                   std::pair{PathSelection::fixed, std::string_view("static")},
                   std::pair{PathSelection::dmodk, std::string_view("dmodk")},
                   std::pair{PathSelection::ftree, std::string_view("ftree")},
                   std::pair{PathSelection::minhop, std::string_view("minhop")},
                   std::pair{PathSelection::updn, std::string_view("updn")},
                   std::pair{PathSelection::valiant, std::string_view("valiant")},
                   std::pair{PathSelection::ugal, std::string_view("ugal")})
template <>
struct EnumNames<ScheduleMethod> {
  static constexpr std::array values = workload::kScheduleMethodNames;
};
template <>
struct EnumNames<workload::OptimizerKernels> {
  static constexpr const auto& values = workload::kOptimizerKernelsNames;
};
template <>
struct EnumNames<workload::Recompute> {
  static constexpr std::array values = workload::kRecomputeNames;
};
template <>
struct EnumNames<workload::AttentionKernel> {
  static constexpr std::array values = workload::kAttentionKernelNames;
};
template <>
struct EnumNames<DispatchMode> {
  static constexpr std::array values = workload::kEpModeNames;
};
CODESIM_ENUM_NAMES(WorkloadKind, std::pair{WorkloadKind::train, std::string_view("train")},
                   std::pair{WorkloadKind::prefill, std::string_view("prefill")},
                   std::pair{WorkloadKind::decode, std::string_view("decode")})
template <>
struct EnumNames<InferenceMode> {
  static constexpr const auto& values = workload::kInferenceModeNames;
};
CODESIM_ENUM_NAMES(GemmPrecision, std::pair{GemmPrecision::bf16, std::string_view("bf16")},
                   std::pair{GemmPrecision::fp8, std::string_view("fp8")})
CODESIM_ENUM_NAMES(StatePrecision, std::pair{StatePrecision::bf16, std::string_view("bf16")},
                   std::pair{StatePrecision::fp32, std::string_view("fp32")})
CODESIM_ENUM_NAMES(WirePrecision, std::pair{WirePrecision::bf16, std::string_view("bf16")},
                   std::pair{WirePrecision::fp8, std::string_view("fp8")},
                   std::pair{WirePrecision::logfmt8, std::string_view("logfmt8")},
                   std::pair{WirePrecision::logfmt10, std::string_view("logfmt10")})
CODESIM_ENUM_NAMES(Balance, std::pair{Balance::none, std::string_view("none")},
                   std::pair{Balance::bias, std::string_view("bias")},
                   std::pair{Balance::perfect, std::string_view("perfect")})
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

// The sections hold what the schema decodes; their defaults are the schema table's
// (config/schema.cpp), set by the loader, and nowhere else: members start value-initialized.
struct ModelSection {
  std::string preset;  // catalog name, or empty when `config` is given
  std::string config;  // model config JSON path, resolved against the scenario file
  llm::LlmSpec spec;   // the resolved model
};

struct HardwareSection {
  std::string preset;
  hardware::HardwareSpec spec;  // the preset with the scenario's overrides applied
  int nodes{};
  int comm_sms{};  // SMs held by communication kernels while they overlap compute
  core::BytesPerSecond sm_copy_rate;  // what one such SM sends per second
  // Watts of what is not a GPU (a step's energy): per scale-out NIC, per scale-out switch, per
  // node besides its GPUs and NICs.
  double nic_power_w{};
  double switch_power_w{};
  double host_power_w{};
};

struct TopologySection {
  topologies::NetworkSpec network;
  core::Seconds switch_latency;  // per switch-to-switch link
  Fabric fabric{};
  PathSelection path_selection{};
  std::vector<int> failed_planes;
};

struct ParallelismSection {
  int pp{};
  int ep{};
  int dp{};
  int tp{};
  int zero{};         // ZeRO stage, 0-3
  int cp{};           // context parallelism: each sequence over this many GPUs
  bool sp{};          // sequence parallelism with tp > 1
  bool tp_overlap{};  // TP collectives hidden under the GEMMs
  bool dp_overlap{};  // the gradients' reduction under the backward
};

struct ScheduleSection {
  ScheduleMethod method{};
  int virtual_stages{};  // interleaved-1f1b: stages per pipeline rank
  int micro_batch_sequences{};
};

struct PrecisionSection {
  GemmPrecision gemm{};
  WirePrecision dispatch{};
  WirePrecision combine{};
  // The training state (training_state.hpp): FP32 master weights or not, gradients, moments.
  bool master_weights{};
  StatePrecision gradients{};
  StatePrecision optimizer_states{};
};

struct WorkloadSection {
  WorkloadKind kind{};
  int seq_len{};
  int global_batch_sequences{};
  workload::Recompute recompute{};
  bool dropout{};  // attention-probability and hidden dropout
  PrecisionSection precision;
};

struct SkewSection {
  double zipf{};  // popularity exponent of topic clusters; 0 = uniform
  int topics{};
};

struct RoutingSection {
  int node_limit{};
  DispatchMode dispatch{};
  Balance balance{};
  SkewSection skew;
  int seed{};
  int plans{};          // routing plans per step
  int sample_tokens{};  // per GPU, per plan
  int balance_steps{};
};

// The software stack the step runs on, where it changes what the kernels see.
struct SoftwareSection {
  // Whose kernels the step runs: eager PyTorch, a fused stack (torch.compile's measurements),
  // or DeepSeek's own (its H800 trace); software_stack.hpp.
  workload::SoftwareStack stack = workload::SoftwareStack::fused;
  // The step's kernels replayed from CUDA graphs; without, the host issues each one.
  bool cuda_graphs = false;
  // The framework pads the vocabulary to a multiple of this (Megatron: 128 x TP); the model's
  // vocabulary as the step runs it (model.spec.vocab) is padded when this is decoded.
  int vocab_multiple = 1;
  // How AdamW's update runs: one fused kernel or PyTorch's foreach kernels.
  workload::OptimizerKernels optimizer = workload::OptimizerKernels::fused;
  // Attention's core as one fused kernel, or as Megatron-LM ran it in 2021.
  workload::AttentionKernel attention = workload::AttentionKernel::flash;
};

// Prefill and decode steps (workload.kind prefill | decode).
struct InferenceSection {
  InferenceMode mode{};
  int micro_batches{};          // overlapped: one's attention under the other's all-to-all
  int prompt_tokens_per_gpu{};  // prefill: prompt tokens each GPU computes per step
  int requests_per_gpu{};       // decode: sequences each GPU decodes per step
  int context_len{};            // decode: tokens in each request's KV cache
  int redundant_experts{};      // EPLB replicas in the EP group
  bool shared_expert_routed{};  // decode: the shared expert as one more routed expert
  bool mtp{};                   // multi-token prediction as a speculative draft
  double mtp_acceptance{};      // of the drafted token
  bool sampling{};              // a sampling kernel reads the logits at the step's end
  int bound_hidden{};           // bound mode: channels per token on the wire; 0 = model's
  std::string expert_counts;    // a run's routing, per MoE layer (workload/expert_shares.hpp)
  // That file read when the scenario is loaded: each MoE layer's expert shares (empty: none).
  std::vector<std::vector<double>> expert_shares;
};

// What varies between a training step's GPUs and NICs: the replay's own spec (sim/variability,
// filled directly by the schema), and whether a step runs it.
struct VariabilitySection : variability::VariabilitySpec {
  bool enabled{};  // codesim campaign: on unless the scenario gives it
};

struct Scenario {
  std::string source_file;  // the YAML it was loaded from
  // Where each key written in a file (or set from outside) stands; keys left to their defaults
  // have none.
  std::map<std::string, core::SourceLocation> where;
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
  SoftwareSection software;
  serve::ServeSpec serve;
  campaign::CampaignSpec campaign;
  VariabilitySection variability;

  int gpus() const { return hardware.nodes * hardware.spec.gpus_per_node; }
  // An MoE model whose experts are spread over more than one GPU (dispatch and combine run).
  bool expert_parallel() const { return model.spec.moe.has_value() && parallelism.ep > 1; }
};

}  // namespace codesim::config
