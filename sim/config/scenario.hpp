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
#include "sim/workload/inference_step_spec.hpp"
#include "sim/workload/optimizer_update.hpp"
#include "sim/workload/parallelism_spec.hpp"
#include "sim/workload/routing_spec.hpp"
#include "sim/workload/schedule_spec.hpp"
#include "sim/workload/software_spec.hpp"
#include "sim/workload/step_power.hpp"
#include "sim/workload/training_state.hpp"
#include "sim/workload/workload_spec.hpp"
#include "topologies/cost.hpp"
#include "topologies/family.hpp"
#include "topologies/topology_spec.hpp"

namespace codesim::config {

using workload::ScheduleMethod;
using DispatchMode = workload::EpMode;
using workload::Balance;
using workload::GemmPrecision;
using workload::StatePrecision;
using workload::WirePrecision;
using workload::WorkloadKind;

using topologies::Fabric;
using topologies::PathSelection;

// Spelling of each enum value in scenario files: EnumNames<E>::values, from `spellings(E)`
// beside the enum in its module (core/parameter.hpp).
template <class E>
struct EnumNames;
template <class E>
requires requires(E e) {
  spellings(e);
}
struct EnumNames<E> {
  static inline const auto& values = spellings(E{});
};

template <class E>
std::string_view enum_name(E e) {
  for (const auto& [value, name] : EnumNames<E>::values) {
    if (value == e) {
      return name;
    }
  }
  return "?";
}

// Config's own sections (the model and hardware presets): their defaults are the schema table's
// (schema_system_fields.cpp), set by the loader, and nowhere else:
// members start value-initialized. The other members of a Scenario are the modules' own specs,
// whose defaults the modules declare beside them (<module>/parameters.hpp).
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
  workload::FacilityPower facility;   // watts of what is not a GPU (a step's energy)
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
  topologies::TopologySpec topology;
  topologies::UnitPrices cost;
  workload::ParallelismSpec parallelism;
  workload::ScheduleSpec schedule;
  workload::WorkloadSpec workload;
  workload::RoutingSpec routing;
  workload::InferenceStepSpec inference;
  workload::SoftwareSpec software;
  serve::ServeSpec serve;
  campaign::CampaignSpec campaign;
  VariabilitySection variability;

  int gpus() const { return hardware.nodes * hardware.spec.gpus_per_node; }
  // An MoE model whose experts are spread over more than one GPU (dispatch and combine run).
  bool expert_parallel() const { return model.spec.moe.has_value() && parallelism.ep > 1; }
};

}  // namespace codesim::config
