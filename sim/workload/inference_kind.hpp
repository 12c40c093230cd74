// Which inference step runs, and how it is priced: one vocabulary for scenarios, the inference
// model and their results, with the names scenario files and reports spell them by.
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "sim/core/named.hpp"

namespace codesim::workload {

enum class InferencePhase { prefill, decode };  // the scenario's workload.kind
enum class InferenceMode { model, bound };      // inference.mode: the kernel model or ISCA's bound

inline constexpr std::array kInferencePhaseNames{
    std::pair{InferencePhase::prefill, std::string_view("prefill")},
    std::pair{InferencePhase::decode, std::string_view("decode")}};
inline constexpr std::array kInferenceModeNames{
    std::pair{InferenceMode::model, std::string_view("model")},
    std::pair{InferenceMode::bound, std::string_view("bound")}};
constexpr const auto& spellings(InferenceMode) {
  return kInferenceModeNames;
}

inline std::string_view inference_phase_name(InferencePhase p) {
  return core::name_in(kInferencePhaseNames, p);
}
inline std::string_view inference_mode_name(InferenceMode m) {
  return core::name_in(kInferenceModeNames, m);
}

}  // namespace codesim::workload
