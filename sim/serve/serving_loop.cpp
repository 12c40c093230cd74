#include "sim/serve/serving_loop.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>
#include <stdexcept>
#include <string>

#include "sim/core/error.hpp"

namespace codesim::serve {
namespace {

enum class EventKind { arrival, prefill_done, kv_arrive, decode_done };

struct Event {
  double time;
  long long order;  // ties in the order scheduled
  EventKind kind;
  int index;  // the request (arrival, kv_arrive) or the instance
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : order > o.order; }
};

struct PrefillInstance {
  std::deque<int> queue;  // requests with prompt tokens left to compute
  double queued_tokens = 0;
  bool busy = false;
  std::vector<int> step;  // the requests whose prompt the running step ends
};

struct DecodeInstance {
  std::deque<int> waiting;
  std::vector<int> batch;
  double reserved = 0;  // KV tokens of the admitted requests (prompt + output)
  double waiting_tokens = 0;
  bool busy = false;
};

class Loop {
 public:
  Loop(const std::vector<Request>& r, const ServingSpec& s, const StepCosts& c)
      : requests_(r),
        spec_(s),
        costs_(c),
        prefill_(s.prefill_instances),
        decode_(s.decode_instances),
        left_(r.size()),
        generated_(r.size(), 0),
        out_(r.size()),
        counted_wait_(r.size(), false) {
    for (std::size_t i = 0; i < r.size(); ++i) {
      left_[i] = std::max(1, r[i].prompt_tokens - r[i].cached_tokens);
      out_[i].arrival = r[i].arrival;
      out_[i].output_tokens = r[i].output_tokens;
      push(r[i].arrival.value, EventKind::arrival, static_cast<int>(i));
    }
  }

  ServingRun run() {
    ServingRun run;
    run.start = requests_.front().arrival;
    double last = run.start.value;
    int in_flight = 0;
    double area = 0;
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      area += in_flight * (e.time - last);
      last = e.time;
      now_ = e.time;
      switch (e.kind) {
        case EventKind::arrival:
          ++in_flight;
          arrive(e.index);
          break;
        case EventKind::prefill_done:
          in_flight -= prefill_done(e.index);
          break;
        case EventKind::kv_arrive:
          to_decode(e.index);
          break;
        case EventKind::decode_done:
          in_flight -= decode_done(e.index);
          break;
      }
      run.peak_decode_waiting = std::max(run.peak_decode_waiting, waiting_now());
    }
    run.end = core::Seconds(last);
    const double span = std::max(1e-300, run.end.value - run.start.value);
    run.mean_in_flight = area / span;
    run.prefill_busy = prefill_time_ / (span * spec_.prefill_instances);
    run.decode_busy = decode_time_ / (span * spec_.decode_instances);
    run.prefill_steps = prefill_steps_;
    run.decode_steps = decode_steps_;
    run.mean_decode_batch = decode_steps_ > 0 ? batched_ / static_cast<double>(decode_steps_) : 0;
    run.waited_for_kv = waited_;
    run.requests = std::move(out_);
    return run;
  }

 private:
  void push(double t, EventKind kind, int index) { events_.push({t, order_++, kind, index}); }

  int waiting_now() const {
    int n = 0;
    for (const auto& d : decode_) {
      n += static_cast<int>(d.waiting.size());
    }
    return n;
  }

  void arrive(int i) {
    auto& p = *std::min_element(prefill_.begin(), prefill_.end(), [](const auto& a, const auto& b) {
      return a.queued_tokens < b.queued_tokens;
    });
    p.queue.push_back(i);
    p.queued_tokens += left_[static_cast<std::size_t>(i)];
    start_prefill(static_cast<int>(&p - prefill_.data()));
  }

  void start_prefill(int at) {
    auto& p = prefill_[static_cast<std::size_t>(at)];
    if (p.busy || p.queue.empty()) {
      return;
    }
    int budget = spec_.prefill_chunk_tokens;
    int tokens = 0;
    double prompts = 0;
    int members = 0;
    p.step.clear();
    while (budget > 0 && !p.queue.empty()) {
      const int i = p.queue.front();
      auto& left = left_[static_cast<std::size_t>(i)];
      const int take = std::min(left, budget);
      left -= take;
      budget -= take;
      tokens += take;
      prompts += requests_[static_cast<std::size_t>(i)].prompt_tokens;
      ++members;
      if (left == 0) {
        p.queue.pop_front();
        p.step.push_back(i);
      }
    }
    p.queued_tokens -= tokens;
    const double t = costs_.prefill(tokens, static_cast<int>(prompts / members)).value;
    p.busy = true;
    prefill_time_ += t;
    ++prefill_steps_;
    push(now_ + t, EventKind::prefill_done, at);
  }

  // Returns the requests that finished (one-token outputs end at their prefill).
  int prefill_done(int at) {
    auto& p = prefill_[static_cast<std::size_t>(at)];
    int finished = 0;
    for (const int i : p.step) {
      auto& o = out_[static_cast<std::size_t>(i)];
      o.first_token = core::Seconds(now_);
      if (o.output_tokens == 1) {
        o.finish = o.first_token;
        ++finished;
      } else {
        push(now_ + costs_.kv_transfer(requests_[static_cast<std::size_t>(i)].prompt_tokens).value,
             EventKind::kv_arrive, i);
      }
    }
    p.busy = false;
    start_prefill(at);
    return finished;
  }

