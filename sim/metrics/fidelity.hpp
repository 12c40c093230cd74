// The simulation tiers, by name.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace codesim::metrics {

// Which tier timed the step: SimGrid with links shared among concurrent transfers (full), or
// the analytic critical path with each transfer timed alone (fast).
enum class Fidelity { full, fast };
inline std::string fidelity_name(Fidelity f) {
  return f == Fidelity::fast ? "fast" : "full";
}
// The tier a name spells ("full" or "fast"); none for any other.
inline std::optional<Fidelity> fidelity_from_name(std::string_view name) {
  for (const Fidelity f : {Fidelity::full, Fidelity::fast}) {
    if (fidelity_name(f) == name) {
      return f;
    }
  }
  return std::nullopt;
}

}  // namespace codesim::metrics
