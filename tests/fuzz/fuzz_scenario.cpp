// libFuzzer target: scenario YAML text -> Scenario, and its sweep: section -> checked points.
// Input errors are expected; anything else (a crash, a sanitizer report, another exception) is a
// bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/config/loader.hpp"
#include "sim/config/sweep.hpp"
#include "sim/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // A path inside the fuzz directory: includes resolve to nothing that exists.
  const std::string path = "/nonexistent/fuzz/scenario.yaml";
  try {
    codesim::config::load_scenario_text(text, path);
  } catch (const codesim::core::InputError&) {
  }
  try {
    const auto flat = codesim::config::read_scenario_text(text, path);
    if (const auto sweep = codesim::config::read_sweep(flat); sweep && sweep->points.size() <= 64) {
      codesim::config::load_sweep_points(flat, path, *sweep);
    }
  } catch (const codesim::core::InputError&) {
  }
  return 0;
}
