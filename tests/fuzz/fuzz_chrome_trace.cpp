// libFuzzer target: PyTorch/Kineto Chrome trace import, then the timeline summary.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/core/error.hpp"
#include "sim/workload/chrome_import.hpp"
#include "sim/workload/timeline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto t = codesim::workload::import_chrome_trace(text, "fuzz.json");
    codesim::workload::summarize(t, codesim::workload::measured_timeline(t));
  } catch (const codesim::core::InputError&) {
  }
  return 0;
}
