// StepTrace: the op DAG the simulator replays. Per rank, ordered streams of ops; each op says
// what it is (kind, class, FLOPs, bytes, dtype, SMs held), optionally how long it took when it
// was measured, what it waits for beyond its stream predecessor, and where it belongs (tags).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/cost/kernel_cost.hpp"

namespace codesim::workload {

enum class OpKind { compute, collective, send, recv };
std::string_view op_kind_name(OpKind k);

struct OpTags {
  std::string piece;  // "attn(F)", "dispatch(B)", ... (empty: none)
  char phase = 0;     // 'F', 'B' (input gradient), 'W' (weight gradient), 0: none
  int micro_batch = -1;
  int chunk = -1;
  int layer = -1;
};

struct Op {
  int id = 0;
  int rank = 0;
  int stream = 0;
  OpKind kind = OpKind::compute;
  std::string name;
  cost::KernelClass op_class = cost::KernelClass::elementwise;
  cost::DType dtype = cost::DType::bf16;
  double flops = 0;
  double bytes = 0;
  int sms = 0;                        // SMs held (communication kernels); 0: not recorded
  std::optional<double> measured_us;  // duration when measured
  std::optional<double> start_us;     // start when measured (relative to the trace's start)
  std::vector<int> deps;              // ops this one waits for besides its stream predecessor
  int peer = -1;                      // send/recv: the other rank
  int tag = -1;                       // send/recv: matches a send with its recv
  OpTags tags;
};

// Ops in stream order: within one (rank, stream), an op follows the one listed before it.
struct StepTrace {
  static constexpr int kVersion = 1;
  std::string source;  // what it was made from
  std::vector<Op> ops;
};

// Problems: duplicate ids, dependencies on unknown ops, cycles (stream order included), unmatched
// sends and recvs. Each message names the op(s).
std::vector<std::string> validate(const StepTrace& t);

}  // namespace codesim::workload
