// One inference request as the serving loop sees it.
#pragma once

#include "sim/core/units.hpp"

namespace codesim::serve {

struct Request {
  core::Seconds arrival;
  int prompt_tokens = 1;
  int cached_tokens = 0;  // of the prompt, found in the prefix cache: not computed again
  int output_tokens = 1;  // the first comes out of the prefill
};

}  // namespace codesim::serve
