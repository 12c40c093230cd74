// Serving: the instances' step costs from the inference model (one EP round per instance kind,
// each in a child process), the requests, the loop, the figures.
#include "sim/study/serve.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <utility>

#include "models/llm/analytics.hpp"
#include "sim/config/topology_from.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/text.hpp"
#include "sim/metrics/result_record.hpp"
#include "sim/metrics/serve_figures.hpp"
#include "sim/serve/arrivals.hpp"
#include "sim/serve/request_trace.hpp"
#include "sim/serve/serving_loop.hpp"
#include "sim/study/inference.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/scenario_inputs.hpp"
#include "sim/study/serve_memory.hpp"
#include "topologies/build.hpp"
#include "topologies/routing.hpp"

namespace codesim::study {
namespace {

using config::Scenario;
using serve::InstanceShape;

// One kind of instance: its scenario at its reference load, and that load's dispatch and combine
// per layer and micro-batch (zero without EP).
struct Instance {
  std::string role;  // "prefill" | "decode"
  Scenario scenario;
  int reference_tokens = 1;  // per micro-batch and GPU
  core::Seconds dispatch;
  core::Seconds combine;
  topologies::PathTiming stage_link;  // between pipeline stages, through the topology (pp > 1)

  int gpus() const { return scenario.gpus(); }
  int micro_batches() const { return scenario.inference.micro_batches; }
};

// An instance's setting, located where the serve key it comes from was written (else at the
// file: the user never typed it as --set).
config::Setting set(const Scenario& base, const std::string& key, const std::string& value,
                    const std::string& located_at) {
  config::Setting s = config::parse_setting(key + "=" + value);
  const auto w = base.where.find(located_at);
  s.where = w != base.where.end() ? w->second : core::SourceLocation{base.source_file, 0, 0};
  return s;
}

// The instance's scenario: the base with the instance's nodes and parallelism, at its full load
// (a prefill chunk on every GPU; a decode batch of the most requests, at the mean request's
// context half way through its output).
Instance instance(const config::ScenarioSource& source, const Scenario& base,
                  const std::string& role) {
  const bool prefill = role == "prefill";
  const InstanceShape& i = prefill ? base.serve.prefill : base.serve.decode;
  const std::string key = "serve." + role;
  const int mb = base.where.contains("inference.micro_batches")
                     ? base.inference.micro_batches
                     : workload::default_micro_batches(base.model.spec, i.ep);
  Instance inst{.role = role};
  std::vector<config::Setting> settings;
  // Which serve key each setting comes from: an error about the instance names that key.
  std::map<std::string, std::string> from;
  const auto add = [&](const std::string& k, long long v, const std::string& at) {
    settings.push_back(set(base, k, std::to_string(v), at));
    from[k] = at;
  };
  settings.push_back(set(base, "workload.kind", role, key + ".nodes"));
  add("hardware.nodes", i.nodes, key + ".nodes");
  add("parallelism.tp", i.tp, key + ".tp");
  add("parallelism.ep", i.ep, key + ".ep");
  add("parallelism.pp", i.pp, key + ".pp");
  add("inference.micro_batches", mb, key + ".ep");
  if (prefill) {
    // DeepEP's low-latency kernels hold every expert's messages from every token dispatched at
    // once: a prefill chunk runs DeepEP's normal kernels, as SGLang's auto mode picks them.
    if (base.routing.dispatch == workload::EpMode::deepep_low_latency ||
        base.routing.dispatch == workload::EpMode::deepep_low_latency_nvlink) {
      settings.push_back(set(base, "routing.dispatch", "deepep-normal", "routing.dispatch"));
    }
    const int chunk = (base.serve.chunk_tokens_per_gpu + mb - 1) / mb * mb;
    inst.reference_tokens = chunk / mb;
    add("inference.prompt_tokens_per_gpu", chunk, "serve.prefill.chunk_tokens_per_gpu");
    add("workload.seq_len", static_cast<long long>(chunk) * i.tp / mb,
        "serve.prefill.chunk_tokens_per_gpu");
  } else {
    const int batch = (base.serve.max_requests_per_gpu + mb - 1) / mb * mb;
    inst.reference_tokens = batch / mb;
    add("inference.requests_per_gpu", batch, "serve.decode.max_requests_per_gpu");
    add("inference.context_len",
        base.serve.arrivals.prompt_tokens + base.serve.arrivals.output_tokens / 2,
        "serve.arrivals.prompt_tokens");
  }
  try {
    inst.scenario = config::load_scenario(source.with(settings));
  } catch (const core::InputError& e) {
    std::vector<core::Diagnostic> named = e.diagnostics();
    for (core::Diagnostic& d : named) {
      if (const auto it = from.find(d.key_path); it != from.end()) {
        d.message = "the " + role + " instance's " + d.key_path + ": " + d.message;
        d.key_path = it->second;
      }
    }
    throw core::InputError(std::move(named));
  }
  if (inst.scenario.parallelism.pp > 1) {
    inst.stage_link = stage_link(inst.scenario, config::build_topology(inst.scenario));
  }
  return inst;
}

// Each instance kind's dispatch and combine at its reference load, simulated in a child process
// (SimGrid allows one engine per process).
void ep_rounds(std::vector<Instance*> instances, const Budget& budget) {
  std::vector<IsolatedWork> works;
  std::vector<Instance*> ran;
  for (Instance* inst : instances) {
    if (!inst->scenario.expert_parallel()) {
      continue;
    }
    works.push_back(
        [inst, budget] { return metrics::pack(simulate_inference(inst->scenario, budget)); });
    ran.push_back(inst);
  }
  const auto outcomes = run_isolated(works, 2);
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    if (outcomes[k].exit_code != 0) {
      throw core::InputError(core::Diagnostic{
          {ran[k]->scenario.source_file, 0, 0},
          "serve." + ran[k]->role,
          "the " + ran[k]->role + " instance's expert-parallel round failed: " + outcomes[k].error,
          ""});
    }
    const auto round = metrics::unpack<metrics::InferenceResult>(outcomes[k].payload);
    ran[k]->dispatch = round.dispatch;
    ran[k]->combine = round.combine;
  }
}

int per(int total, int parts) {
  return std::max(1, (total + parts - 1) / parts);
}

// A step of `inst` with `tokens` per micro-batch and GPU: dispatch and combine in proportion to
// the tokens.
StepPrice step(const Instance& inst, int tokens, int context) {
  const double scale = static_cast<double>(tokens) / inst.reference_tokens;
  return step_price_at(inst.scenario, {.tokens = tokens,
                                       .context = std::max(1, context),
                                       .dispatch = inst.dispatch * scale,
                                       .combine = inst.combine * scale,
                                       .stage_link = inst.stage_link});
}

std::vector<serve::Request> requests_of(const Scenario& s, std::string& described) {
  if (!s.serve.trace.empty()) {
    described = "trace " + s.serve.trace;
    return serve::read_request_trace(s.serve.trace);
  }
  if (s.serve.arrivals.cached_tokens > s.serve.arrivals.prompt_tokens) {
    config::scenario_error(s, "serve.arrivals.cached_tokens",
                           "cached tokens (" + std::to_string(s.serve.arrivals.cached_tokens) +
                               ") cannot exceed the prompt's (" +
                               std::to_string(s.serve.arrivals.prompt_tokens) + ")");
  }
  described = "Poisson, " + core::format_number(s.serve.arrivals.rate) + " requests/s";
  return serve::poisson_requests(s.serve.arrivals);
}

// `tokens`: what the reference step of the whole instance computes or emits.
metrics::ServeInstances instances_of(const Instance& inst, const InstanceShape& sec, double busy,
                                     long long steps, core::Seconds reference, double tokens) {
  const double nodes = static_cast<double>(inst.gpus()) / inst.scenario.hardware.spec.gpus_per_node;
  return {.instances = sec.instances,
          .gpus_each = inst.gpus(),
          .tp = inst.scenario.parallelism.tp,
          .ep = inst.scenario.parallelism.ep,
          .pp = inst.scenario.parallelism.pp,
          .busy = busy,
          .steps = steps,
          .reference_step = reference,
          .full_load_tokens_per_s_per_node = tokens / reference.value / nodes};
}

// What one request takes alone: its prefill's chunks to its first token, and a decode step of
// that one request (only where the scenario sets a target).
metrics::ServeAlone request_alone(const Scenario& s, const serve::StepCosts& costs,
                                  int prefill_gpus) {
  if (s.serve.slo.ttft.value <= 0 && s.serve.slo.tpot.value <= 0) {
    return {};
  }
  const int prompt = s.serve.arrivals.prompt_tokens;
  const int fresh = std::max(1, prompt - s.serve.arrivals.cached_tokens);
  const int chunk = s.serve.chunk_tokens_per_gpu * prefill_gpus;
  metrics::ServeAlone alone{.ttft = core::Seconds(0), .tpot = costs.decode(1, prompt)};
  for (int left = fresh; left > 0; left -= chunk) {
    alone.ttft += costs.prefill(std::min(left, chunk), prompt);
  }
  return alone;
}

// One kind of instance as the run used it: its steps' GPU energy, and its own network's and
// hosts' over the horizon, counted as a job's step counts them (no GPU work: the steps have it).
metrics::InstanceDraw draw(const Instance& inst, int instances, double busy, double step_joules,
                           core::Seconds horizon) {
  const Scenario& s = inst.scenario;
  const metrics::StepEnergy facility =
      job_step_energy(s, {}, {}, horizon, network_use(s, config::build_topology(s)), 0);
  return {.instances = instances,
          .gpus_each = inst.gpus(),
          .busy = busy,
          .step_joules = step_joules,
          .network_j = facility.network_j,
          .host_j = facility.host_j};
}

// Step times already priced, by tokens per micro-batch and context; at most a million kept (a
// trace of many distinct prompts prices the rest each time).
class StepMemo {
 public:
  // The step's time; its GPUs' energy is added to what the memo's steps drew.
  template <typename Price>
  core::Seconds at(int tokens, int context, const Price& price) {
    const auto key = std::pair{tokens, context};
    const auto it = known_.find(key);
    const StepPrice p = it != known_.end() ? it->second : price();
    if (it == known_.end() && known_.size() < 1'000'000) {
      known_.emplace(key, p);
    }
    joules_ += p.gpu_joules;
    return p.time;
  }
  double joules() const { return joules_; }

