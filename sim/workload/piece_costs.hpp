// Stage 2 of a training step's assembly (step_program.hpp): every compute piece of every layer
// and of the head and the embedding priced once, alone and with communication holding SMs, from
// the step's spec.
#pragma once

#include <map>
#include <vector>

#include "models/cost/clock_model.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/piece_id.hpp"
#include "sim/workload/schedule.hpp"
#include "sim/workload/software_stack.hpp"
#include "sim/workload/stage_placement.hpp"
#include "sim/workload/step_shape.hpp"

namespace codesim::workload {

// Bytes per weight element a micro-batch's gradient accumulation moves (KernelContext): its new
// BF16 gradient read, the step's buffer (of the gradients' precision) read and written, as
// Megatron-LM's main_grad and autograd's .grad add them. 0 with one micro-batch, with gradients
// sharded (ZeRO-2 and 3 reduce-scatter each micro-batch's: what is added is the shard, left
// out), and for `deepseek`, whose trace's weight-gradient pieces hold what its stack runs.
double gradient_accumulation_bytes(const StepShape& shape, SoftwareStack stack);

struct StepSpec;

// Compute times of one layer's pieces (or the head's), with and without communication holding
// SMs (`comm_sms` of the step: DeepEP's while it overlaps compute).
struct LayerTimes {
  bool moe = false;  // its FFN is routed experts spread by expert parallelism (ep > 1)
  std::map<PieceId, core::Seconds> alone;
  std::map<PieceId, core::Seconds> overlapped;
  std::map<PieceId, cost::Work> work;  // alone, at the top clock, by kind of work

  const std::map<PieceId, core::Seconds>& times(bool with_comm) const {
    return with_comm ? overlapped : alone;
  }
};

struct PieceCosts {
  std::vector<LayerTimes> layers;    // per transformer layer
  LayerTimes head;                   // the output head and MTP modules
  LayerTimes embedding;              // the token embedding's lookup (F) and gradient (W)
  core::Seconds combine_b_overhead;  // combine(B)'s cast before its transfer

  // A layer's forward (attention + FFN), the embedding's and the head's, alone: what layer
  // placement balances.
  StageCosts stage_costs() const;
};

// `layer_clock`: each layer's SM clock over the top one (empty: the top clock), `head_clock` the
// head's.
PieceCosts price_pieces(const StepSpec& s, const std::vector<double>& layer_clock = {},
                        double head_clock = 1);

// The kernels' work of `rank` in one step at the top clock: the pieces of every chunk of its
// schedule (a forward chunk runs its stage's layers' F pieces and the head's, a backward B and
// W, ...), alone.
cost::Work rank_work(const PieceCosts& costs, const PipelineSchedule& schedule,
                     const std::vector<StageLayers>& placement, int rank);

}  // namespace codesim::workload
