// libFuzzer target: model config JSON in both spellings.
#include <cstddef>
#include <cstdint>
#include <string>

#include "models/llm/analytics.hpp"
#include "models/llm/config_json.hpp"
#include "sim/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto m = codesim::llm::parse_model_config(text, "fuzz.json");
    if (static_cast<double>(m.layers) * m.hidden <
        1e7) {  // analytics too, when small enough to be quick
      codesim::llm::analyze(m, 128);
    }
  } catch (const codesim::core::InputError&) {
  }
  return 0;
}
