// The tools' subcommands and their flags: model, describe, check, topo, kernels, cost, trace, a2a,
// collective, schedule.
#include <map>
#include <memory>
#include <string>

#include "sim/cli/cli_flags.hpp"
#include "topologies/family.hpp"

namespace codesim::cli {

Command add_model(CLI::App& app) {
  auto o = options<cli::ModelOptions>();
  auto mtp_depth = std::make_shared<int>(-1);
  auto* cmd = app.add_subcommand(
      "model", "Parameters, KV cache, FLOPs per token and per-layer ops of a model");
  cmd->add_option("name", o->name,
                  "Preset: deepseek-v3, deepseek-v2, deepseek-v2-lite, qwen2.5-72b, llama3.1-405b, "
                  "llama3.1-70b, llama3.1-8b, gpt3-175b");
  cmd->add_option("--config", o->config, "Model config JSON (DeepSeek or Hugging Face format)");
  cmd->add_option("--seq-len", o->seq_len, "Sequence length for FLOPs per token")
      ->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--mtp-depth", *mtp_depth, "Override the number of MTP modules")
      ->check(CLI::Range(0, 8));
  add_format(cmd, o->format, {report::Format::table, report::Format::json});
  return {cmd, [o, mtp_depth](std::ostream& out) {
            if (o->name.empty() == o->config.empty()) {
              std::cerr << "codesim model: give a preset name or --config FILE (not both)\n";
              return kExitBadInput;
            }
            if (*mtp_depth >= 0) {
              o->mtp_depth = *mtp_depth;
            }
            cli::run_model(*o, out);
            return kExitOk;
          }};
}

Command add_describe(CLI::App& app) {
  auto format = std::make_shared<std::string>("table");
  auto* cmd =
      app.add_subcommand("describe", "Print the scenario schema (key, type, unit, default, doc)");
  cmd->add_option("--format", *format, "table, json or md")
      ->check(CLI::IsMember({"table", "json", "md"}));
  return {cmd, [format](std::ostream& out) {
            cli::run_describe(*format, out);
            return kExitOk;
          }};
}

Command add_check(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("yaml");
  auto* cmd = app.add_subcommand("check", "Validate a scenario and print it resolved");
  cmd->add_option("scenario", *file, "Scenario YAML")->required();
  cmd->add_option("--format", *format, "yaml or json")->check(CLI::IsMember({"yaml", "json"}));
  return {cmd, [file, format](std::ostream& out) {
            cli::run_check(*file, *format, out);
            return kExitOk;
          }};
}

Command add_topo(CLI::App& app) {
  auto o = options<cli::TopoOptions>();
  auto* cmd = app.add_subcommand(
      "topo", "Build a topology and print its properties, routes or DOT; compare ISCA Table 3");
  cmd->add_option("--scenario", o->scenario, "Take the topology from a scenario");
  add_network_flags(cmd, o->network, "nodes (default: fill the network)", "");
  cmd->add_option("--compare", o->compare, "ISCA Table 3 instances, e.g. ft2,mpft,ft3,sf,df");
  cmd->add_option("--route", o->route, "Equal-cost routes between GPUs A,B");
  cmd->add_flag("--bench", o->bench, "Print build time and peak memory");
  cmd->add_option("--format", o->format, "table, json or dot")
      ->check(CLI::IsMember({"table", "json", "dot"}));
  return {cmd, printing(o, &cli::run_topo)};
}

Command add_kernels(CLI::App& app) {
  auto o = options<cli::KernelsOptions>();
  auto* cmd =
      app.add_subcommand("kernels", "Run a CPU reference kernel: routing, fp8, logfmt or mla");
  cmd->add_option("what", o->what, "routing | fp8 | logfmt | mla")
      ->required()
      ->check(CLI::IsMember({"routing", "fp8", "logfmt", "mla"}));
  cmd->add_option("--model", o->model, "Model preset");
  cmd->add_option("--seed", o->seed, "Seed of the synthetic data");
  add_format(cmd, o->format, {report::Format::table, report::Format::json});
  cmd->add_option("--tokens", o->tokens,
                  "routing: tokens of the micro-batch; mla: sequence length");
  cmd->add_option("--ep", o->ep, "routing: expert-parallel GPUs");
  cmd->add_option("--gpus-per-node", o->gpus_per_node, "routing: GPUs per node")
      ->check(CLI::Range(1, 1024));
  cmd->add_option(
      "--node-limit", o->node_limit,
      "routing: M, the expert groups a token may reach (a group is a node's experts "
      "when EP spans as many nodes as the model has groups); the model's count lifts it");
  cmd->add_option("--hidden", o->hidden,
                  "routing: hidden size of the synthetic tokens (default: the model's)");
  cmd->add_option("--zipf", o->zipf, "routing: Zipf exponent of topic popularity")
      ->check(CLI::Range(0.0, 10.0));
  cmd->add_option("--topics", o->topics, "routing: topic clusters")->check(CLI::Range(1, 100000));
  cmd->add_option("--strength", o->strength, "routing: logit lift of a topic's experts")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--balance-steps", o->balance_steps, "routing: steps of bias balancing");
  cmd->add_option("--balance-tokens", o->balance_tokens, "routing: tokens per balancing step");
  cmd->add_option("--gamma", o->gamma, "routing: bias update speed")->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--redundant", o->redundant, "routing: redundant expert replicas (EPLB)")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--eplb", o->eplb, "routing: global or hierarchical")
      ->check(CLI::IsMember({"global", "hierarchical"}));
  cmd->add_option("--m", o->m, "fp8: rows of A");
  cmd->add_option("--k", o->k, "fp8: inner dimension");
  cmd->add_option("--n", o->n, "fp8: columns of B");
  cmd->add_option("--mantissa-bits", o->mantissa_bits, "fp8: accumulator fraction bits");
  cmd->add_option("--interval", o->interval, "fp8: promotion interval N_C");
  cmd->add_option("--values", o->values, "logfmt: values to encode");
  cmd->add_option("--heads", o->heads, "mla: attention heads to run");
  return {cmd, printing(o, &cli::run_kernels)};
}

