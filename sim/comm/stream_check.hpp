// Checks a program of streams before either tier runs it, and orders its tasks.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/comm/transfer.hpp"
#include "sim/core/list_schedule.hpp"

namespace codesim::comm {

// The program as the list scheduler's graph (core/list_schedule.hpp): streams as queues.
core::TaskGraph task_graph(const StreamProgram& program);

// Tasks on one stream each, dependencies and transfers in range, no cycle through stream orders
// and dependencies. Throws core::SimulationError.
void check_stream_program(const StreamProgram& program);

// The tasks in an order that runs each after its stream predecessor and its dependencies (the
// program must have passed check_stream_program).
std::vector<int> stream_program_order(const StreamProgram& program);

}  // namespace codesim::comm
