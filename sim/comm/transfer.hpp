// A transfer: one communication phase (a collective's step, a dispatch, a pipeline send) that the
// engine runs as one SimGrid parallel task, and when it ran.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/units.hpp"
#include "topologies/traffic.hpp"

namespace codesim::comm {

struct Transfer {
  std::string name;
  std::vector<topologies::Flow> flows;
  topologies::EveryPair every_pair;  // besides the flows (an all-to-all as one term)
  // Identical phases one after another (the steps of a ring), each paying the latency; run as
  // one phase of repeat x the bytes after repeat x the latency (a ring's steps are pipelined).
  int repeat = 1;
  // Latencies paid one after another before the bytes move; 0: one per repeat (a ring). A tree
  // pays its depth up and down once, whatever it carries.
  int latency_steps = 0;
  // The ways the library can make the call (NCCL's protocols; one for a DeepEP kernel), each a
  // fixed cost (launch, setup) and the fraction of the bytes it moves that is payload: the
  // library's own pick (chosen_call) where it is given, else the one whose fixed cost + time
  // alone is least. Empty: nothing added.
  struct Call {
    core::Seconds fixed_cost;
    double efficiency = 1;
  };
  std::vector<Call> calls;
  // The call the library itself picks (NCCL's tuner; sim/comm/nccl_tuner.hpp), an index in
  // `calls`; -1: the least time.
  int chosen_call = -1;
  // Payload over what the links could carry meanwhile (NCCL's protocol and channel overheads,
  // measured per collective): the links carry bytes / efficiency.
  double efficiency = 1;
  core::Seconds not_before;  // earliest start
  std::vector<int> after;    // indices of the transfers that must end first
  // The copy rate of the SMs a GPU's communication kernel holds: a GPU cannot send faster.
  std::optional<core::BytesPerSecond> sender_cap;
  // DeepEP's internode normal kernels: what a GPU's forwarding SMs send over NVLink (the tokens
  // RDMA brought and its own node's), a cap on its NVLink flows beside the sender cap (other SMs
  // do the RDMA sends meanwhile).
  std::optional<core::BytesPerSecond> forward_cap;
};

struct TransferTiming {
  core::Seconds start;
  core::Seconds end;
  core::Seconds latency;  // per repeat: the longest path latency of its flows
  core::Seconds wait;     // before its bytes move: the fixed cost and every latency step
  // The transfer alone on the network: the bytes of its most loaded link over that link's
  // bandwidth (per repeat), and which directed link of the topology that is (-1 when nothing
  // moves or when the senders' SMs, not a link, bound it).
  core::Seconds alone_bandwidth_time;
  int bottleneck = -1;
  int call = -1;  // which of the transfer's calls was used (-1: none given)
};

// A program of streams (a GPU's compute and communication streams, for instance): each stream
// runs its tasks in order; a task starts when its stream is free and its dependencies have
// ended, takes `duration` on its stream, then runs its transfer if it names one.
struct StreamTask {
  core::Seconds duration;
  int transfer = -1;  // index in StreamProgram::transfers; -1: none
  std::vector<int> deps;
};

struct StreamProgram {
  std::vector<StreamTask> tasks;
  std::vector<std::vector<int>> streams;  // task indices per stream, in order
  // Routed once, run each time a task names one (their not_before, after and repeat > 1 are
  // not used here).
  std::vector<Transfer> transfers;
};

struct TaskTiming {
  core::Seconds start;  // when its stream began it (after its dependencies)
  core::Seconds end;
};

}  // namespace codesim::comm