Command add_cost(CLI::App& app) {
  auto o = options<cli::CostOptions>();
  auto* cmd = app.add_subcommand(
      "cost", "Predicted time of one kernel on a GPU (the compute model, by hand)");
  cmd->add_option("class", o->kind,
                  "gemm, grouped_gemm, attention (by shape), attention_forward, "
                  "attention_backward, elementwise, norm, quantize, memcpy, optimizer")
      ->required();
  cmd->add_option("--hardware", o->hardware, "Hardware preset");
  cmd->add_option("--m", o->m, "GEMM rows of A and C");
  cmd->add_option("--n", o->n, "GEMM columns of B and C");
  cmd->add_option("--k", o->k, "GEMM inner dimension");
  cmd->add_option("--batch", o->batch, "GEMMs in a group");
  cmd->add_option("--rows", o->rows,
                  "grouped_gemm: each group's rows, comma-separated (uneven groups, as routing "
                  "gives them; --m and --batch unused)")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--dtype", o->dtype, "bf16 or fp8")->check(CLI::IsMember({"bf16", "fp8"}));
  cmd->add_option("--flops", o->flops, "FLOPs (non-GEMM classes)")->check(CLI::Range(0.0, 1e21));
  cmd->add_option("--bytes", o->bytes, "HBM bytes moved")->check(CLI::Range(0.0, 1e15));
  cmd->add_option("--sms", o->sms, "SMs left to the kernel (default: all)")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--heads", o->heads, "attention: heads")->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--seq", o->seq, "attention: sequence length")->check(CLI::Range(0.0, 1e8));
  cmd->add_option("--d-qk", o->d_qk, "attention: query/key head dimension")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--d-v", o->d_v, "attention: value head dimension (default: --d-qk)")
      ->check(CLI::Range(0, 4096));
  cmd->add_flag("--causal", o->causal, "attention: causal (the lower triangle only)");
  cmd->add_option("--pass", o->pass, "attention: fwd or fwd+bwd")
      ->check(CLI::IsMember({"fwd", "fwd+bwd"}));
  add_format(cmd, o->format, {report::Format::table, report::Format::json});
  return {cmd, printing(o, &cli::run_cost)};
}

