// libFuzzer target: scenario YAML text -> Scenario. Input errors are expected; anything else
// (a crash, a sanitizer report, another exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    // A path inside the fuzz directory: includes resolve to nothing that exists.
    codesim::config::load_scenario_text(text, "/nonexistent/fuzz/scenario.yaml");
  } catch (const codesim::core::InputError&) {
  }
  return 0;
}
