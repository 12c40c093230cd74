// Checks a program of streams before either tier runs it, and orders its tasks.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/comm/transfer.hpp"

namespace codesim::comm {

// Kahn's algorithm over a graph given by its successor lists: its nodes in an order that puts
// each after its predecessors; fewer than all of them when the graph has a cycle.
std::vector<int> topological_order(const std::vector<std::vector<std::size_t>>& next);

// Tasks on one stream each, dependencies and transfers in range, no cycle through stream orders
// and dependencies. Throws core::SimulationError.
void check_stream_program(const StreamProgram& program);

// The tasks in an order that runs each after its stream predecessor and its dependencies (the
// program must have passed check_stream_program).
std::vector<int> stream_program_order(const StreamProgram& program);

}  // namespace codesim::comm
