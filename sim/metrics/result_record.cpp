// Each result struct's fields listed once, for nlohmann's to_json / from_json.
#include "sim/metrics/result_record.hpp"

#include <optional>

namespace nlohmann {

// An absent optional is null.
template <class T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& o) {
    if (o) {
      j = *o;
    } else {
      j = nullptr;
    }
  }
  static void from_json(const json& j, std::optional<T>& o) {
    if (j.is_null()) {
      o.reset();
    } else {
      o = j.get<T>();
    }
  }
};

}  // namespace nlohmann

namespace codesim::core {

template <class Tag>
void to_json(nlohmann::json& j, const Quantity<Tag>& q) {
  j = q.value;
}
template <class Tag>
void from_json(const nlohmann::json& j, Quantity<Tag>& q) {
  q.value = j.get<double>();
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Note, kind, text)

}  // namespace codesim::core

namespace codesim::metrics {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LinkUse, link, bytes, utilization, in_flight,
                                   in_flight_utilization)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TierUse, tier, links, used, bytes, mean_utilization,
                                   max_utilization, max_in_flight_utilization)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MemoryUse, parameters, gradients, optimizer, activations,
                                   peak_in_flight, capacity, backward_transient,
                                   optimizer_transient, gradients_persist, framework, ep_buffers)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(NetworkUse, family, endpoints, switches, switch_links, cost_usd)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Breakdown, forward, backward, weight, forward_backward, bubble,
                                   optimizer)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StepSpread, identical, mean, p10, p50, p90, steps, units,
                                   units_replayed, gpus, slow_gpus, slow_links, breakdown,
                                   step_times_s, step_weights)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StepEnergy, gpu_compute_j, gpu_waiting_j, network_j, host_j,
                                   per_token_j, gpu_power_w, power_limit_w, min_clock_mhz,
                                   max_clock_mhz, power_bound)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ComputeSpan, start, end, kind)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CommSpan, start, end, group)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankPower, clock_mhz, computing_w, waiting_w)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankMemory, state_bytes, activations_at_start,
                                   activations_at_end)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankLanes, compute, comm, exposed, power, memory)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RunResult, scenario, fidelity, network, step_time, spread,
                                   breakdown, tokens_per_step, tokens_per_day, tflops_causal,
                                   tflops_noncausal, mfu_causal, mfu_noncausal, hfu_causal,
                                   exposed_comm, compute_busy, median_pair, pairs_measured,
                                   ib_bytes_per_gpu, busiest_links, tiers, memory, energy,
                                   placement, notes, lanes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(InferenceResult, scenario, phase, mode, gpus, gpus_per_node, ep,
                                   tp, pp, micro_batches, tokens_per_micro_batch, context_len,
                                   step_time, tpot, tpot_without_mtp, ttft, tokens_per_s_per_gpu,
                                   tokens_per_s_per_node, tokens_per_s_per_request, attention,
                                   dense_mlp, moe, dispatch, combine, compute_busy, comm_busy,
                                   bound_by, weights_per_gpu, kv_cache_per_gpu, activations_per_gpu,
                                   activations_peak, framework, ep_buffers, hbm, largest_batch,
                                   energy, notes)

nlohmann::json record_json(const RunResult& r) {
  return r;
}

nlohmann::json record_json(const InferenceResult& r) {
  return r;
}

template <class Result>
Result from_record_json(const nlohmann::json& j) {
  return j.get<Result>();
}

namespace {

template <class Result>
std::string packed(const Result& r) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(record_json(r));
  return {bytes.begin(), bytes.end()};
}

}  // namespace

std::string pack(const RunResult& r) {
  return packed(r);
}

std::string pack(const InferenceResult& r) {
  return packed(r);
}

template <class Result>
Result unpack(std::string_view bytes) {
  return from_record_json<Result>(nlohmann::json::from_msgpack(bytes.begin(), bytes.end()));
}

template RunResult from_record_json<RunResult>(const nlohmann::json&);
template InferenceResult from_record_json<InferenceResult>(const nlohmann::json&);
template RunResult unpack<RunResult>(std::string_view);
template InferenceResult unpack<InferenceResult>(std::string_view);

}  // namespace codesim::metrics
