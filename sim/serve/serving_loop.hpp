// The request-level serving loop: a discrete-event simulation of prefill and decode instances
// (prefill-decode disaggregation), each running steps back to back while it has work.
//
//   arrival      the request joins the prefill instance with the fewest prompt tokens queued
//   prefill      chunked: a step computes up to `prefill_chunk_tokens` new prompt tokens, taken
//                first come first served, a request's prompt possibly over several steps; its
//                prefix-cache hits are not computed (its last token always is: the logits). The
//                step that ends a prompt emits the request's first token.
//   KV transfer  the prompt's KV cache to the decode instance with the fewest tokens reserved and
//                waiting (`kv_transfer`), while the prefill instance goes on
//   decode       continuous batching: at each step boundary waiting requests are admitted, first
//                come first served, while the batch has a slot and the KV cache has room for the
//                request's prompt and all its output (reserved at admission, so nothing is ever
//                evicted; a request that does not fit waits); every admitted request gains one
//                token per step and leaves with its last
// Step times come from `StepCosts` (the study prices them with the inference model).
#pragma once

#include <functional>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/serve/request.hpp"

namespace codesim::serve {

struct StepCosts {
  // A prefill step computing `tokens` new prompt tokens of requests whose prompts average
  // `prompt` tokens.
  std::function<core::Seconds(int tokens, int prompt)> prefill;
  // A decode step of `requests` requests whose KV caches average `context` tokens.
  std::function<core::Seconds(int requests, int context)> decode;
  // The KV cache of a prompt of `tokens` from its prefill instance to its decode instance.
  std::function<core::Seconds(int tokens)> kv_transfer;
};

struct ServingSpec {
  int prefill_instances = 1;
  int decode_instances = 1;
  int prefill_chunk_tokens = 8192;  // new prompt tokens per prefill step of an instance
  int decode_max_requests = 256;    // requests a decode instance batches
  double decode_kv_tokens = 1e6;    // KV-cache tokens a decode instance holds
};

struct RequestOutcome {
  core::Seconds arrival;
  core::Seconds first_token;  // the prefill's end
  core::Seconds finish;       // the last token
  int output_tokens = 1;
  // Time per output token after the first: (finish - first token) / (output - 1); 0 for one.
  core::Seconds tpot() const {
    return output_tokens > 1 ? (finish - first_token) / static_cast<double>(output_tokens - 1)
                             : core::Seconds(0);
  }
};

struct ServingRun {
  std::vector<RequestOutcome> requests;  // in the order given
  core::Seconds start;                   // the first arrival
  core::Seconds end;                     // the last finish: every request drained
  // Requests arrived and not finished, averaged over [start, end] (integrated event by event).
  double mean_in_flight = 0;
  double prefill_busy = 0;  // fraction of the prefill instances' time spent in steps
  double decode_busy = 0;
  long long prefill_steps = 0;
  long long decode_steps = 0;
  double mean_decode_batch = 0;  // requests per decode step
  long long waited_for_kv = 0;   // requests that waited for decode KV-cache room or a slot
  int peak_decode_waiting = 0;
};

// The fewest steps the loop can take over `requests`, counted before it runs: each request's
// computed prompt tokens (at least one) in whole-instance chunks, and its output after the first
// token one per decode step, at most `decode_max_requests` requests a step. The study refuses a
// run whose bound is past its budget.
struct StepBound {
  double prefill_tokens = 0;  // computed prompt tokens of every request
  double decode_tokens = 0;   // output tokens after each request's first
  long long prefill_steps = 0;
  long long decode_steps = 0;
  long long steps() const { return prefill_steps + decode_steps; }
};
StepBound least_steps(const std::vector<Request>& requests, const ServingSpec& spec);

// `requests` in order of arrival. Throws core::KeyedError (key "serve.decode") when a request
// needs more KV cache (prompt + output tokens) than a decode instance holds, and
// std::invalid_argument for arrivals out of order or a spec without instances.
ServingRun run_serving(const std::vector<Request>& requests, const ServingSpec& spec,
                       const StepCosts& costs);

}  // namespace codesim::serve
