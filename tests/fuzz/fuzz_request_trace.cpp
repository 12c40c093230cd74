// libFuzzer target: a serving request trace (CSV), then the serving loop over what it reads.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/core/error.hpp"
#include "sim/serve/request_trace.hpp"
#include "sim/serve/serving_loop.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto requests = codesim::serve::parse_request_trace(text, "fuzz.csv");
    if (requests.size() > 200) {
      requests.resize(200);
    }
    // The loop's steps grow with the tokens: keep each request short (the parser saw them all).
    for (auto& r : requests) {
      r.prompt_tokens = std::min(r.prompt_tokens, 65'536);
      r.cached_tokens = std::min(r.cached_tokens, r.prompt_tokens);
      r.output_tokens = std::min(r.output_tokens, 4096);
    }
    using codesim::core::Seconds;
    codesim::serve::run_serving(
        requests, {.decode_kv_tokens = 1e7},
        {.prefill = [](int tokens, int) { return Seconds(1e-3 + tokens * 1e-7); },
         .decode = [](int requests, int) { return Seconds(1e-3 + requests * 1e-5); },
         .kv_transfer = [](int) { return Seconds(1e-4); }});
  } catch (const codesim::core::InputError&) {
  } catch (const codesim::core::KeyedError&) {
  }
  return 0;
}
