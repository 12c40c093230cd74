// A piece's kernels as a software stack runs them: the op tables' kernels (piece_kernels.hpp),
// less the token permutes where the stack moves tokens its own way, plus the stack's inventory
// (software_stack.hpp) for this piece, with bytes from the piece's shapes.
#pragma once

#include <vector>

#include "models/llm/llm_spec.hpp"
#include "sim/workload/piece_kernels.hpp"
#include "sim/workload/software_stack.hpp"

namespace codesim::workload {

std::vector<PieceKernel> stack_kernels(const StackInventory& stack, const llm::LlmSpec& m,
                                       PieceId piece, const KernelContext& c,
                                       const llm::LayerKind& layer);

}  // namespace codesim::workload
