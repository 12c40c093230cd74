// The small DeepSeek-V3 step of tests/scenarios/small-step.yaml with overrides, run as a user
// would: shared by the run tests and the what-if sense tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {

// The small step with `overrides` (YAML) on top, run, as JSON.
inline nlohmann::json run_variant(const std::string& overrides) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("codesim_run_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "variant.yaml";
  std::ofstream(file) << "include: " CODESIM_SOURCE_DIR "/tests/scenarios/small-step.yaml\n"
                      << overrides << "\n";
  const auto r = run_codesim("run '" + file.string() + "' --format json");
  fs::remove_all(dir);
  EXPECT_EQ(r.exit_code, 0) << overrides << "\n" << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

inline double s(const nlohmann::json& j, const char* key) {
  return j[key].get<double>();
}

}  // namespace codesim::testing
