// A replayed step's timeline and traffic as the plain values the run's figures read
// (metrics/replayed_step.hpp): the router turns each distinct transfer into bytes per directed
// link, summed over the tasks that ran it.
#pragma once

#include "sim/comm/step_streams.hpp"
#include "sim/metrics/replayed_step.hpp"

namespace codesim::comm {

// `ep_gpus`: the first rank's EP group (GPUs 0 .. ep - 1), whose scale-out bytes are reported.
metrics::ReplayedStep replayed_step(const StepTimeline& t, const topologies::TrafficRouter& router,
                                    int ep_gpus);

}  // namespace codesim::comm
