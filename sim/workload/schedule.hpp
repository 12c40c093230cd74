// Pipeline schedules as ordered chunk lists per pipeline rank (docs/model/deepseek-v3.md §7).
//
//   1F1B       rank r: min(R - r - 1, C) forwards, then forward/backward pairs, then the rest of
//              the backwards; a backward is whole (input and weight parts together).
//   ZB1P       the same order with the backward split: input part in place, weight part
//              deferred; rank r keeps up to r weight parts pending in the steady phase (they fill
//              the cool-down's waits), so its in-flight micro-batches stay those of 1F1B.
//   DualPipe   R ranks (R even), C micro-batches (C even, C >= 2R), half entering at each end;
//              each rank holds stage r of one direction and stage R - 1 - r of the other, and
//              runs the eight phases of §7 (forward-backward pairs overlapped; weight parts
//              deferred where §7 says so).
//   DualPipeV  R ranks holding two stages each of one 2R-stage pipeline in a V (stage r and
//              2R - 1 - r), C >= 2R micro-batches, the same eight phases with §7's counts.
//   interleaved-1f1b  Megatron's interleaved schedule: R ranks holding V stages each (stage
//              v R + r, "virtual stages"), C a multiple of R; rank r warms up with
//              2 (R - r - 1) + (V - 1) R forwards, then alternates, the k-th forward on its stage
//              (k / R) mod V and the k-th backward on V - 1 - (k / R) mod V.
//
// "Direction" is the way micro-batches travel: 0 enters at rank 0, 1 at rank R - 1 (DualPipe
// only). The k-th forward of a (direction, stage) on a rank is micro-batch k of that direction.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"

namespace codesim::workload {

enum class ScheduleMethod { one_f_one_b, zb1p, dualpipe, dualpipev, interleaved_1f1b };
// Their names in scenarios and on the command line.
inline constexpr std::array kScheduleMethodNames = {
    std::pair{ScheduleMethod::one_f_one_b, std::string_view("1f1b")},
    std::pair{ScheduleMethod::zb1p, std::string_view("zb1p")},
    std::pair{ScheduleMethod::dualpipe, std::string_view("dualpipe")},
    std::pair{ScheduleMethod::dualpipev, std::string_view("dualpipev")},
    std::pair{ScheduleMethod::interleaved_1f1b, std::string_view("interleaved-1f1b")},
};
constexpr const auto& spellings(ScheduleMethod) {
  return kScheduleMethodNames;
}
std::string_view schedule_method_name(ScheduleMethod m);  // "1f1b", "zb1p", ...

enum class ChunkKind {
  forward,
  backward,        // input and weight parts together
  backward_input,  // input part only; its weight part comes later as a `weight` chunk
  weight,
  forward_backward,  // a forward and a (whole) backward of other micro-batches, overlapped
};

// One micro-batch through one stage.
struct StageWork {
  int direction = 0;
  int stage = 0;
  int micro_batch = 0;
  bool operator==(const StageWork&) const = default;
};

struct Chunk {
  ChunkKind kind = ChunkKind::forward;
  StageWork work;      // forward, backward, backward_input, weight: what; forward_backward: the F
  StageWork backward;  // forward_backward only: the B
};

struct PipelineSchedule {
  ScheduleMethod method = ScheduleMethod::one_f_one_b;
  int ranks = 0;
  int stages = 0;         // per direction: R, 2R for DualPipeV, V R for interleaved-1f1b
  int directions = 1;     // 2 for DualPipe
  int micro_batches = 0;  // in all (DualPipe: half per direction)
  std::vector<std::vector<Chunk>> per_rank;

  // The rank that runs `stage` of `direction`.
  int rank_of(int direction, int stage) const;
  // The stages whose parameters `rank` holds (two for DualPipe and DualPipeV), ascending.
  std::vector<int> stages_of(int rank) const;
};

// A schedule whose preconditions fail; the message says which and why. It concerns the
// scenario's schedule.method.
class ScheduleError : public core::KeyedError {
 public:
  explicit ScheduleError(const std::string& message)
      : core::KeyedError("schedule.method", message) {}
};

// `ranks` is the number of pipeline ranks (devices); `virtual_stages` the stages per rank of
// interleaved-1f1b (1 for the others). Throws ScheduleError for ranks < 1 (2 for the dual
// methods), micro_batches < 1, DualPipe's and DualPipeV's conditions, and interleaved-1f1b's
// (micro-batches a multiple of the ranks).
PipelineSchedule make_schedule(ScheduleMethod method, int ranks, int micro_batches,
                               int virtual_stages = 1);

// Per rank: the most (direction, stage, micro-batch) activations held at once, from a forward's
// start to the end of its whole backward or of its weight part. Depends on the chunk order only.
std::vector<int> peak_in_flight(const PipelineSchedule& s);

}  // namespace codesim::workload