 private:
  std::map<std::pair<int, int>, StepPrice> known_;
  double joules_ = 0;
};

// Refuses a scenario that sets no serve key: its instances, arrivals and targets would all be
// defaults nobody chose (sweep refuses a scenario without sweep: alike).
void refuse_without_section(const Scenario& base) {
  for (const auto& [key, where] : base.where) {
    if (key.starts_with("serve.")) {
      return;
    }
  }
  throw core::InputError(core::Diagnostic{
      {base.source_file, 0, 0},
      "serve",
      "the scenario has no serve: section",
      "add one, e.g. serve: {prefill: {instances: 1}, decode: {instances: 2}, arrivals: {rate: 6}} "
      "(scenarios/SCHEMA.md)"});
}

// Refuses a run whose fewest steps are past the budget, blaming the key that sets the larger
// share: the prefill chunk or the decode batch.
void refuse_past_budget(const Scenario& base, const serve::StepBound& least,
                        const serve::ServingSpec& spec, const Budget& budget) {
  if (least.steps() <= budget.max_serve_steps) {
    return;
  }
  const bool prefill = least.prefill_steps >= least.decode_steps;
  config::scenario_error(
      base, prefill ? "serve.prefill.chunk_tokens_per_gpu" : "serve.decode.max_requests_per_gpu",
      "the serving run takes at least " + std::to_string(least.steps()) + " steps (" +
          std::to_string(least.prefill_steps) + " prefill: " +
          core::format_number(least.prefill_tokens) + " prompt tokens in chunks of " +
          std::to_string(spec.prefill_chunk_tokens) + "; " + std::to_string(least.decode_steps) +
          " decode: " + core::format_number(least.decode_tokens) +
          " output tokens in batches of at most " + std::to_string(spec.decode_max_requests) +
          "), over the budget of " + std::to_string(budget.max_serve_steps),
      std::string(prefill ? "larger prefill chunks" : "larger decode batches") +
          " or fewer requests shorten it; or raise --max-steps");
}

// `costs` that also count the steps: `progress` hears every ten million, and a run past the
// budget (decode batches below their most take more steps than foreseen) is refused there.
serve::StepCosts counted(const serve::StepCosts& costs, const Scenario& base,
                         const serve::StepBound& least, const Budget& budget,
                         const std::function<void(const std::string&)>& progress) {
  auto steps = std::make_shared<long long>(0);
  const auto tick = [steps, progress, least, budget, &base] {
    if (++*steps > budget.max_serve_steps) {
      config::scenario_error(base, "serve.decode.max_requests_per_gpu",
                             "the serving run passed the budget of " +
                                 std::to_string(budget.max_serve_steps) + " steps (" +
                                 std::to_string(least.steps()) +
                                 " foreseen at the least: its decode batches ran below their most)",
                             "fewer requests shorten it; or raise --max-steps");
    }
    if (progress && *steps % 10'000'000 == 0) {
      progress(std::to_string(*steps / 1'000'000) + " million steps of at least " +
               std::to_string(least.steps() / 1'000'000) + " million");
    }
  };
  return {.prefill =
              [tick, f = costs.prefill](int tokens, int prompt) {
                tick();
                return f(tokens, prompt);
              },
          .decode =
              [tick, f = costs.decode](int requests, int context) {
                tick();
                return f(requests, context);
              },
          .kv_transfer = costs.kv_transfer};
}

// The path a prompt's KV cache takes, from the first prefill instance's first GPU to the first
// decode instance's, through the deployment's network: the scenario's topology over every
// instance's nodes, the prefill instances' first (where the two meet: the same leaf, or across
// the spine, is the topology's to say). A scenario whose topology is a single node (family node)
// says nothing of the network between instances: a two-tier fat tree is assumed there, and said
// in `notes`.
topologies::PathTiming kv_path(const Scenario& base, std::vector<core::Note>& notes) {
  Scenario whole = base;
  const int prefill_nodes = base.serve.prefill.nodes * base.serve.prefill.instances;
  whole.hardware.nodes = prefill_nodes + base.serve.decode.nodes * base.serve.decode.instances;
  if (whole.topology.network.family == topologies::Family::node) {
    whole.topology.network.family = topologies::Family::ft2;
    notes.push_back({core::NoteKind::assumed,
                     "the scenario's topology is one node: the KV cache crosses between "
                     "instances over a two-tier fat tree of radix " +
                         std::to_string(whole.topology.network.radix) + " (ft2) joining the " +
                         std::to_string(whole.hardware.nodes) + " nodes of the deployment"});
  }
  try {
    return topologies::path_timing(config::build_topology(whole), 0,
                                   prefill_nodes * base.hardware.spec.gpus_per_node);
  } catch (const topologies::SpecError& e) {
    config::scenario_error(base, "topology.family",
                           "the serving deployment's " + std::to_string(whole.hardware.nodes) +
                               " nodes (every prefill and decode instance) do not fit the "
                               "topology: " +
                               e.what(),
                           "a topology that holds them, or fewer or smaller instances");
  }
}

// The loop's prices: each instance's step at the load asked for (per GPU and micro-batch,
// remembered), and the KV transfer of a prompt's cache over the prefill TP group's GPUs, each
// its share over `kv` at once.
serve::StepCosts step_costs(const Instance& prefill, const Instance& decode,
                            const topologies::PathTiming& kv, double kv_per_token,
                            StepMemo& prefill_memo, StepMemo& decode_memo) {
  const int tp = prefill.scenario.parallelism.tp;
  return {
      .prefill =
          [&prefill, &prefill_memo, tp](int tokens, int prompt) {
            const int t = per(per(tokens, prefill.gpus()), prefill.micro_batches());
            const int p = std::min(prompt, t * tp);
            return prefill_memo.at(t, p, [&] { return step(prefill, t, p); });
          },
      .decode =
          [&decode, &decode_memo](int requests, int context) {
            const int t = per(per(requests, decode.gpus()), decode.micro_batches());
            // Contexts priced to the nearest 64 tokens above (a step's cost barely moves
            // within).
            const int c = (context + 63) / 64 * 64;
            return decode_memo.at(t, c, [&] { return step(decode, t, c); });
          },
      .kv_transfer = [kv, tp, kv_per_token](
                         int tokens) { return kv.time(core::Bytes(tokens * kv_per_token / tp)); }};
}

}  // namespace

