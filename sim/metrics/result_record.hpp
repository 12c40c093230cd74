// The wire form of a simulated step: what a forked child sends its parent (study/isolated.hpp),
// a sweep stores for its points and the Python package decodes. Every field of the result,
// lanes included, exactly (MessagePack keeps each double's bits; JSON's text for point files
// keeps them too); the field names are the structs', the enums their values. Not a report: the
// reports (sim/report) render results, they are never read back.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "sim/metrics/inference_result.hpp"
#include "sim/metrics/run_result.hpp"

namespace codesim::metrics {

// As a JSON object (a sweep's point files) and back.
nlohmann::json record_json(const RunResult& r);
nlohmann::json record_json(const InferenceResult& r);
template <class Result>
Result from_record_json(const nlohmann::json& j);

// As MessagePack bytes (a child's payload) and back.
std::string pack(const RunResult& r);
std::string pack(const InferenceResult& r);
template <class Result>
Result unpack(std::string_view bytes);

// Both throw nlohmann::json::exception on a malformed record; a caller says whose it was.

}  // namespace codesim::metrics
