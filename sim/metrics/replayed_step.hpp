// A replayed training step as the run's figures read it, in plain values: when each task ran,
// which distinct transfer each communication task moved, and the step's bytes per directed link
// with the link's name, tier and bandwidth. Either tier's replay hands this over
// (comm::replayed_step), so metrics needs neither SimGrid nor the router.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/core/units.hpp"

namespace codesim::metrics {

struct TaskSpan {
  core::Seconds start;
  core::Seconds end;
};

struct DirectedLink {
  std::string name;  // "ib nic_n0_0 -> leaf0"; empty when it carried nothing
  int tier = 0;      // in ReplayedStep::tier_names ("ib leaf -> spine": link kind, ends' kinds)
  // The kinds of its two ends in its direction (topologies::VertexKind, GPU side lowest): tiers
  // are ordered by them, each tier's upward direction before its downward one.
  std::pair<int, int> ends;
  core::BytesPerSecond bandwidth;
  core::Bytes bytes;  // over the step
};

struct ReplayedStep {
  std::vector<TaskSpan> tasks;        // per task of the program
  std::vector<int> transfer_of_task;  // per task: its distinct transfer, or -1
  std::vector<DirectedLink> links;    // every directed link of the topology
  std::vector<std::string> tier_names;
  // Per distinct transfer: the directed links it loads, ascending.
  std::vector<std::vector<int>> links_of_transfer;
  // What each GPU of the first rank's EP group sends into the scale-out network (over PCIe to
  // its NIC), on average.
  core::Bytes ib_bytes_per_gpu;
};

}  // namespace codesim::metrics
