// Names of the communication groups (RunResult itself is plain data).
#include "sim/metrics/run_result.hpp"

namespace codesim::metrics {

std::string_view comm_group_name(CommGroup g) {
  switch (g) {
    case CommGroup::ep:
      return "EP";
    case CommGroup::pp:
      return "PP";
    case CommGroup::dp:
      return "DP";
  }
  return "?";
}

}  // namespace codesim::metrics
