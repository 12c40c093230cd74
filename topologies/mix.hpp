// The splitmix64 finalizer: a 64-bit mix for the router's hashed paths and its keys.
#pragma once

#include <cstdint>

namespace codesim::topologies {

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace codesim::topologies
