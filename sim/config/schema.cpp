// The scenario fields. Defaults live here and only here.
#include "sim/config/schema.hpp"

#include <algorithm>
#include <limits>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "models/llm/config_json.hpp"
#include "sim/core/text.hpp"

namespace codesim::config {
namespace {

struct FieldInfo {
  std::string doc;
  DefaultKind default_kind = DefaultKind::value;
  std::string default_text;
  std::string preset_source;
  std::optional<double> min;
  bool min_exclusive = false;
  std::optional<double> max;
};

FieldInfo with_default(std::string text, std::string doc) {
  return {.doc = std::move(doc), .default_text = std::move(text)};
}
FieldInfo from_preset(std::string source, std::string doc) {
  return {.doc = std::move(doc),
          .default_kind = DefaultKind::preset,
          .preset_source = std::move(source)};
}
FieldInfo derived(std::string how, std::string doc) {
  return {
      .doc = std::move(doc), .default_kind = DefaultKind::derived, .default_text = std::move(how)};
}
FieldInfo optional_field(std::string doc) {
  return {.doc = std::move(doc), .default_kind = DefaultKind::empty};
}
FieldInfo at_least(FieldInfo f, double min) {
  f.min = min;
  return f;
}
FieldInfo positive(FieldInfo f) {
  f.min = 0;
  f.min_exclusive = true;
  return f;
}
FieldInfo between(FieldInfo f, double min, double max) {
  f.min = min;
  f.max = max;
  return f;
}

// A model fills model.spec and the defaults that come from it.
void apply_model(Scenario& s, llm::LlmSpec spec) {
  s.routing.node_limit = spec.moe ? spec.moe->limited_groups : 1;
  s.model.spec = std::move(spec);
}

template <class T>
std::vector<std::string> choices_for() {
  if constexpr (NamedEnum<T>) {
    return choice_names<T>();
  } else if constexpr (requires { typename T::value_type; } && !std::is_same_v<T, std::string>) {
    if constexpr (NamedEnum<typename T::value_type>) {
      return choice_names<typename T::value_type>();
    }
  }
  return {};
}

// A field bound to a Scenario member through `access`, a generic lambda returning a reference.
template <class Access>
FieldSpec field(std::string path, Access access, FieldInfo info) {
  using T = std::remove_cvref_t<decltype(access(std::declval<Scenario&>()))>;
  FieldSpec f;
  f.path = std::move(path);
  f.type = Codec<T>::type;
  if constexpr (IsQuantity<T>::value) {
    f.dimension = dimension_of<T>();
  }
  f.choices = choices_for<T>();
  f.default_kind = info.default_kind;
  f.default_text = std::move(info.default_text);
  f.preset_source = std::move(info.preset_source);
  f.min = info.min;
  f.min_exclusive = info.min_exclusive;
  f.max = info.max;
  f.doc = std::move(info.doc);
  f.set = [access](Scenario& s, const Value& v) { access(s) = Codec<T>::from(v); };
  f.get = [access](const Scenario& s) { return Codec<T>::to(access(s)); };
  return f;
}

#define MEMBER(expr)     \
  [](auto& s) -> auto& { \
    return s.expr;       \
  }

std::vector<FieldSpec> build_schema() {
  std::vector<FieldSpec> f;

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
  f.push_back(field(
      "hardware.nvlink_nominal_bandwidth", MEMBER(hardware.spec.scale_up.nominal_bandwidth),
      positive(from_preset(hw, "NVLink line rate per GPU per direction (reports, ISCA's bound)."))));
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

  // --- topology
  f.push_back(field("topology.family", MEMBER(topology.network.family),
                    with_default("node",
                                 "Network family joining the nodes (a node is one NVLink domain: "
                                 "hardware.gpus_per_node GPUs, 72 for gb200).")));
  f.push_back(field(
      "topology.planes", MEMBER(topology.network.planes),
      between(with_default("1", "Network planes (mpft: one per GPU index of a node)."), 1, 64)));
  f.push_back(
      field("topology.switch_radix", MEMBER(topology.network.radix),
            between(with_default("64", "Ports per switch (fat trees, mrft, mpft)."), 4, 1024)));
  f.push_back(
      field("topology.slimfly_q", MEMBER(topology.network.slimfly_q),
            at_least(with_default("0", "Slim Fly MMS parameter q, a prime: 2q^2 routers."), 0)));
  f.push_back(field(
      "topology.endpoints_per_router", MEMBER(topology.network.endpoints_per_router),
      at_least(with_default("0", "Slim Fly and Dragonfly: endpoints (NICs) per router, p."), 0)));
  f.push_back(field("topology.dragonfly_a", MEMBER(topology.network.dragonfly_a),
                    at_least(with_default("0", "Dragonfly: routers per group, a."), 0)));
  f.push_back(field("topology.dragonfly_h", MEMBER(topology.network.dragonfly_h),
                    at_least(with_default("0", "Dragonfly: global links per router, h."), 0)));
  f.push_back(field("topology.dragonfly_groups", MEMBER(topology.network.dragonfly_groups),
                    at_least(with_default("0", "Dragonfly: groups, at most a x h + 1."), 0)));
  f.push_back(field("topology.oversubscription", MEMBER(topology.network.oversubscription),
                    at_least(with_default("1",
                                          "Fat trees: 1:R at the top tier (a two-layer tree's "
                                          "leaf uplinks, ft3's aggregation-to-core uplinks; "
                                          "Llama 3's cluster: 7); 1 is full bisection."),
                             1)));
  f.push_back(field("topology.plane_crossing", MEMBER(topology.network.plane_crossing),
                    with_default("at-source",
                                 "mpft: where a packet for another GPU index crosses NVLink "
                                 "to the right plane, on the sending or the receiving node.")));
  f.push_back(field("topology.switch_latency", MEMBER(topology.switch_latency),
                    at_least(with_default("0.45us",
                                          "Latency added per switch-to-switch link; default from "
                                          "DeepSeek's IB latencies, (3.7us cross-leaf - 2.8us "
                                          "same-leaf) / 2."),
                             0)));
  f.push_back(field("topology.routing", MEMBER(topology.path_selection),
                    with_default("ecmp-hash",
                                 "How flows pick their paths: ecmp-hash or static (one minimal "
                                 "path per flow), spread (adaptive routing: evenly over the "
                                 "minimal paths), valiant or ugal (slimfly and dragonfly: through "
                                 "a random intermediate router, or the share of that detour that "
                                 "unloads the busiest link).")));
  f.push_back(field("topology.failed_planes", MEMBER(topology.failed_planes),
                    optional_field("Indices of planes taken out of service.")));

  // --- cost: unit prices, defaults (and how they were fitted) in topologies/cost.hpp
  const topologies::UnitPrices prices;
  f.push_back(field(
      "cost.switch_usd", MEMBER(cost.switch_usd),
      at_least(with_default(core::format_number(prices.switch_usd), "Price of one switch, USD."),
               0)));
  f.push_back(field("cost.switch_link_usd", MEMBER(cost.switch_link_usd),
                    at_least(with_default(core::format_number(prices.switch_link_usd),
                                          "Switch-to-switch link with its transceivers, USD."),
                             0)));
  f.push_back(field("cost.endpoint_link_usd", MEMBER(cost.endpoint_link_usd),
                    at_least(with_default(core::format_number(prices.endpoint_link_usd),
                                          "NIC-to-switch link with its transceivers, USD."),
                             0)));
  f.push_back(
      field("cost.nic_usd", MEMBER(cost.nic_usd),
            at_least(with_default(core::format_number(prices.nic_usd), "One NIC, USD."), 0)));

  // --- parallelism
  f.push_back(field("parallelism.pp", MEMBER(parallelism.pp),
                    between(with_default("1", "Pipeline-parallel stages."), 1, 1024)));
  f.push_back(field(
      "parallelism.ep", MEMBER(parallelism.ep),
      between(with_default("1", "Expert-parallel group size (GPUs sharing one layer's experts)."),
              1, 1'000'000)));
  f.push_back(field("parallelism.tp", MEMBER(parallelism.tp),
                    between(with_default("1", "Tensor-parallel degree."), 1, 1024)));
  f.push_back(
      field("parallelism.dp", MEMBER(parallelism.dp),
            between(derived("GPUs / (pp x tp x cp)", "Data-parallel replicas per stage."), 1,
                    1'000'000)));
  f.back().derive = [](const Scenario& s) {
    // pp or tp is 0 when it failed to decode (that error is reported): derive as if 1.
    const int per_replica = std::max(1, s.parallelism.pp) * std::max(1, s.parallelism.tp) *
                            std::max(1, s.parallelism.cp);
    return Value(std::int64_t{s.gpus() / per_replica});
  };
  f.push_back(field(
      "parallelism.cp", MEMBER(parallelism.cp),
      between(with_default("1", "Context parallelism: each sequence's tokens over this many GPUs "
                                "(in 2 x cp chunks for causal balance), K and V all-gathered per "
                                "layer in forward, their gradients reduce-scattered in backward."),
              1, 1024)));
  f.push_back(field("parallelism.sp", MEMBER(parallelism.sp),
                    with_default("true", "Megatron sequence parallelism with tp > 1: norms and "
                                         "the routed experts' tokens split over the TP group, an "
                                         "all-gather and a reduce-scatter per TP region "
                                         "(without it, one all-reduce).")));
  f.push_back(field("parallelism.tp_overlap", MEMBER(parallelism.tp_overlap),
                    with_default("false", "Hide the TP collectives under the GEMMs (as recent "
                                          "frameworks overlap them); they still load the links.")));
  f.push_back(field(
      "parallelism.zero", MEMBER(parallelism.zero),
      between(with_default("1", "ZeRO stage over data parallelism: 1 shards the optimizer state, "
                                "2 the gradients too, 3 the parameters too (gathered per layer "
                                "before its forward and backward)."),
              1, 3)));

  // --- schedule
  f.push_back(field("schedule.method", MEMBER(schedule.method),
                    with_default("1f1b", "Pipeline schedule.")));
  f.push_back(field(
      "schedule.virtual_stages", MEMBER(schedule.virtual_stages),
      between(with_default("1", "Stages per pipeline rank of interleaved-1f1b (Megatron's "
                                "virtual pipeline stages); 1 for the other methods."),
              1, 1024)));
  f.push_back(field("schedule.micro_batch_sequences", MEMBER(schedule.micro_batch_sequences),
                    between(with_default("1", "Sequences per micro-batch per data-parallel rank."),
                            1, 1'000'000)));

  // --- workload
  f.push_back(field("workload.kind", MEMBER(workload.kind),
                    with_default("train", "What step is simulated.")));
  f.push_back(field("workload.seq_len", MEMBER(workload.seq_len),
                    between(with_default("4096", "Tokens per sequence."), 1, 10'000'000)));
  f.push_back(field("workload.global_batch_sequences", MEMBER(workload.global_batch_sequences),
                    between(derived("dp x micro_batch_sequences",
                                    "Sequences per optimizer step, over all data-parallel ranks."),
                            1, 1'000'000'000)));
  f.back().derive = [](const Scenario& s) {
    return Value(std::int64_t{s.parallelism.dp} * s.schedule.micro_batch_sequences);
  };
  f.push_back(field(
      "workload.recompute", MEMBER(workload.recompute),
      with_default("none", "Activation recomputation: none, selective (the attention core's "
                           "scores, which a fused attention backward recomputes anyway) or full "
                           "(every layer's forward again before its backward; layer inputs kept).")));
  f.push_back(field("workload.precision.gemm", MEMBER(workload.precision.gemm),
                    with_default("fp8", "Precision of the GEMMs that DeepSeek runs in FP8.")));
  f.push_back(field("workload.precision.dispatch", MEMBER(workload.precision.dispatch),
                    with_default("fp8", "Payload format of expert dispatch.")));
  f.push_back(field("workload.precision.combine", MEMBER(workload.precision.combine),
                    with_default("bf16", "Payload format of expert combine.")));

  // --- routing
  f.push_back(field("routing.node_limit", MEMBER(routing.node_limit),
                    between(from_preset("model",
                                        "M: at most M nodes (expert groups) per token; the model's "
                                        "limited-group count by default."),
                            1, 1024)));
  f.push_back(
      field("routing.dispatch", MEMBER(routing.dispatch),
            with_default("deepep-normal", "Expert-parallel dispatch and combine algorithm.")));
  f.push_back(
      field("routing.balance", MEMBER(routing.balance),
            with_default("bias", "Expert load balancing: none, aux-loss-free bias, or perfect.")));
  f.push_back(field(
      "routing.skew.zipf", MEMBER(routing.skew.zipf),
      between(with_default(
                  "0", "Zipf exponent of topic popularity in the synthetic tokens (0 = uniform)."),
              0, 10)));
  f.push_back(
      field("routing.skew.topics", MEMBER(routing.skew.topics),
            between(with_default("1", "Topic clusters in the synthetic tokens."), 1, 1'000'000)));
  f.push_back(
      field("routing.seed", MEMBER(routing.seed),
            at_least(with_default("1", "Seed of the synthetic tokens and gate weights."), 0)));
  f.push_back(field("routing.plans", MEMBER(routing.plans),
                    between(with_default("4",
                                         "Routing plans per step (token samples through one "
                                         "balanced gate); layers and micro-batches take them in "
                                         "turn."),
                            1, 64)));
  f.push_back(field("routing.sample_tokens", MEMBER(routing.sample_tokens),
                    between(with_default("1024",
                                         "Tokens per GPU each plan routes; its bytes are scaled "
                                         "to the micro-batch's tokens."),
                            8, 1'000'000)));
  f.push_back(field("routing.balance_steps", MEMBER(routing.balance_steps),
                    between(with_default("100",
                                         "Bias-balancing steps before routing when balance is "
                                         "bias or perfect."),
                            0, 100'000)));

  // --- inference
  f.push_back(field("inference.mode", MEMBER(inference.mode),
                    with_default("model",
                                 "model: the simulator's full model (compute, latencies, overlap); "
                                 "bound: DeepSeek's ISCA 2.3.2 upper bound, communication only.")));
  f.push_back(field("inference.micro_batches", MEMBER(inference.micro_batches),
                    between(with_default("2",
                                         "Micro-batches overlapped in a prefill or decode "
                                         "step (one's attention under the other's "
                                         "dispatch, MoE and combine)."),
                            1, 16)));
  f.push_back(field("inference.prompt_tokens_per_gpu", MEMBER(inference.prompt_tokens_per_gpu),
                    between(with_default("16384",
                                         "Prefill: prompt tokens each GPU computes per "
                                         "step, over all its micro-batches."),
                            1, 100'000'000)));
  f.push_back(field("inference.requests_per_gpu", MEMBER(inference.requests_per_gpu),
                    between(with_default("64",
                                         "Decode: requests each GPU decodes per step (one "
                                         "token each), over all its micro-batches."),
                            1, 1'000'000)));
  f.push_back(field(
      "inference.context_len", MEMBER(inference.context_len),
      between(with_default("4096", "Decode: tokens in each request's KV cache."), 1, 10'000'000)));
  f.push_back(field("inference.redundant_experts", MEMBER(inference.redundant_experts),
                    between(with_default("0",
                                         "EPLB: replicas of the busiest experts added to the "
                                         "EP group (DeepSeek prefill 32, decode 64)."),
                            0, 1'000'000)));
  f.push_back(field("inference.shared_expert_routed", MEMBER(inference.shared_expert_routed),
                    with_default("false",
                                 "Decode: the shared expert counts as one more routed "
                                 "expert (9 per token for DeepSeek-V3).")));
  f.push_back(field("inference.mtp", MEMBER(inference.mtp),
                    with_default("false",
                                 "Decode: multi-token prediction drafts one extra token "
                                 "per step (speculative decoding).")));
  f.push_back(field("inference.mtp_acceptance", MEMBER(inference.mtp_acceptance),
                    between(with_default("0.85",
                                         "Decode with mtp: how often the drafted token "
                                         "is accepted (DeepSeek: 0.80 to 0.90)."),
                            0, 1)));
  f.push_back(field("inference.bound_hidden", MEMBER(inference.bound_hidden),
                    between(with_default("0",
                                         "Bound mode: channels per token on the wire; 0 = "
                                         "the model's hidden size (the paper's '7K' is "
                                         "7000)."),
                            0, 1'000'000)));

  return f;
}

#undef MEMBER

}  // namespace

const std::vector<FieldSpec>& scenario_schema() {
  static const std::vector<FieldSpec> schema = build_schema();  // immutable after first use
  return schema;
}

std::vector<std::string> field_paths() {
  std::vector<std::string> paths;
  for (const auto& f : scenario_schema()) {
    paths.push_back(f.path);
  }
  return paths;
}

const FieldSpec* find_field(std::string_view path) {
  const auto& all = scenario_schema();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const auto& f) { return f.path == path; });
  return it == all.end() ? nullptr : &*it;
}

bool is_section(std::string_view path) {
  const std::string prefix = std::string(path) + ".";
  return std::any_of(scenario_schema().begin(), scenario_schema().end(),
                     [&](const auto& f) { return f.path.starts_with(prefix); });
}

std::vector<std::string> children_of(std::string_view section) {
  const std::string prefix = section.empty() ? "" : std::string(section) + ".";
  std::vector<std::string> names;
  for (const auto& f : scenario_schema()) {
    if (!f.path.starts_with(prefix)) {
      continue;
    }
    const std::string rest = f.path.substr(prefix.size());
    const std::string child = rest.substr(0, rest.find('.'));
    if (std::find(names.begin(), names.end(), child) == names.end()) {
      names.push_back(child);
    }
  }
  return names;
}

std::string type_description(const FieldSpec& f) {
  switch (f.type) {
    case FieldType::integer:
      return "integer";
    case FieldType::real:
      return "number";
    case FieldType::boolean:
      return "true or false";
    case FieldType::string:
      return "text";
    case FieldType::path:
      return "file path";
    case FieldType::quantity:
      return std::string(core::dimension_noun(f.dimension));
    case FieldType::integer_list:
      return "list of integers";
    case FieldType::choice:
      return "one of: " + core::join(f.choices, ", ");
    case FieldType::choice_list:
      return "list of: " + core::join(f.choices, ", ");
  }
  return "";
}

}  // namespace codesim::config