Command add_trace(CLI::App& app) {
  auto o = options<cli::TraceOptions>();
  auto* cmd = app.add_subcommand("trace", "Profiler traces: import a PyTorch/Kineto Chrome trace");
  cmd->add_option("action", o->action, "import or replay")
      ->required()
      ->check(CLI::IsMember({"import", "replay"}));
  cmd->add_option("file", o->file, "Chrome trace JSON")->required();
  cmd->add_option("--out", o->out, "Write the imported StepTrace (JSON) here");
  cmd->add_option("--chrome-trace", o->chrome_trace,
                  "Write the timeline as a Chrome trace (Perfetto) here");
  cmd->add_option("--hardware", o->hardware, "replay: the GPU to predict for");
  cmd->add_option("--scenario", o->scenario,
                  "replay: take the GPU from a scenario (custom hardware)");
  cmd->add_option("--measured-on", o->measured_on, "replay: the GPU the trace was taken on");
  cmd->add_option("--model", o->model, "replay: model preset the trace ran");
  cmd->add_option("--tokens", o->tokens, "replay: tokens per micro-batch")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--seq-len", o->seq_len, "replay: tokens per sequence")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--ep", o->ep, "replay: expert parallelism of the profiled run")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--comm-sms", o->comm_sms,
                  "replay: SMs the communication kernels held while the pieces ran")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--max-trace-mb", o->max_trace_mb, "Refuse trace files larger than this (MiB)")
      ->check(CLI::Range(0.0, 1e7));
  add_format(cmd, o->format, {report::Format::table, report::Format::json});
  return {cmd, printing(o, &cli::run_trace)};
}

Command add_a2a(CLI::App& app) {
  auto o = options<cli::A2aOptions>();
  auto* cmd = app.add_subcommand(
      "a2a", "One expert-parallel dispatch + combine (DeepEP modes) on a simulated cluster");
  add_network_flags(cmd, o->network, "nodes (default: the EP group's)", "mpft");
  cmd->add_option("--model", o->model, "MoE model preset (experts, groups, top-k, hidden)");
  cmd->add_option("--ep", o->ep, "Expert-parallel GPUs (must divide the routed experts)");
  cmd->add_option("--tokens", o->tokens, "Tokens per GPU");
  cmd->add_option("--hidden", o->hidden, "Hidden size of the payload (default: the model's)");
  cmd->add_option("--topk", o->topk, "Experts per token (default: the model's)");
  cmd->add_option(
      "--node-limit", o->node_limit,
      "Expert groups per token M (default: the model's; a group is a node's experts when "
      "EP spans as many nodes as the model has groups; the model's count lifts it)");
  cmd->add_option("--mode", o->mode,
                  "deepep-normal (two-hop), direct, deepep-low-latency (pure RDMA) or "
                  "deepep-low-latency-nvlink (intra-node over NVLink), as in scenarios")
      ->check(CLI::IsMember(
          {"deepep-normal", "direct", "deepep-low-latency", "deepep-low-latency-nvlink"}));
  cmd->add_option("--dispatch", o->dispatch, "Dispatch payload: fp8 or bf16")
      ->check(CLI::IsMember({"fp8", "bf16"}));
  cmd->add_option("--combine", o->combine, "Combine payload: bf16 or logfmt-N");
  cmd->add_option("--gate-hidden", o->gate_hidden,
                  "Width of the synthetic gate (routing statistics only)");
  cmd->add_option("--zipf", o->zipf, "Topic popularity skew of the synthetic tokens");
  cmd->add_option("--strength", o->strength,
                  "Logit lift of a topic's experts (0: tokens route at random, as DeepEP's tests)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--balance-steps", o->balance_steps,
                  "Bias-balancing steps before routing (0: no bias)");
  cmd->add_option("--sms", o->sms, "SMs the communication kernels hold");
  cmd->add_option("--sm-copy-rate", o->sm_copy_rate,
                  "Copy rate per SM, e.g. 8GBps (caps what a GPU sends; default: no cap)");
  cmd->add_option("--spread", o->spread,
                  "even (adaptive routing), hashed (per-flow ECMP, RoCE), dmodk (InfiniBand's "
                  "destination-based tables), ftree, minhop or updn (OpenSM's engines' "
                  "tables), valiant or ugal (Slim Fly and Dragonfly: "
                  "non-minimal)");
  cmd->add_option("--seed", o->seed, "Seed of the synthetic gate and tokens");
  cmd->add_flag("--bench", o->bench, "Print routing, platform and simulation times, memory");
  add_format(cmd, o->format, {report::Format::table, report::Format::json});
  return {cmd, printing(o, &cli::run_a2a)};
}

