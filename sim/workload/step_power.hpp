// The power governor over a training step (models/cost/clock_model.hpp): each pipeline rank runs
// its step's kernels (StepProgram::rank_work) and waits between them, steps back to back; the
// governor settles each rank's SM clock at the highest its board's power limit sustains over
// its kernels and the waits too short for the clock to recover in, and each stage runs at the
// clock of the ranks that run it.
#pragma once

#include <vector>

#include "models/cost/clock_model.hpp"
#include "models/hardware/hardware_spec.hpp"
#include "sim/core/note.hpp"
#include "sim/core/units.hpp"
#include "sim/workload/schedule.hpp"

namespace codesim::workload {

// Power of what is not a GPU, per device (scenario keys hardware.nic_power, switch_power,
// host_power; parameters.hpp declares them): all assumed, docs/model/power.md says why each.
struct FacilityPower {
  double nic_w = 25;      // per scale-out NIC
  double switch_w = 750;  // per scale-out switch
  double host_w = 4400;   // per 8 GPUs (a node of 8) besides its GPUs and NICs
};

struct StepPower {
  std::vector<cost::Governed> ranks;  // per pipeline rank, over the step
  std::vector<double> stage_clock;    // per stage: the mean clock of the ranks that run it
  bool power_bound = false;           // some rank's clock is below the top one
};

// The governed clock of `work` with `waiting` beside it (cost::govern); with `trace_clocks` (the
// kernel model's times already hold the clocks of a run at the board's default limit: DeepSeek's
// trace scales) relative to the clock at that default (a lower limit slows it, the default
// leaves it).
cost::Governed govern_stack(const cost::Work& work, core::Seconds waiting,
                            const hardware::PowerSpec& power, bool trace_clocks);

// What a report says of the power model it used: fitted to this GPU's runs, or carried from the
// H200's; and the stated power of what is not a GPU.
std::vector<core::Note> power_notes(const hardware::PowerSpec& power,
                                    const FacilityPower& facility);

// `waiting`: per rank, its compute stream's idle gaps shorter than the governor's window
// (PowerSpec::window), as simulated at the clocks before: the clock does not recover in them, so
// they count with the work; longer gaps (pipeline bubbles) let it recover and do not.
// `trace_clocks`: as govern_stack's.
StepPower govern_step(const std::vector<cost::Work>& rank_work,
                      const std::vector<core::Seconds>& waiting, const PipelineSchedule& schedule,
                      const hardware::PowerSpec& power, bool trace_clocks);

// Per rank, the sum of its compute stream's idle gaps shorter than `window` over a step of
// `step` (the gaps before its first and after its last task included), from each compute task's
// rank, start and end.
struct ComputeSpan {
  int rank = 0;
  core::Seconds start;
  core::Seconds end;
};
std::vector<core::Seconds> short_gaps(std::vector<ComputeSpan> spans, int ranks, core::Seconds step,
                                      core::Seconds window);

}  // namespace codesim::workload
