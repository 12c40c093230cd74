// Paths of the data files the repository carries that tests read (DeepSeek's profile trace).
#pragma once

#include <string>

namespace codesim::testing {

// One overlapped forward & backward pair of 4 MoE layers on H800, as DeepSeek profiled it
// (provenance: models/calibration/deepseek-h800/README.md).
inline const std::string kTrainTrace =
    CODESIM_SOURCE_DIR "/models/calibration/deepseek-h800/train.json";

}  // namespace codesim::testing