Command add_collective(CLI::App& app) {
  auto o = options<cli::CollectiveOptions>();
  auto* cmd = app.add_subcommand(
      "collective", "Time and bus bandwidth of a collective per message size (as NCCL tests)");
  add_network_flags(cmd, o->network, "nodes (default: enough for the GPUs)", "");
  cmd->add_option("--kind", o->kind, "all-reduce, all-gather, reduce-scatter, all-to-all or send");
  cmd->add_option("--algorithm", o->algorithm,
                  "auto (NCCL's choice per size, the default), ring, tree, nvls, direct or "
                  "hierarchical (as NCCL_ALGO forces one)");
  cmd->add_option("--gpus", o->gpus, "Ranks: the first N GPUs");
  cmd->add_option("--sizes", o->sizes, "Message sizes, comma-separated (NCCL tests' size)");
  cmd->add_option("--spread", o->spread,
                  "even, hashed, dmodk, ftree, minhop, updn, valiant or ugal (as for a2a)");
  cmd->add_option("--max-memory-mb", o->max_memory_mb,
                  "Refuse a sweep whose simulation would need more memory (default 4096)")
      ->check(kPositive);
  cmd->add_flag("--bench", o->bench, "Print simulation time and memory");
  add_format(cmd, o->format, {report::Format::table, report::Format::json});
  return {cmd, printing(o, &cli::run_collective)};
}

Command add_schedule(CLI::App& app) {
  auto o = options<cli::ScheduleOptions>();
  auto* cmd = app.add_subcommand(
      "schedule", "A pipeline schedule's chunks per rank, chart, bubble and activations");
  cmd->add_option("--method", o->method, "1f1b, zb1p, dualpipe, dualpipev or interleaved-1f1b");
  cmd->add_option("--pp", o->pp, "Pipeline ranks (devices)");
  cmd->add_option("--virtual-stages", o->virtual_stages, "Stages per rank (interleaved-1f1b)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--chunks", o->chunks, "Micro-batches");
  cmd->add_option("--f", o->f, "A forward chunk, e.g. 1ms");
  cmd->add_option("--b", o->b, "A whole backward chunk (input + weight parts)");
  cmd->add_option("--w", o->w, "The weight part of a backward chunk");
  cmd->add_option("--fb", o->fb, "An overlapped forward + backward pair");
  cmd->add_option("--width", o->width, "Chart columns (default: 4 per forward)");
  add_format(cmd, o->format, {report::Format::table, report::Format::json});
  return {cmd, printing(o, &cli::run_schedule)};
}

}  // namespace codesim::cli
