// The names of an inference step's phase and mode, as reports write them.
#include "sim/metrics/inference_result.hpp"

namespace codesim::metrics {

std::string_view inference_phase_name(InferencePhase p) {
  return p == InferencePhase::prefill ? "prefill" : "decode";
}

std::string_view inference_mode_name(InferenceMode m) {
  return m == InferenceMode::bound ? "bound" : "model";
}

}  // namespace codesim::metrics
