// A task of a training step's program: what runs on which rank and stream, for how long or
// moving what (CommRef), and what it waits for.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/workload/piece_id.hpp"
#include "sim/workload/schedule.hpp"

namespace codesim::workload {

enum class CommKind {
  ep_dispatch,
  ep_combine,
  pp_send,
  dp_reduce_scatter,
  dp_all_gather,
  tp_all_gather,
  tp_reduce_scatter,
  tp_all_reduce,
  cp_all_gather,
  cp_reduce_scatter
};
std::string_view comm_kind_name(CommKind k);

struct CommRef {
  CommKind kind = CommKind::pp_send;
  int stage = -1;        // EP, DP: the stage whose group communicates
  int layer = -1;        // EP: picks the routing plan
  int micro_batch = -1;  // EP: picks the routing plan
  int direction = 0;
  bool gradient = false;  // EP: backward (dispatch(B) moves combine(F)'s bytes back, ...)
  int from_rank = -1;     // PP: pipeline ranks
  int to_rank = -1;
  core::Bytes bytes;     // PP: the message; DP: each rank's buffer
  bool experts = false;  // DP: expert parameters (synchronized across EP groups only)
};

// Per rank: computation; EP, PP, TP and CP communication; data-parallel communication.
enum class StepStream { compute = 0, comm = 1, data_parallel = 2 };
inline constexpr int kStepStreams = 3;

struct StepTask {
  int id = 0;
  int rank = 0;
  StepStream stream = StepStream::compute;
  core::Seconds duration;       // compute (or the communication stream's own kernels)
  std::optional<CommRef> comm;  // a transfer; its time comes from the network
  std::vector<int> deps;        // tasks it waits for besides its stream predecessor
  PieceId piece;                // attn(F), dispatch(B), send(F), recv(B), optimizer, ...
  int chunk = -1;               // index in the rank's schedule chunk list; -1 after the chunks
  ChunkKind chunk_kind = ChunkKind::forward;
};

// Task `id` of `rank` on `stream` in `chunk` of the rank's schedule (-1 after the chunks); of
// `deps` it keeps those that exist (>= 0).
inline StepTask make_step_task(int id, int rank, StepStream stream, core::Seconds duration,
                               PieceId piece, const std::vector<int>& deps,
                               std::optional<CommRef> comm, int chunk = -1,
                               ChunkKind chunk_kind = ChunkKind::forward) {
  StepTask t{.id = id,
             .rank = rank,
             .stream = stream,
             .duration = duration,
             .comm = std::move(comm),
             .piece = piece,
             .chunk = chunk,
             .chunk_kind = chunk_kind};
  for (int d : deps) {
    if (d >= 0) {
      t.deps.push_back(d);
    }
  }
  return t;
}

}  // namespace codesim::workload
