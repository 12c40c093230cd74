// PyTorch profiler (Kineto) Chrome trace -> StepTrace of the profiled rank.
//
// GPU kernels (cat "kernel", "gpu_memcpy", "gpu_memset"; ph "X", or "B"/"E" pairs) become ops on
// their stream, in time order, with measured start and duration. Each kernel's launch (the CPU
// cuda_runtime/cuda_driver event with the same correlation id) falls inside CPU user_annotation
// ranges; the innermost one named like a piece, "attn(F)", "dispatch(B)", "mlp(W)", tags it (phase
// from the suffix, layer = how many times that piece came before). Dependencies beyond stream
// order come from the pieces' data flow: forward pieces chain in program order, so do backward
// (input-gradient) pieces, and a weight-gradient piece follows the backward piece of the same
// name; the first kernel a piece runs on each stream waits for the last kernels of the piece it
// follows (on other streams).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/workload/step_trace.hpp"

namespace codesim::workload {

// Traces larger than this are refused unless the caller raises the budget (1 GiB: the importer
// holds the parsed JSON, several times the file, in memory).
inline constexpr std::uintmax_t kDefaultTraceBudget = std::uintmax_t{1} << 30;

// Throws core::InputError with file, line, column and key path for a malformed trace.
StepTrace import_chrome_trace(std::string_view text, const std::string& file);
// Refuses, before reading it, a file larger than `max_bytes`.
StepTrace import_chrome_trace_file(const std::string& path,
                                   std::uintmax_t max_bytes = kDefaultTraceBudget);

}  // namespace codesim::workload
