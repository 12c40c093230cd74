// codesim entry point: the only file that sees CLI11; maps errors to exit codes
// (0 ok, 1 simulation failure, 2 bad input or usage).
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>

#include "sim/cli/commands.hpp"
#include "sim/core/error.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitSimulationFailure = 1;
constexpr int kExitBadInput = 2;

// Runs a command into a buffer so that a failure prints no partial output.
template <class F>
void buffered(F&& command) {
  std::ostringstream buffer;
  command(buffer);
  std::cout << buffer.str();
}

// --family/--topology, --hardware, --nodes and the size flags of a network.
void add_network_flags(CLI::App* cmd, codesim::cli::NetworkFlags& f, const std::string& nodes_doc) {
  cmd->add_option("--family,--topology", f.family,
                  "Network: node, ft2, ft3, mrft, mpft, slimfly (sf), dragonfly (df)");
  cmd->add_option("--hardware", f.hardware, "Hardware preset for the nodes");
  cmd->add_option("--nodes", f.nodes, nodes_doc)->check(CLI::Range(0, 10'000'000));
  cmd->add_option("--radix", f.radix, "Switch ports (fat trees)");
  cmd->add_option("--planes", f.planes, "MPFT planes");
  cmd->add_option("--q", f.q, "Slim Fly q (prime)");
  cmd->add_option("--p", f.p, "Slim Fly / Dragonfly endpoints per router");
  cmd->add_option("--a", f.a, "Dragonfly routers per group");
  cmd->add_option("--h", f.h, "Dragonfly global links per router");
  cmd->add_option("--groups", f.groups, "Dragonfly groups");
  cmd->add_option("--plane-crossing", f.plane_crossing, "MPFT: at-source or at-destination")
      ->check(CLI::IsMember({"at-source", "at-destination"}));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace codesim;
  CLI::App app{
      "codesim: discrete-event simulator of GPU clusters for large Mixture-of-Experts models"};
  app.set_version_flag("--version", "codesim " CODESIM_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  cli::ModelOptions model;
  int mtp_depth = -1;
  auto* model_cmd = app.add_subcommand(
      "model", "Parameters, KV cache, FLOPs per token and per-layer ops of a model");
  model_cmd->add_option(
      "name", model.name,
      "Preset: deepseek-v3, deepseek-v2, deepseek-v2-lite, qwen2.5-72b, llama3.1-405b");
  model_cmd->add_option("--config", model.config,
                        "Model config JSON (DeepSeek or Hugging Face format)");
  model_cmd->add_option("--seq-len", model.seq_len, "Sequence length for FLOPs per token")
      ->check(CLI::Range(1, 10'000'000));
  model_cmd->add_option("--mtp-depth", mtp_depth, "Override the number of MTP modules")
      ->check(CLI::Range(0, 8));
  model_cmd->add_option("--format", model.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));

  std::string describe_format = "table";
  auto* describe_cmd =
      app.add_subcommand("describe", "Print the scenario schema (key, type, unit, default, doc)");
  describe_cmd->add_option("--format", describe_format, "table, json or md")
      ->check(CLI::IsMember({"table", "json", "md"}));

  std::string check_file;
  std::string check_format = "yaml";
  auto* check_cmd = app.add_subcommand("check", "Validate a scenario and print it resolved");
  check_cmd->add_option("scenario", check_file, "Scenario YAML")->required();
  check_cmd->add_option("--format", check_format, "yaml or json")
      ->check(CLI::IsMember({"yaml", "json"}));

  cli::TopoOptions topo;
  auto* topo_cmd = app.add_subcommand(
      "topo", "Build a topology and print its properties, routes or DOT; compare ISCA Table 3");
  topo_cmd->add_option("--scenario", topo.scenario, "Take the topology from a scenario");
  add_network_flags(topo_cmd, topo.network, "Nodes (default: fill the network)");
  topo_cmd->add_option("--compare", topo.compare,
                       "ISCA Table 3 instances, e.g. ft2,mpft,ft3,sf,df");
  topo_cmd->add_option("--route", topo.route, "Equal-cost routes between GPUs A,B");
  topo_cmd->add_flag("--bench", topo.bench, "Print build time and peak memory");
  topo_cmd->add_option("--format", topo.format, "table, json or dot")
      ->check(CLI::IsMember({"table", "json", "dot"}));

  cli::KernelsOptions kernels;
  auto* kernels_cmd =
      app.add_subcommand("kernels", "Run a CPU reference kernel: routing, fp8, logfmt or mla");
  kernels_cmd->add_option("what", kernels.what, "routing | fp8 | logfmt | mla")
      ->required()
      ->check(CLI::IsMember({"routing", "fp8", "logfmt", "mla"}));
  kernels_cmd->add_option("--model", kernels.model, "Model preset");
  kernels_cmd->add_option("--seed", kernels.seed, "Seed of the synthetic data");
  kernels_cmd->add_option("--format", kernels.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));
  kernels_cmd->add_option("--tokens", kernels.tokens,
                          "routing: tokens of the micro-batch; mla: sequence length");
  kernels_cmd->add_option("--ep", kernels.ep, "routing: expert-parallel GPUs");
  kernels_cmd->add_option("--gpus-per-node", kernels.gpus_per_node, "routing: GPUs per node")
      ->check(CLI::Range(1, 1024));
  kernels_cmd->add_option("--node-limit", kernels.node_limit,
                          "routing: M, nodes (groups) per token");
  kernels_cmd->add_option("--hidden", kernels.hidden,
                          "routing: hidden size of the synthetic tokens (default: the model's)");
  kernels_cmd->add_option("--zipf", kernels.zipf, "routing: Zipf exponent of topic popularity")
      ->check(CLI::Range(0.0, 10.0));
  kernels_cmd->add_option("--topics", kernels.topics, "routing: topic clusters")
      ->check(CLI::Range(1, 100000));
  kernels_cmd
      ->add_option("--strength", kernels.strength, "routing: logit lift of a topic's experts")
      ->check(CLI::Range(0.0, 100.0));
  kernels_cmd->add_option("--balance-steps", kernels.balance_steps,
                          "routing: steps of bias balancing");
  kernels_cmd->add_option("--balance-tokens", kernels.balance_tokens,
                          "routing: tokens per balancing step");
  kernels_cmd->add_option("--gamma", kernels.gamma, "routing: bias update speed")
      ->check(CLI::Range(0.0, 1.0));
  kernels_cmd
      ->add_option("--redundant", kernels.redundant, "routing: redundant expert replicas (EPLB)")
      ->check(CLI::Range(0, 100000));
  kernels_cmd->add_option("--eplb", kernels.eplb, "routing: global or hierarchical")
      ->check(CLI::IsMember({"global", "hierarchical"}));
  kernels_cmd->add_option("--m", kernels.m, "fp8: rows of A");
  kernels_cmd->add_option("--k", kernels.k, "fp8: inner dimension");
  kernels_cmd->add_option("--n", kernels.n, "fp8: columns of B");
  kernels_cmd->add_option("--mantissa-bits", kernels.mantissa_bits,
                          "fp8: accumulator fraction bits");
  kernels_cmd->add_option("--interval", kernels.interval, "fp8: promotion interval N_C");
  kernels_cmd->add_option("--values", kernels.values, "logfmt: values to encode");
  kernels_cmd->add_option("--heads", kernels.heads, "mla: attention heads to run");

  cli::CostOptions cost_options;
  auto* cost_cmd = app.add_subcommand(
      "cost", "Predicted time of one kernel on a GPU (the compute model, by hand)");
  cost_cmd
      ->add_option("class", cost_options.kind,
                   "gemm, grouped_gemm, attention_forward, attention_backward, elementwise, norm, "
                   "quantize, memcpy")
      ->required();
  cost_cmd->add_option("--hardware", cost_options.hardware, "Hardware preset");
  cost_cmd->add_option("--m", cost_options.m, "GEMM rows of A and C");
  cost_cmd->add_option("--n", cost_options.n, "GEMM columns of B and C");
  cost_cmd->add_option("--k", cost_options.k, "GEMM inner dimension");
  cost_cmd->add_option("--batch", cost_options.batch, "GEMMs in a group");
  cost_cmd->add_option("--dtype", cost_options.dtype, "bf16 or fp8")
      ->check(CLI::IsMember({"bf16", "fp8"}));
  cost_cmd->add_option("--flops", cost_options.flops, "FLOPs (non-GEMM classes)")
      ->check(CLI::Range(0.0, 1e21));
  cost_cmd->add_option("--bytes", cost_options.bytes, "HBM bytes moved")
      ->check(CLI::Range(0.0, 1e15));
  cost_cmd->add_option("--sms", cost_options.sms, "SMs left to the kernel (default: all)")
      ->check(CLI::Range(0, 100000));
  cost_cmd->add_option("--format", cost_options.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));

  cli::TraceOptions trace;
  auto* trace_cmd =
      app.add_subcommand("trace", "Profiler traces: import a PyTorch/Kineto Chrome trace");
  trace_cmd->add_option("action", trace.action, "import or replay")
      ->required()
      ->check(CLI::IsMember({"import", "replay"}));
  trace_cmd->add_option("file", trace.file, "Chrome trace JSON")->required();
  trace_cmd->add_option("--out", trace.out, "Write the imported StepTrace (JSON) here");
  trace_cmd->add_option("--chrome-trace", trace.chrome_trace,
                        "Write the timeline as a Chrome trace (Perfetto) here");
  trace_cmd->add_option("--hardware", trace.hardware, "replay: the GPU to predict for");
  trace_cmd->add_option("--scenario", trace.scenario,
                        "replay: take the GPU from a scenario (custom hardware)");
  trace_cmd->add_option("--measured-on", trace.measured_on,
                        "replay: the GPU the trace was taken on");
  trace_cmd->add_option("--model", trace.model, "replay: model preset the trace ran");
  trace_cmd->add_option("--tokens", trace.tokens, "replay: tokens per micro-batch")
      ->check(CLI::Range(1, 10000000));
  trace_cmd
      ->add_option("--max-trace-mb", trace.max_trace_mb,
                   "Refuse trace files larger than this (MiB)")
      ->check(CLI::Range(0.0, 1e7));
  trace_cmd->add_option("--format", trace.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));

  cli::A2aOptions a2a;
  auto* a2a_cmd = app.add_subcommand(
      "a2a", "One expert-parallel dispatch + combine (DeepEP modes) on a simulated cluster");
  add_network_flags(a2a_cmd, a2a.network, "Nodes (default: the EP group's)");
  a2a_cmd->add_option("--model", a2a.model, "MoE model preset (experts, groups, top-k, hidden)");
  a2a_cmd->add_option("--ep", a2a.ep, "Expert-parallel GPUs (must divide the routed experts)");
  a2a_cmd->add_option("--tokens", a2a.tokens, "Tokens per GPU");
  a2a_cmd->add_option("--hidden", a2a.hidden, "Hidden size of the payload (default: the model's)");
  a2a_cmd->add_option("--topk", a2a.topk, "Experts per token (default: the model's)");
  a2a_cmd->add_option("--node-limit", a2a.node_limit, "Nodes per token M (default: the model's)");
  a2a_cmd->add_option("--mode", a2a.mode, "normal (two-hop), direct or low-latency")
      ->check(CLI::IsMember({"normal", "direct", "low-latency"}));
  a2a_cmd->add_option("--dispatch", a2a.dispatch, "Dispatch payload: fp8 or bf16")
      ->check(CLI::IsMember({"fp8", "bf16"}));
  a2a_cmd->add_option("--combine", a2a.combine, "Combine payload: bf16 or logfmt-N");
  a2a_cmd->add_option("--gate-hidden", a2a.gate_hidden,
                      "Width of the synthetic gate (routing statistics only)");
  a2a_cmd->add_option("--zipf", a2a.zipf, "Topic popularity skew of the synthetic tokens");
  a2a_cmd->add_option("--balance-steps", a2a.balance_steps,
                      "Bias-balancing steps before routing (0: no bias)");
  a2a_cmd->add_option("--sms", a2a.sms, "SMs the communication kernels hold");
  a2a_cmd->add_option("--sm-copy-rate", a2a.sm_copy_rate,
                      "Copy rate per SM, e.g. 8GBps (caps what a GPU sends; default: no cap)");
  a2a_cmd->add_option("--spread", a2a.spread, "even (adaptive routing) or hashed (per-flow ECMP)")
      ->check(CLI::IsMember({"even", "hashed"}));
  a2a_cmd->add_option("--seed", a2a.seed, "Seed of the synthetic gate and tokens");
  a2a_cmd->add_flag("--bench", a2a.bench, "Print routing, platform and simulation times, memory");
  a2a_cmd->add_option("--format", a2a.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));

  cli::CollectiveOptions collective;
  auto* collective_cmd = app.add_subcommand(
      "collective", "Time and bus bandwidth of a collective per message size (as NCCL tests)");
  add_network_flags(collective_cmd, collective.network, "Nodes (default: enough for the GPUs)");
  collective_cmd->add_option("--kind", collective.kind,
                             "all-reduce, all-gather, reduce-scatter, all-to-all or send");
  collective_cmd->add_option("--algorithm", collective.algorithm,
                             "ring, direct or hierarchical (default: ring; direct for all-to-all "
                             "and send)");
  collective_cmd->add_option("--gpus", collective.gpus, "Ranks: the first N GPUs");
  collective_cmd->add_option("--sizes", collective.sizes,
                             "Message sizes, comma-separated (NCCL tests' size)");
  collective_cmd->add_option("--spread", collective.spread, "even or hashed")
      ->check(CLI::IsMember({"even", "hashed"}));
  collective_cmd->add_flag("--bench", collective.bench, "Print simulation time and memory");
  collective_cmd->add_option("--format", collective.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));

  cli::ScheduleOptions schedule;
  auto* schedule_cmd = app.add_subcommand(
      "schedule", "A pipeline schedule's chunks per rank, chart, bubble and activations");
  schedule_cmd->add_option("--method", schedule.method, "1f1b, zb1p, dualpipe or dualpipev");
  schedule_cmd->add_option("--pp", schedule.pp, "Pipeline ranks (devices)");
  schedule_cmd->add_option("--chunks", schedule.chunks, "Micro-batches");
  schedule_cmd->add_option("--f", schedule.f, "A forward chunk, e.g. 1ms");
  schedule_cmd->add_option("--b", schedule.b, "A whole backward chunk (input + weight parts)");
  schedule_cmd->add_option("--w", schedule.w, "The weight part of a backward chunk");
  schedule_cmd->add_option("--fb", schedule.fb, "An overlapped forward + backward pair");
  schedule_cmd->add_option("--width", schedule.width, "Chart columns (default: 4 per forward)");
  schedule_cmd->add_option("--format", schedule.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));

  cli::RunOptions run;
  auto* run_cmd =
      app.add_subcommand("run", "Simulate one training step of a scenario and report it");
  run_cmd->add_option("scenario", run.scenario, "Scenario YAML")->required();
  run_cmd->add_option("--set", run.settings, "Override a key: --set routing.node_limit=2");
  run_cmd->add_option("--format", run.format, "table, json, csv, md or html")
      ->check(CLI::IsMember({"table", "json", "csv", "md", "html"}));
  run_cmd->add_flag("--bench", run.bench, "Print where the time went and peak memory");
  run_cmd->add_option("--chrome-trace", run.chrome_trace,
                      "Write the simulated timeline for Perfetto / chrome://tracing");
  run_cmd->add_option("--report", run.report, "Also write the JSON report to this file");
  run_cmd
      ->add_option("--max-memory-mb", run.max_memory_mb,
                   "Refuse a run whose simulation would need more memory (default 4096)")
      ->check(CLI::PositiveNumber);
  run_cmd
      ->add_option("--max-tasks", run.max_tasks,
                   "Refuse a step of more tasks than this (default 5,000,000)")
      ->check(CLI::PositiveNumber);

  cli::SweepOptions sweep;
  auto* sweep_cmd = app.add_subcommand(
      "sweep", "Run every point of a scenario's sweep: section; results.csv, .json, report.html");
  sweep_cmd->add_option("scenario", sweep.scenario, "Scenario YAML with a sweep: section")
      ->required();
  sweep_cmd->add_option("--out", sweep.out_dir, "Directory for the points and the reports");
  sweep_cmd->add_option("--jobs", sweep.jobs, "Points simulated at once (default 2)")
      ->check(CLI::Range(1, 1024));
  sweep_cmd->add_option("--set", sweep.settings, "Override a key in every point");
  sweep_cmd->add_option("--format", sweep.format, "table, json, csv or md (stdout)")
      ->check(CLI::IsMember({"table", "json", "csv", "md"}));
  sweep_cmd->add_flag("--dry-run", sweep.dry_run, "Check and list the points; run none");

  cli::CompareOptions compare;
  auto* compare_cmd = app.add_subcommand(
      "compare", "Network cost and training throughput of scenarios side by side");
  compare_cmd->add_option("scenarios", compare.scenarios, "Scenario YAMLs (the first is the base)")
      ->required();
  compare_cmd->add_option("--jobs", compare.jobs, "Scenarios simulated at once (default 2)")
      ->check(CLI::Range(1, 1024));
  compare_cmd->add_option("--format", compare.format, "table or json")
      ->check(CLI::IsMember({"table", "json"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*model_cmd) {
      if (model.name.empty() == model.config.empty()) {
        std::cerr << "codesim model: give a preset name or --config FILE (not both)\n";
        return kExitBadInput;
      }
      if (mtp_depth >= 0) {
        model.mtp_depth = mtp_depth;
      }
      buffered([&](std::ostream& out) { cli::run_model(model, out); });
    } else if (*describe_cmd) {
      buffered([&](std::ostream& out) { cli::run_describe(describe_format, out); });
    } else if (*trace_cmd) {
      buffered([&](std::ostream& out) { cli::run_trace(trace, out); });
    } else if (*cost_cmd) {
      buffered([&](std::ostream& out) { cli::run_cost(cost_options, out); });
    } else if (*kernels_cmd) {
      buffered([&](std::ostream& out) { cli::run_kernels(kernels, out); });
    } else if (*topo_cmd) {
      buffered([&](std::ostream& out) { cli::run_topo(topo, out); });
    } else if (*a2a_cmd) {
      buffered([&](std::ostream& out) { cli::run_a2a(a2a, out); });
    } else if (*collective_cmd) {
      buffered([&](std::ostream& out) { cli::run_collective(collective, out); });
    } else if (*schedule_cmd) {
      buffered([&](std::ostream& out) { cli::run_schedule(schedule, out); });
    } else if (*run_cmd) {
      buffered([&](std::ostream& out) { cli::run_run(run, out); });
    } else if (*sweep_cmd) {
      int failed = 0;
      buffered([&](std::ostream& out) { failed = cli::run_sweep(sweep, out); });
      if (failed > 0) {
        std::cerr << "codesim sweep: " << failed
                  << " of the points failed (see the error column)\n";
        return kExitSimulationFailure;
      }
    } else if (*compare_cmd) {
      buffered([&](std::ostream& out) { cli::run_compare(compare, out); });
    } else if (*check_cmd) {
      buffered([&](std::ostream& out) { cli::run_check(check_file, check_format, out); });
    }
  } catch (const core::InputError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  } catch (const core::SimulationError& e) {
    std::cerr << "simulation failed: " << e.what() << "\n";
    return kExitSimulationFailure;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitSimulationFailure;
  }
  return kExitOk;
}
