// A training step program as the stream program either tier replays: three streams per pipeline
// rank (compute, communication, data-parallel communication), compute tasks for their modelled
// durations, communication tasks as transfers among the GPUs that take part. Folding: the program
// is one data-parallel replica's pipeline; its communication involves the real peers:
//
//   GPUs of pipeline rank r:   r x G .. r x G + G - 1, G = GPUs / PP (the replicas of rank r)
//   EP dispatch / combine:     the EP group of replica 0 (the first ep of them), with a routing
//                              plan's bytes scaled from its sampled tokens to the micro-batch's
//   PP send r -> r':           replica 0's GPU of r to replica 0's GPU of r'
//   DP reduce-scatter / gather: ring over the G replicas of rank r (dense parameters), or over
//                              the G / ep replicas holding the same experts
//
// The other replicas run the same program at the same time; their EP groups (other nodes) and
// pipeline sends (other planes) do not share links with replica 0's on a fat tree, so they are
// not simulated; the report says so.
#pragma once

#include <optional>
#include <vector>

#include "models/kernels/routing_plan.hpp"
#include "sim/comm/expert_parallel.hpp"
#include "sim/comm/transfer.hpp"
#include "sim/core/note.hpp"
#include "sim/workload/step_program.hpp"
#include "topologies/traffic.hpp"

namespace codesim::comm {

// What the replay needs beside the program: the step's shape (G = shape.gpus_per_rank(); a rank's
// TP group is its first tp GPUs, consecutive: one node; its CP group every tp-th of its first
// tp x cp GPUs; its EP group its first ep GPUs; each of them dispatches shape.tokens_per_gpu()
// tokens) and how expert parallelism moves them.
struct StepNetwork {
  workload::StepShape shape;
  EpMode mode = EpMode::deepep_normal;
  EpPayload payload;
  // Routing plans over `ep` GPUs; (layer, micro-batch) uses plans[(7 x layer + micro-batch) mod
  // plans.size()], so that layers and micro-batches route differently.
  std::vector<kernels::RoutingPlan> plans;
  int plan_tokens_per_gpu = 1;                        // tokens per GPU the plans were routed with
  std::optional<core::BytesPerSecond> ep_sender_cap;  // comm SMs x copy rate per SM
  int ep_sms = 20;                                    // SMs the EP kernels hold (comm SMs)
  EpKernelRates ep_rates;  // DeepEP's kernels as the software stack runs them
};

// A replayed step: each task's times and the distinct transfers they ran.
struct StepTimeline {
  std::vector<TaskTiming> tasks;      // per task of the program
  std::vector<int> transfer_of_task;  // per task: index in `transfers`, or -1
  std::vector<Transfer> transfers;    // the distinct transfers routed
};

// The program's tasks on their streams, each communication task naming a distinct transfer
// (built once per distinct key, its flows routed on `router`'s topology).
StreamProgram step_stream_program(const topologies::TrafficRouter& router,
                                  const workload::StepProgram& program, const StepNetwork& network);

// A stream program and its tasks' times (from either tier) as the step's timeline.
StepTimeline step_timeline(StreamProgram sp, std::vector<TaskTiming> tasks);

// What the replay folds (one replica's pipeline stands for all), how it scales the routing plans
// to the micro-batch, and the sender cap it assumes.
std::vector<core::Note> replay_notes(const workload::StepProgram& program,
                                     const StepNetwork& network);

}  // namespace codesim::comm