metrics::ServeResult simulate_serving(const config::ScenarioSource& source, const Budget& budget,
                                      const std::function<void(const std::string&)>& progress) {
  const Scenario base = config::load_scenario(source);
  refuse_without_section(base);
  Instance prefill = instance(source, base, "prefill");
  Instance decode = instance(source, base, "decode");
  ep_rounds({&prefill, &decode}, budget);

  refuse_prefill_over_memory(base, prefill.scenario,
                             per(base.serve.chunk_tokens_per_gpu, prefill.micro_batches()));
  const double kv_tokens =
      decode_kv_tokens(base, decode.scenario,
                       per(base.serve.max_requests_per_gpu, decode.micro_batches()), decode.gpus());
  const double kv_per_token = llm::kv_cache_bytes_per_token(base.model.spec).value;

  StepMemo prefill_memo;
  StepMemo decode_memo;
  std::vector<core::Note> kv_notes;
  const serve::StepCosts costs =
      step_costs(prefill, decode, kv_path(base, kv_notes), kv_per_token, prefill_memo, decode_memo);

  // A whole instance's prefill chunk and decode batch.
  const int chunk = base.serve.chunk_tokens_per_gpu * prefill.gpus();
  const int batch = base.serve.max_requests_per_gpu * decode.gpus();
  metrics::ServeResult r;
  r.scenario = base.name;
  const auto requests = requests_of(base, r.arrivals);
  const serve::ServingSpec spec{.prefill_instances = base.serve.prefill.instances,
                                .decode_instances = base.serve.decode.instances,
                                .prefill_chunk_tokens = chunk,
                                .decode_max_requests = batch,
                                .decode_kv_tokens = kv_tokens};
  const serve::StepBound least = serve::least_steps(requests, spec);
  refuse_past_budget(base, least, spec, budget);
  serve::ServingRun run;
  try {
    run = serve::run_serving(requests, spec, counted(costs, base, least, budget, progress));
  } catch (const core::KeyedError& e) {
    // The request's lengths come from the trace or from the Poisson arrivals' keys.
    config::scenario_error(
        base, base.serve.trace.empty() ? "serve.arrivals.prompt_tokens" : "serve.arrivals.trace",
        e.what(), e.hint());
  }
  // What the run's steps drew, before the reference steps below are priced.
  const double prefill_joules = prefill_memo.joules();
  const double decode_joules = decode_memo.joules();

  r.requests = static_cast<int>(requests.size());
  r.gpus_per_node = base.hardware.spec.gpus_per_node;
  r.gpus =
      prefill.gpus() * base.serve.prefill.instances + decode.gpus() * base.serve.decode.instances;
  r.prefill = instances_of(prefill, base.serve.prefill, run.prefill_busy, run.prefill_steps,
                           costs.prefill(chunk, base.serve.arrivals.prompt_tokens), chunk);
  r.decode = instances_of(decode, base.serve.decode, run.decode_busy, run.decode_steps,
                          costs.decode(batch, decode.scenario.inference.context_len), batch);
  r.decode_kv_tokens = kv_tokens;
  r.horizon = run.end - run.start;
  const double output = metrics::add_request_figures(requests, run, r);
  metrics::add_serve_energy(
      base.hardware.spec.gpu.power,
      {draw(prefill, base.serve.prefill.instances, run.prefill_busy, prefill_joules, r.horizon),
       draw(decode, base.serve.decode.instances, run.decode_busy, decode_joules, r.horizon)},
      output, r);
  metrics::add_slo_figures(base.serve.slo, run, request_alone(base, costs, prefill.gpus()), r);
  metrics::add_serve_notes(base.model.spec, r);
  r.notes.insert(r.notes.end(), kv_notes.begin(), kv_notes.end());
  return r;
}

}  // namespace codesim::study
