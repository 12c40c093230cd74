#include "sim/metrics/serve_result.hpp"

namespace codesim::metrics {

std::string_view slo_verdict_name(SloVerdict v) {
  switch (v) {
    case SloVerdict::met:
      return "met";
    case SloVerdict::unmet:
      return "unmet";
    case SloVerdict::none:
      break;
  }
  return "none";
}

}  // namespace codesim::metrics
