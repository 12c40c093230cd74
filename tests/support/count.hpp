// Counting in test outputs.
#pragma once

#include <string>

namespace codesim::testing {

// Occurrences of `what` in `text` (overlapping ones too).
inline int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

}  // namespace codesim::testing
