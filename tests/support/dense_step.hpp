// A dense BF16 training step of a preset model on H100s (1F1B, PP 4, 8192-token micro-batches,
// no SMs held by communication), for tests that vary one parallelism setting on it.
#pragma once

#include <map>
#include <string>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "sim/workload/step_program.hpp"

namespace codesim::testing {

// Every preset model, built once (a step spec points at its model).
inline const llm::LlmSpec& preset_model(const std::string& name) {
  static const std::map<std::string, llm::LlmSpec> models = [] {
    std::map<std::string, llm::LlmSpec> all;
    for (const auto& n : llm::preset_names()) {
      all.emplace(n, *llm::find_preset(n));
    }
    return all;
  }();
  return models.at(name);
}

inline workload::StepSpec dense_step(const std::string& model, int micro_batches) {
  return {.model = &preset_model(model),
          .gpu = hardware::find_preset("h100")->gpu,
          .pieces = workload::deepseek_profile(),
          .method = workload::ScheduleMethod::one_f_one_b,
          .shape = {.pp = 4, .seq_len = 8192, .micro_batches = micro_batches},
          .fp8_gemm = false,
          .comm_sms = 0};
}

}  // namespace codesim::testing
