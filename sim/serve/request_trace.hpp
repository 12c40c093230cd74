// A request trace file: CSV with the header `timestamp_s,prompt_tokens,cached_tokens,output_tokens`
// and one request per line (blank lines and lines starting with # are skipped): its arrival in
// seconds from the trace's start, its prompt, the prompt's tokens found in the prefix cache, and
// the tokens it generates. Timestamps start at 0 or later and never go back; every request has a
// prompt and an output of at least one token, and no more cached tokens than its prompt; no count
// above 10,000,000 tokens (serve.arrivals.*'s bound).
#pragma once

#include <string>
#include <vector>

#include "sim/serve/request.hpp"

namespace codesim::serve {

// Throws core::InputError located at the file, line and column of the first bad value.
std::vector<Request> read_request_trace(const std::string& path);

// The same from text already read (`file` names it in errors).
std::vector<Request> parse_request_trace(const std::string& text, const std::string& file);

}  // namespace codesim::serve
