// Small integer arithmetic shared by the counting code.
#pragma once

#include <concepts>

namespace codesim::core {

// a / b rounded up, for a >= 0 and b > 0: how many groups of b hold a items.
template <std::integral T>
constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

}  // namespace codesim::core
