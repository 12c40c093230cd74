// The fast tier: a stream program timed without SimGrid.
//
// Each task starts when its stream is free and its dependencies have ended, as in
// Platform::run_streams, and takes its duration, then its transfer's time alone on the network:
//
//   repeat x latency + max(repeat x bytes of its most loaded link / that link's bandwidth,
//                          repeat x its busiest sender's bytes / the sender cap)
//
// which is what the full tier gives a transfer that shares no link while it runs. Transfers that
// overlap in time do not slow each other here: link sharing is what this tier leaves out.
#pragma once

#include <vector>

#include "sim/comm/transfer.hpp"
#include "topologies/traffic.hpp"

namespace codesim::fast {

// Throws core::SimulationError, as Platform::run_streams does, for a program that cannot run.
std::vector<comm::TaskTiming> run_streams_analytic(const comm::StreamProgram& program,
                                                   const topologies::TrafficRouter& router);

}  // namespace codesim::fast
