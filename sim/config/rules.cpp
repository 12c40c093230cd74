// Cross-field rules of a scenario: what no single field can check alone.
#include <set>

#include "sim/config/loader.hpp"
#include "sim/config/schema.hpp"
#include "sim/core/text.hpp"

namespace codesim::config {
namespace {

using core::Diagnostic;
using core::SourceLocation;

class Rules {
 public:
  Rules(const Scenario& s, const std::map<std::string, SourceLocation>& where)
      : s_(s), where_(where) {}

  // A problem reported at the first of `keys` written in a file (else at the file).
  void fail(std::initializer_list<std::string> keys, std::string message, std::string hint = {}) {
    SourceLocation loc{s_.source_file, 0, 0};
    for (const auto& k : keys) {
      if (const auto it = where_.find(k); it != where_.end()) {
        loc = it->second;
        break;
      }
    }
    problems_.push_back(Diagnostic{loc, *keys.begin(), std::move(message), std::move(hint)});
  }

  bool written(const std::string& key) const { return where_.contains(key); }
  std::vector<Diagnostic> take() { return std::move(problems_); }
  bool empty() const { return problems_.empty(); }

 private:
  const Scenario& s_;
  const std::map<std::string, SourceLocation>& where_;
  std::vector<Diagnostic> problems_;
};

std::string n(long long v) {
  return std::to_string(v);
}

void check_model(const Scenario& s, Rules& r) {
  if (!s.model.preset.empty() && !s.model.config.empty()) {
    r.fail({"model.config", "model.preset"}, "give model.preset or model.config, not both");
  }
  if (s.model.preset.empty() && s.model.config.empty()) {
    r.fail({"model"}, "no model given",
           "add model: {preset: deepseek-v3} or model: {config: path/to/config.json}");
  }
}

void check_parallelism(const Scenario& s, Rules& r) {
  const auto& p = s.parallelism;
  const long long gpus = static_cast<long long>(s.hardware.nodes) * s.hardware.spec.gpus_per_node;
  const long long ranks = static_cast<long long>(p.pp) * p.dp * p.tp * p.cp;
  const long long replica = static_cast<long long>(p.pp) * p.tp * p.cp;
  if (!r.written("parallelism.dp") && gpus % replica != 0) {
    // dp derived as GPUs / (pp x tp x cp): say what does not divide, not the 0 it rounds to, and
    // blame the first degree that does not divide the GPU count itself.
    std::string culprit = "hardware.nodes";
    for (const auto& [key, degree] :
         {std::pair{"parallelism.tp", p.tp}, std::pair{"parallelism.pp", p.pp},
          std::pair{"parallelism.cp", p.cp}}) {
      if (gpus % degree != 0) {
        culprit = key;
        break;
      }
    }
    r.fail({culprit},
           "pp x tp x cp = " + n(p.pp) + " x " + n(p.tp) + " x " + n(p.cp) + " = " + n(replica) +
               " GPUs per data-parallel replica do not divide the GPU count, nodes x "
               "gpus_per_node = " +
               n(s.hardware.nodes) + " x " + n(s.hardware.spec.gpus_per_node) + " = " + n(gpus));
  } else if (ranks != gpus) {
    r.fail(
        {"parallelism.dp", "parallelism.pp", "parallelism.tp", "parallelism.cp", "hardware.nodes"},
        "pp x dp x tp x cp = " + n(p.pp) + " x " + n(p.dp) + " x " + n(p.tp) + " x " + n(p.cp) +
            " = " + n(ranks) + " must equal the GPU count, nodes x gpus_per_node = " +
            n(s.hardware.nodes) + " x " + n(s.hardware.spec.gpus_per_node) + " = " + n(gpus));
  } else if (gpus % (static_cast<long long>(p.pp) * p.ep) != 0) {
    r.fail({"parallelism.ep", "parallelism.pp"},
           "the GPU count (" + n(gpus) + ") must be divisible by pp x ep = " + n(p.pp) + " x " +
               n(p.ep) + " = " + n(static_cast<long long>(p.pp) * p.ep),
           "each pipeline stage's " + n(p.dp * p.tp * p.cp) +
               " GPUs split into expert-parallel groups of ep");
  }
  const auto& m = s.model.spec;
  const int redundant = s.workload.kind == WorkloadKind::train ? 0 : s.inference.redundant_experts;
  if (m.moe && (m.moe->routed_experts + redundant) % p.ep != 0) {
    r.fail({"parallelism.ep", "inference.redundant_experts"},
           "the model's " + n(m.moe->routed_experts) + " routed experts" +
               (redundant > 0 ? " and " + n(redundant) + " redundant ones" : std::string()) +
               " do not spread evenly over ep = " + n(p.ep) + " GPUs");
  }
  if (!m.moe && p.ep > 1) {
    r.fail({"parallelism.ep"}, "ep must be 1 for a dense model (" + m.name + " has no experts)");
  }
  if (m.heads > 0 && m.heads % p.tp != 0) {
    r.fail({"parallelism.tp"},
           "tp = " + n(p.tp) + " must divide the model's " + n(m.heads) + " attention heads");
  }
  if (m.moe && p.tp > 1 && !p.sp && s.workload.kind == WorkloadKind::train) {
    r.fail({"parallelism.sp", "parallelism.tp"},
           "a MoE model trained with tp > 1 needs sequence parallelism: each GPU of a TP group "
           "dispatches its own share of the tokens to the experts",
           "set parallelism.sp: true (Megatron requires it as well)");
  }
  if (s.software.attention == workload::AttentionKernel::unfused && p.cp > 1) {
    r.fail({"software.attention", "parallelism.cp"},
           "unfused attention computes every query of a sequence against every key on one GPU; "
           "context parallelism (cp = " +
               n(p.cp) + ") splits the queries",
           "use software.attention: flash with context parallelism");
  }
  if (!p.dp_overlap && p.zero >= 2) {
    r.fail({"parallelism.dp_overlap", "parallelism.zero"},
           "ZeRO-" + n(p.zero) +
               " reduce-scatters each micro-batch's gradients as its backward "
               "produces them; they cannot wait for the step's end",
           "use zero 0 or 1, or dp_overlap: true");
  }
  if (m.layers > 0 && p.pp > m.layers) {
    r.fail({"parallelism.pp"},
           "pp = " + n(p.pp) + " exceeds the model's " + n(m.layers) + " layers");
  }
}

void check_hardware(const Scenario& s, const std::map<std::string, SourceLocation>& where,
                    Rules& r) {
  if (s.hardware.preset == kCustomHardware) {
    for (const auto& f : scenario_schema()) {
      if (f.preset_source == "hardware.gpu" && !where.contains(f.path)) {
        r.fail({f.path, "hardware.gpu"}, "missing: a custom GPU has no preset to take it from",
               "give it (" + type_description(f) + ") or start from a preset such as h800");
      }
    }
    if (!r.empty()) {
      return;  // the checks below need every figure
    }
  }
  if (s.hardware.comm_sms >= s.hardware.spec.gpu.sms) {
    r.fail({"hardware.comm_sms", "hardware.sms"}, "comm_sms (" + n(s.hardware.comm_sms) +
                                                      ") must leave SMs for compute: the GPU has " +
                                                      n(s.hardware.spec.gpu.sms));
  }
}

void check_inference(const Scenario& s, Rules& r) {
  const auto& in = s.inference;
  if (!in.expert_counts.empty() && !s.model.spec.moe) {
    r.fail({"inference.expert_counts"}, "the model has no routed experts");
  } else if (!in.expert_counts.empty() && s.parallelism.ep > 1) {
    r.fail({"inference.expert_counts", "parallelism.ep"},
           "a run's routing is priced without expert parallelism (ep " + n(s.parallelism.ep) +
               ": the EP round spreads tokens evenly)",
           "set parallelism.ep: 1, or drop inference.expert_counts");
  }
  if (s.workload.kind == WorkloadKind::decode && in.requests_per_gpu % in.micro_batches != 0) {
    r.fail({"inference.requests_per_gpu", "inference.micro_batches"},
           "requests_per_gpu (" + n(in.requests_per_gpu) + ") must split evenly into " +
               n(in.micro_batches) + " micro-batches");
  }
  if (s.workload.kind != WorkloadKind::prefill) {
    return;
  }
  if (in.prompt_tokens_per_gpu % in.micro_batches != 0) {
    r.fail({"inference.prompt_tokens_per_gpu", "inference.micro_batches"},
           "prompt_tokens_per_gpu (" + n(in.prompt_tokens_per_gpu) + ") must split evenly into " +
               n(in.micro_batches) + " micro-batches");
    return;
  }
  // A TP group's micro-batch is whole prompts (study/step_shape.hpp).
  const long long group_tokens =
      static_cast<long long>(in.prompt_tokens_per_gpu) * s.parallelism.tp / in.micro_batches;
  if (s.workload.seq_len > 0 && group_tokens % s.workload.seq_len != 0) {
    r.fail({"inference.prompt_tokens_per_gpu", "workload.seq_len"},
           "a TP group's micro-batch (prompt_tokens_per_gpu x tp / micro_batches = " +
               n(group_tokens) + " tokens) must be whole prompts of seq_len " +
               n(s.workload.seq_len));
  }
}

void check_workload(const Scenario& s, Rules& r) {
  if (s.workload.precision.gemm == GemmPrecision::fp8 && s.hardware.spec.gpu.fp8_peak.value <= 0) {
    r.fail({"workload.precision.gemm", "hardware.gpu"},
           "the " + s.hardware.spec.name + " has no FP8 tensor cores",
           "use workload.precision.gemm: bf16, or give hardware.fp8_peak for a GPU that has them");
  }
  if (s.workload.kind != WorkloadKind::train) {
    check_inference(s, r);
    return;
  }
  const long long per_step =
      static_cast<long long>(s.parallelism.dp) * s.schedule.micro_batch_sequences;
  // (dp of 0, derived from a parallelism that does not divide, is refused above.)
  if (per_step > 0 && s.workload.global_batch_sequences % per_step != 0) {
    r.fail({"workload.global_batch_sequences", "schedule.micro_batch_sequences", "parallelism.dp"},
           "global_batch_sequences (" + n(s.workload.global_batch_sequences) +
               ") must be a multiple of dp x micro_batch_sequences = " + n(s.parallelism.dp) +
               " x " + n(s.schedule.micro_batch_sequences) + " = " + n(per_step));
  }
}

void check_routing(const Scenario& s, Rules& r) {
  const auto& m = s.model.spec;
  if (m.moe && s.routing.node_limit > m.moe->expert_groups) {
    r.fail({"routing.node_limit"},
           "node_limit (" + n(s.routing.node_limit) + ") exceeds the model's " +
               n(m.moe->expert_groups) + " expert groups",
           "node_limit = " + n(m.moe->expert_groups) + " already means no limit");
  }
}

void check_topology(const Scenario& s, Rules& r) {
  const auto& t = s.topology;
  for (const auto& problem :
       topologies::validate(t.network, s.hardware.nodes, s.hardware.spec.gpus_per_node)) {
    const std::string key =
        problem.parameter == "nodes" ? "hardware.nodes" : "topology." + problem.parameter;
    r.fail({key}, problem.message);
  }
  if (!topologies::descriptor(t.network.family).detour_routing &&
      (t.path_selection == PathSelection::valiant || t.path_selection == PathSelection::ugal)) {
    std::vector<std::string> detouring;
    for (const topologies::FamilyDescriptor* family : topologies::families()) {
      if (family->detour_routing) {
        detouring.emplace_back(family->name);
      }
    }
    r.fail({"topology.routing"},
           std::string(enum_name(t.path_selection)) +
               " detours through intermediate routers: " + core::join(detouring, " and ") +
               " only, not " + std::string(enum_name(t.network.family)));
  }
  if (topologies::descriptor(t.network.family).detour_routing &&
      t.path_selection == PathSelection::ftree) {
    r.fail({"topology.routing"}, "ftree routes fat trees, not " +
                                     std::string(enum_name(t.network.family)) +
                                     ": route it with minhop or updn");
  }
  std::set<int> seen;
  for (int p : t.failed_planes) {
    if (p < 0 || p >= t.network.planes) {
      r.fail({"topology.failed_planes"},
             "plane " + n(p) + " does not exist (planes are 0 to " + n(t.network.planes - 1) + ")");
    } else if (!seen.insert(p).second) {
      r.fail({"topology.failed_planes"}, "plane " + n(p) + " is listed twice");
    }
  }
  if (!t.failed_planes.empty() && static_cast<int>(seen.size()) >= t.network.planes) {
    r.fail({"topology.failed_planes"}, "every plane has failed: nothing could communicate");
  }
}

}  // namespace

std::vector<Diagnostic> check_rules(const Scenario& s,
                                    const std::map<std::string, SourceLocation>& where) {
  Rules r(s, where);
  check_model(s, r);
  check_hardware(s, where, r);
  check_parallelism(s, r);
  check_workload(s, r);
  check_routing(s, r);
  check_topology(s, r);
  return r.take();
}

}  // namespace codesim::config
