// The parallelism a communication serves: expert (all-to-all dispatch and combine), pipeline
// (sends between stages) or data (gradient and parameter synchronization).
#pragma once

#include <array>
#include <string_view>

namespace codesim::metrics {

enum class CommGroup { ep, pp, dp };
inline constexpr std::array kCommGroups = {CommGroup::ep, CommGroup::pp, CommGroup::dp};

// "EP", "PP", "DP".
std::string_view comm_group_name(CommGroup g);

}  // namespace codesim::metrics
