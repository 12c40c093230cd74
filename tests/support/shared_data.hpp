// Paths of the shared data files the tests read (DeepSeek's profile trace).
#pragma once

#include <string>

namespace codesim::testing {

// One overlapped forward & backward pair of 4 MoE layers on H800, as DeepSeek profiled it.
inline const std::string kTrainTrace =
    CODESIM_SOURCE_DIR "/../shared/data/deepseek-profile-data/train.json";

}  // namespace codesim::testing
