// The serving loop with step costs in closed form: exact timings of one request, chunked
// prefill, KV-cache queueing, Little's law; the Poisson arrivals and the percentiles.
#include "sim/serve/serving_loop.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/error.hpp"
#include "sim/serve/arrivals.hpp"
#include "sim/serve/latency_stats.hpp"

namespace codesim::serve {
namespace {

// Prefill 1 ms per 1000 tokens; decode 10 ms + 1 ms per request; KV transfer 2 ms.
StepCosts linear_costs() {
  return {.prefill = [](int tokens, int) { return core::Seconds(tokens * 1e-6); },
          .decode = [](int requests, int) { return core::Seconds(0.010 + requests * 0.001); },
          .kv_transfer = [](int) { return core::Seconds(0.002); }};
}

TEST(ServingLoop, OneRequestIsPrefillTransferAndOneDecodeStepPerLaterToken) {
  // 2000 prompt tokens, 500 cached: 1500 computed in 1.5 ms; first token at 1 + 1.5 ms; 4 more
  // tokens after a 2 ms transfer, each a decode step of one request (11 ms).
  const auto run = run_serving({{core::Seconds(1.0), 2000, 500, 5}}, {}, linear_costs());
  ASSERT_EQ(run.requests.size(), 1u);
  const auto& r = run.requests.front();
  EXPECT_NEAR(r.first_token.value, 1.0015, 1e-12);
  EXPECT_NEAR(r.finish.value, 1.0015 + 0.002 + 4 * 0.011, 1e-12);
  EXPECT_NEAR(r.tpot().value, (0.002 + 4 * 0.011) / 4, 1e-12);
  EXPECT_EQ(run.prefill_steps, 1);
  EXPECT_EQ(run.decode_steps, 4);
}

TEST(ServingLoop, ChunkedPrefillSpreadsALongPromptOverSteps) {
  // 10,000 tokens in chunks of 4096: steps of 4096, 4096 and 1808 tokens; the first token at
  // the end of the third.
  ServingSpec spec;
  spec.prefill_chunk_tokens = 4096;
  const auto run = run_serving({{core::Seconds(0), 10000, 0, 1}}, spec, linear_costs());
  EXPECT_EQ(run.prefill_steps, 3);
  EXPECT_NEAR(run.requests.front().first_token.value, 10000e-6, 1e-12);
  EXPECT_EQ(run.requests.front().finish, run.requests.front().first_token);
}

TEST(ServingLoop, ARequestWaitsForKvCacheRoom) {
  // Room for one request of 1000 + 3 tokens. The first prefill step starts at the first arrival
  // and holds it alone (1 ms); the second's follows (1 ms). First: decode from 1 + 2 ms, two
  // steps of 11 ms, done at 25 ms; the second reaches decode at 4 ms and waits until then: 47 ms.
  ServingSpec spec;
  spec.decode_kv_tokens = 1500;
  const auto run = run_serving({{core::Seconds(0), 1000, 0, 3}, {core::Seconds(0), 1000, 0, 3}},
                               spec, linear_costs());
  EXPECT_NEAR(run.requests[0].finish.value, 0.001 + 0.002 + 2 * 0.011, 1e-12);
  EXPECT_NEAR(run.requests[1].finish.value, 0.001 + 0.002 + 4 * 0.011, 1e-12);
  EXPECT_EQ(run.waited_for_kv, 1);
}

TEST(ServingLoop, ARequestLargerThanTheKvCacheIsRefused) {
  ServingSpec spec;
  spec.decode_kv_tokens = 1000;
  try {
    run_serving({{core::Seconds(0), 100, 0, 2}, {core::Seconds(1), 990, 0, 20}}, spec,
                linear_costs());
    FAIL() << "expected a KeyedError";
  } catch (const core::KeyedError& e) {
    EXPECT_EQ(e.key_path(), "serve.decode");
    EXPECT_STREQ(e.what(),
                 "request 2 needs 1010 KV-cache tokens (prompt + output), more than a decode "
                 "instance holds (1000)");
  }
}

TEST(ServingLoop, LittlesLawHoldsOverADrainedHorizon) {
  // Mean requests in flight (integrated event by event) = arrival rate x mean time in system,
  // the rate being the requests over the horizon from the first arrival to the last finish.
  const auto requests = poisson_requests(
      {.rate = 40, .requests = 2000, .prompt_tokens = 3000, .output_tokens = 50, .seed = 7});
  ServingSpec spec;
  spec.decode_instances = 2;
  spec.decode_max_requests = 64;
  const auto run = run_serving(requests, spec, linear_costs());
  double latency = 0;
  for (const auto& r : run.requests) {
    latency += (r.finish - r.arrival).value;
  }
  const auto n = static_cast<double>(requests.size());
  const double rate = n / (run.end - run.start).value;
  const double little = rate * latency / n;
  EXPECT_NEAR(run.mean_in_flight, little, 0.01 * little);
  EXPECT_GT(run.mean_decode_batch, 1);
}

TEST(ServingLoop, LeastStepsBoundTheRunFromBelow) {
  // Prompts 2000 (500 cached: 1500 computed) and 10 (10 cached: the last token still computed,
  // 1): 1501 tokens in chunks of 1000 = 2 prefill steps at the least. Outputs 5 and 41: 4 + 40
  // decode tokens in batches of 2 = 22 steps, but the longer request alone needs 40.
  ServingSpec spec;
  spec.prefill_chunk_tokens = 1000;
  spec.decode_max_requests = 2;
  const std::vector<Request> requests{{core::Seconds(0), 2000, 500, 5},
                                      {core::Seconds(0), 10, 10, 41}};
  const StepBound b = least_steps(requests, spec);
  EXPECT_EQ(b.prefill_tokens, 1501);
  EXPECT_EQ(b.decode_tokens, 44);
  EXPECT_EQ(b.prefill_steps, 2);
  EXPECT_EQ(b.decode_steps, 40);
  const auto run = run_serving(requests, spec, linear_costs());
  EXPECT_GE(run.prefill_steps, b.prefill_steps);
  EXPECT_GE(run.decode_steps, b.decode_steps);
}

TEST(PoissonArrivals, MeanGapIsOneOverTheRate) {
  // 20,000 exponential gaps at 50/s: mean 20 ms, standard error 20 ms / sqrt(20000) = 0.14 ms.
  const auto r = poisson_requests({.rate = 50, .requests = 20000, .seed = 3});
  EXPECT_NEAR(r.back().arrival.value / 20000, 0.02, 5 * 0.02 / std::sqrt(20000.0));
  EXPECT_EQ(poisson_requests({.rate = 50, .requests = 5, .seed = 3})[4].arrival, r[4].arrival);
}

TEST(Percentiles, NearestRank) {
  // 1..100: p50 = 50, p90 = 90, p99 = 99, mean 50.5.
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) {
    v.push_back(i);
  }
  const auto p = percentiles(v);
  EXPECT_EQ(p.p50, 50);
  EXPECT_EQ(p.p90, 90);
  EXPECT_EQ(p.p99, 99);
  EXPECT_DOUBLE_EQ(p.mean, 50.5);
}

}  // namespace
}  // namespace codesim::serve
