// Names of the communication groups.
#include "sim/metrics/comm_group.hpp"

namespace codesim::metrics {

std::string_view comm_group_name(CommGroup g) {
  switch (g) {
    case CommGroup::ep:
      return "EP";
    case CommGroup::pp:
      return "PP";
    case CommGroup::dp:
      return "DP";
    case CommGroup::tp:
      return "TP";
    case CommGroup::cp:
      return "CP";
  }
  return "?";
}

}  // namespace codesim::metrics