  double kv_need(int i) const {
    const auto& r = requests_[static_cast<std::size_t>(i)];
    return static_cast<double>(r.prompt_tokens) + r.output_tokens;
  }

  void to_decode(int i) {
    auto& d = *std::min_element(decode_.begin(), decode_.end(), [](const auto& a, const auto& b) {
      return a.reserved + a.waiting_tokens < b.reserved + b.waiting_tokens;
    });
    d.waiting.push_back(i);
    d.waiting_tokens += kv_need(i);
    start_decode(static_cast<int>(&d - decode_.data()));
  }

  void start_decode(int at) {
    auto& d = decode_[static_cast<std::size_t>(at)];
    if (d.busy) {
      return;
    }
    while (!d.waiting.empty() && static_cast<int>(d.batch.size()) < spec_.decode_max_requests &&
           d.reserved + kv_need(d.waiting.front()) <= spec_.decode_kv_tokens) {
      const int i = d.waiting.front();
      d.waiting.pop_front();
      d.waiting_tokens -= kv_need(i);
      d.reserved += kv_need(i);
      d.batch.push_back(i);
    }
    // Counted once per request: when it is first left waiting at a boundary.
    for (const int i : d.waiting) {
      if (!counted_wait_[static_cast<std::size_t>(i)]) {
        counted_wait_[static_cast<std::size_t>(i)] = true;
        ++waited_;
      }
    }
    if (d.batch.empty()) {
      return;
    }
    double context = 0;
    for (const int i : d.batch) {
      context += requests_[static_cast<std::size_t>(i)].prompt_tokens + 1 +
                 generated_[static_cast<std::size_t>(i)];
    }
    const int n = static_cast<int>(d.batch.size());
    const double t = costs_.decode(n, static_cast<int>(context / n)).value;
    d.busy = true;
    decode_time_ += t;
    ++decode_steps_;
    batched_ += n;
    push(now_ + t, EventKind::decode_done, at);
  }

  int decode_done(int at) {
    auto& d = decode_[static_cast<std::size_t>(at)];
    int finished = 0;
    std::vector<int> kept;
    for (const int i : d.batch) {
      auto& g = generated_[static_cast<std::size_t>(i)];
      ++g;
      if (1 + g == requests_[static_cast<std::size_t>(i)].output_tokens) {
        out_[static_cast<std::size_t>(i)].finish = core::Seconds(now_);
        d.reserved -= kv_need(i);
        ++finished;
      } else {
        kept.push_back(i);
      }
    }
    d.batch = std::move(kept);
    d.busy = false;
    start_decode(at);
    return finished;
  }

  const std::vector<Request>& requests_;
  const ServingSpec& spec_;
  const StepCosts& costs_;
  std::vector<PrefillInstance> prefill_;
  std::vector<DecodeInstance> decode_;
  std::vector<int> left_;
  std::vector<int> generated_;
  std::vector<RequestOutcome> out_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::vector<bool> counted_wait_;  // by request: already counted as waiting
  long long order_ = 0;
  double now_ = 0;
  double prefill_time_ = 0;
  double decode_time_ = 0;
  long long prefill_steps_ = 0;
  long long decode_steps_ = 0;
  double batched_ = 0;
  long long waited_ = 0;
};

}  // namespace

StepBound least_steps(const std::vector<Request>& requests, const ServingSpec& spec) {
  StepBound b;
  int longest_output = 0;
  for (const Request& r : requests) {
    b.prefill_tokens += std::max(1, r.prompt_tokens - r.cached_tokens);
    b.decode_tokens += std::max(0, r.output_tokens - 1);
    longest_output = std::max(longest_output, r.output_tokens - 1);
  }
  // Steps of all instances together: a step computes one chunk, or emits one token for each of
  // at most `decode_max_requests` requests.
  b.prefill_steps =
      static_cast<long long>(std::ceil(b.prefill_tokens / std::max(1, spec.prefill_chunk_tokens)));
  b.decode_steps = std::max(
      static_cast<long long>(longest_output),
      static_cast<long long>(std::ceil(b.decode_tokens / std::max(1, spec.decode_max_requests))));
  return b;
}

ServingRun run_serving(const std::vector<Request>& requests, const ServingSpec& spec,
                       const StepCosts& costs) {
  if (spec.prefill_instances < 1 || spec.decode_instances < 1) {
    throw std::invalid_argument("serving needs at least one prefill and one decode instance");
  }
  if (requests.empty()) {
    return {};
  }
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const auto& r = requests[i];
    if (i > 0 && r.arrival < requests[i - 1].arrival) {
      throw std::invalid_argument("requests must come in order of arrival");
    }
    const double need = static_cast<double>(r.prompt_tokens) + r.output_tokens;
    if (need > spec.decode_kv_tokens) {
      throw core::KeyedError(
          "serve.decode",
          "request " + std::to_string(i + 1) + " needs " +
              std::to_string(static_cast<long long>(need)) +
              " KV-cache tokens (prompt + output), more than a decode instance holds (" +
              std::to_string(static_cast<long long>(spec.decode_kv_tokens)) + ")",
          "give the decode instances more GPUs (serve.decode.nodes) or shorten the request");
    }
  }
  return Loop(requests, spec, costs).run();
}

}  // namespace codesim::serve
