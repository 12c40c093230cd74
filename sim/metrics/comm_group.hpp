// The parallelism a communication serves: expert (all-to-all dispatch and combine), pipeline
// (sends between stages), data (gradient and parameter synchronization) or tensor (the TP
// group's all-gathers, reduce-scatters and all-reduces of activations) or context (keys and
// values gathered over the CP group).
#pragma once

#include <array>
#include <string_view>

namespace codesim::metrics {

enum class CommGroup { ep, pp, dp, tp, cp };
inline constexpr std::array kCommGroups = {CommGroup::ep, CommGroup::pp, CommGroup::dp,
                                           CommGroup::tp, CommGroup::cp};

// "EP", "PP", "DP", "TP", "CP".
std::string_view comm_group_name(CommGroup g);

}  // namespace codesim::metrics
