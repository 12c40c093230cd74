// The data files the repository carries that tests read: DeepSeek's profile trace, and the
// measurements under models/calibration/ that tests compare the models with.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace codesim::testing {

// One overlapped forward & backward pair of 4 MoE layers on H800, as DeepSeek profiled it
// (provenance: models/calibration/deepseek-h800/README.md).
inline const std::string kTrainTrace =
    CODESIM_SOURCE_DIR "/models/calibration/deepseek-h800/train.json";

// models/calibration/<relative>, parsed; throws std::runtime_error naming it when it cannot be
// read.
inline nlohmann::json calibration_data(const std::string& relative) {
  std::ifstream in(CODESIM_SOURCE_DIR "/models/calibration/" + relative);
  if (!in.good()) {
    throw std::runtime_error("cannot read models/calibration/" + relative);
  }
  return nlohmann::json::parse(in);
}

}  // namespace codesim::testing
