// The parallelism a communication serves: expert (all-to-all dispatch and combine), pipeline
// (sends between stages), data (gradient and parameter synchronization) or tensor (the TP
// group's all-gathers, reduce-scatters and all-reduces of activations).
#pragma once

#include <array>
#include <string_view>

namespace codesim::metrics {

enum class CommGroup { ep, pp, dp, tp };
inline constexpr std::array kCommGroups = {CommGroup::ep, CommGroup::pp, CommGroup::dp,
                                           CommGroup::tp};

// "EP", "PP", "DP", "TP".
std::string_view comm_group_name(CommGroup g);

}  // namespace codesim::metrics
