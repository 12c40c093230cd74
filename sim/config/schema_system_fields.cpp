// The scenario fields of the system: the file's own, model, hardware, topology, cost.
#include <algorithm>
#include <limits>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "models/llm/config_json.hpp"
#include "sim/config/schema_field.hpp"
#include "sim/core/text.hpp"
#include "sim/workload/parameters.hpp"
#include "topologies/parameters.hpp"

namespace codesim::config::schema_fields {
namespace {

// A model fills model.spec and the defaults that come from it.
void apply_model(Scenario& s, llm::LlmSpec spec) {
  s.routing.node_limit = spec.moe ? spec.moe->limited_groups : 1;
  s.model.spec = std::move(spec);
}

}  // namespace

void add_system_fields(std::vector<FieldSpec>& f) {
  f.push_back(
      field("name", MEMBER(name), optional_field("Scenario name; defaults to the file's stem.")));
  f.push_back(field("description", MEMBER(description), optional_field("One line for reports.")));
  {
    FieldSpec include = field("include", MEMBER(name),
                              optional_field("Preset file(s) loaded first, relative to this file; "
                                             "this file's keys override theirs."));
    include.type = FieldType::path;
    include.set = [](Scenario&, const Value&) {};  // applied while reading the YAML
    include.get = [](const Scenario&) { return Value(std::string()); };
    f.push_back(std::move(include));
  }

  // --- model
  {
    FieldSpec preset = field("model.preset", MEMBER(model.preset),
                             optional_field("Model from the catalog (give this or model.config)."));
    preset.type = FieldType::choice;
    preset.choices = llm::preset_names();
    preset.set = [](Scenario& s, const Value& v) {
      s.model.preset = std::get<std::string>(v);
      apply_model(s, *llm::find_preset(s.model.preset));
    };
    f.push_back(std::move(preset));
    FieldSpec config =
        field("model.config", MEMBER(model.config),
              optional_field(
                  "Model config JSON, DeepSeek or Hugging Face format, relative to this file."));
    config.type = FieldType::path;
    config.set = [](Scenario& s, const Value& v) {
      s.model.config = std::get<std::string>(v);
      apply_model(s, llm::load_model_config(s.model.config));
    };
    f.push_back(std::move(config));
  }
  f.push_back(field(
      "model.mtp_depth", MEMBER(model.spec.mtp_depth),
      between(
          from_preset("model",
                      "Multi-token-prediction modules trained with the model (DeepSeek-V3: 1)."),
          0, 8)));

  // --- hardware
  {
    FieldSpec gpu =
        field("hardware.gpu", MEMBER(hardware.preset),
              with_default("h800",
                           "GPU and node preset; every hardware field below overrides it. "
                           "'custom' starts from nothing: every hardware field must be given."));
    gpu.type = FieldType::choice;
    gpu.choices = hardware::preset_names();
    gpu.choices.emplace_back(kCustomHardware);
    gpu.set = [](Scenario& s, const Value& v) {
      s.hardware.preset = std::get<std::string>(v);
      s.hardware.spec = s.hardware.preset == kCustomHardware
                            ? hardware::HardwareSpec{.name = kCustomHardware,
                                                     .comm = hardware::measured_library_costs()}
                            : *hardware::find_preset(s.hardware.preset);
    };
    f.push_back(std::move(gpu));
  }
  const std::string hw = "hardware.gpu";
  f.push_back(field("hardware.nodes", MEMBER(hardware.nodes),
                    between(with_default("1", "Number of nodes."), 1, 1'000'000)));
  f.push_back(field("hardware.gpus_per_node", MEMBER(hardware.spec.gpus_per_node),
                    between(from_preset(hw, "GPUs per node (one NVLink domain)."), 1, 1024)));
  f.push_back(field("hardware.sms", MEMBER(hardware.spec.gpu.sms),
                    between(from_preset(hw, "Streaming multiprocessors per GPU."), 1, 10'000)));
  f.push_back(field("hardware.comm_sms", MEMBER(hardware.comm_sms),
                    at_least(with_default("20",
                                          "SMs held by communication kernels while they overlap "
                                          "compute (DeepSeek-V3 training: 20 of 132)."),
                             0)));
  f.push_back(field("hardware.sm_copy_rate", MEMBER(hardware.sm_copy_rate),
                    positive(with_default("8GBps",
                                          "Bytes per second one communication SM sends: a GPU's "
                                          "expert-parallel traffic is capped at comm_sms x this. "
                                          "An assumption, not a measurement: 20 SMs then send "
                                          "160 GB/s, the H800's NVLink."))));
  f.push_back(
      field("hardware.bf16_peak", MEMBER(hardware.spec.gpu.bf16_peak),
            positive(from_preset(hw, "Dense BF16 tensor-core peak per GPU (the MFU reference)."))));
  f.push_back(field("hardware.fp8_peak", MEMBER(hardware.spec.gpu.fp8_peak),
                    positive(from_preset(hw, "Dense FP8 tensor-core peak per GPU."))));
  f.push_back(field("hardware.hbm_capacity", MEMBER(hardware.spec.gpu.hbm_capacity),
                    positive(from_preset(hw, "HBM per GPU."))));
  f.push_back(field("hardware.hbm_bandwidth", MEMBER(hardware.spec.gpu.hbm_bandwidth),
                    positive(from_preset(hw, "HBM bandwidth per GPU."))));
  f.push_back(
      field("hardware.nvlink_bandwidth", MEMBER(hardware.spec.scale_up.bandwidth),
            positive(from_preset(hw, "Achievable NVLink bandwidth per GPU per direction."))));
  f.push_back(field("hardware.nvlink_nominal_bandwidth",
                    MEMBER(hardware.spec.scale_up.nominal_bandwidth),
                    positive(from_preset(
                        hw, "NVLink line rate per GPU per direction (reports, ISCA's bound)."))));
  f.push_back(field("hardware.nvlink_latency", MEMBER(hardware.spec.scale_up.latency),
                    at_least(from_preset(hw, "NVLink end-to-end latency of a small message."), 0)));
  f.push_back(field("hardware.nic_bandwidth", MEMBER(hardware.spec.nic.bandwidth),
                    positive(from_preset(
                        hw, "Scale-out NIC bandwidth per GPU per direction (400Gbps = 50GBps)."))));
  f.push_back(field("hardware.nic_nominal_bandwidth", MEMBER(hardware.spec.nic.nominal_bandwidth),
                    positive(from_preset(hw, "NIC line rate per direction (ISCA's bound)."))));
  f.push_back(field("hardware.nic_small_message_efficiency",
                    MEMBER(hardware.spec.nic.small_message_efficiency),
                    between(from_preset(hw,
                                        "Fraction of the NIC bandwidth that DeepEP's low-latency "
                                        "messages (a few KB each) reach."),
                            0.01, 1)));
  f.push_back(field("hardware.nic_latency", MEMBER(hardware.spec.nic.latency_same_leaf),
                    at_least(from_preset(hw, "NIC-to-NIC latency through one leaf switch."), 0)));
  f.push_back(field("hardware.nic_latency_cross_leaf", MEMBER(hardware.spec.nic.latency_cross_leaf),
                    at_least(from_preset(hw, "NIC-to-NIC latency across the spine."), 0)));
  f.push_back(field("hardware.pcie_bandwidth", MEMBER(hardware.spec.pcie_bandwidth),
                    positive(from_preset(hw, "GPU-to-NIC PCIe bandwidth per direction."))));
  f.push_back(field("hardware.power_limit", MEMBER(hardware.spec.gpu.power.limit_w),
                    between(derived("the GPU preset's TDP; 0 for a custom GPU",
                                    "Board power limit per GPU, watts: the SM clock is the "
                                    "highest it sustains (docs/model/power.md); 0: no power "
                                    "model (the top clock)."),
                            0, 10'000)));
  f.back().derive = [](const Scenario& s) { return Value(s.hardware.spec.gpu.power.tdp_w); };
  add_declared(f, "hardware.", MEMBER(hardware.facility),
               [](auto&& declare) { workload::declare_facility_parameters(declare); });

  // --- topology
  add_declared(f, "topology.", MEMBER(topology),
               [](auto&& declare) { topologies::declare_parameters(declare); });

  // --- cost: unit prices, defaults (and how they were fitted) in topologies/cost.hpp
  add_declared(f, "cost.", MEMBER(cost),
               [](auto&& declare) { topologies::declare_cost_parameters(declare); });
}

}  // namespace codesim::config::schema_fields
