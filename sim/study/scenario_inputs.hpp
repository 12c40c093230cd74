// What the training and inference studies both take from a scenario: the routing of tokens, the
// DeepEP payload on the wire, the platform's memory check.
#pragma once

#include "models/kernels/batch_routing.hpp"
#include "sim/comm/expert_parallel.hpp"
#include "sim/config/scenario.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/metrics/step_energy.hpp"
#include "sim/study/budget.hpp"
#include "topologies/topology.hpp"

namespace codesim::study {

// Refuses (a scenario error at hardware.nodes) a topology whose SimGrid platform would need more
// than the budget, before it is built.
void check_platform_budget(const config::Scenario& s, const topologies::Topology& t,
                           const Budget& budget);

// The reference gate's routing of `tokens` over an EP group of `ep` GPUs as the scenario's routing
// section says (node limit, skew, balancing, seed), with `redundant` EPLB replicas.
kernels::BatchRoutingSpec routing_spec(const config::Scenario& s, int tokens, int ep,
                                       int redundant);

// Dispatch and combine bytes per token from workload.precision; LogFMT dispatch is refused.
comm::EpPayload ep_payload_of(const config::Scenario& s);

// DeepEP's normal kernels as the scenario's software stack runs them in training: `deepseek`'s
// internode ones (an EP group over several nodes) at the fit to its trace
// (models/calibration/deepseek-h800/fit_deepep_trace.json), the others at the model of DeepEP's
// benchmark.
comm::EpKernelRates training_ep_rates(const config::Scenario& s);

// DeepEP's buffers on each GPU of the scenario's EP group (workload::ep_buffer_bytes, by
// routing.dispatch), the low-latency ones sized for `tokens_per_rank` tokens dispatched at once.
core::Bytes ep_buffers_of(const config::Scenario& s, int tokens_per_rank);

// The scale-out network's devices and cost (topologies::measure).
metrics::NetworkUse network_use(const config::Scenario& s, const topologies::Topology& topology);

// A step's energy over the whole job (metrics::step_energy): the scenario's GPUs in
// `rank_work.size()` equal groups at their clocks, its hosts (hardware.host_power per 8 GPUs) and
// the network's NICs and switches at hardware.nic_power and switch_power.
metrics::StepEnergy job_step_energy(const config::Scenario& s,
                                    const std::vector<cost::Work>& rank_work,
                                    const std::vector<double>& clock, core::Seconds step,
                                    const metrics::NetworkUse& network, double tokens_per_step);

}  // namespace codesim::study
