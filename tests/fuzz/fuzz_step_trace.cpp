// libFuzzer target: StepTrace JSON reader (with its validation).
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/core/error.hpp"
#include "sim/workload/step_trace_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    codesim::workload::parse_step_trace(text, "fuzz.json");
  } catch (const codesim::core::InputError&) {
  }
  return 0;
}
