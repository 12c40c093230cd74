#include "sim/campaign/run_model.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "sim/core/error.hpp"
#include "sim/core/quantity_parse.hpp"
#include "sim/core/statistics.hpp"
#include "sim/core/text.hpp"

namespace codesim::campaign {
namespace {

struct Rates {
  double stop = 0;     // per second, the whole job
  double degrade = 0;  // per second
  double software = 0;
};

Rates rates_of(const RunSpec& s) {
  Rates r;
  const bool degradable = s.degraded_step.value > 0;
  for (const auto& c : s.causes) {
    const double per_s = c.per_gpu_hour * s.gpus / 3600.0;
    (c.network && degradable ? r.degrade : r.stop) += per_s;
    if (c.name == "software") {
      r.software += per_s;
    }
  }
  return r;
}

// A stop's restart: detection, then rescheduling (software, or hardware with a spare node) or the
// repair (hardware, no spare), then the checkpoint's load.
double restart_s(const RunSpec& s, bool software) {
  const double wait =
      software || s.restart.spare_nodes > 0 ? s.restart.reschedule.value : s.restart.repair.value;
  return s.restart.detection.value + wait + s.checkpoint_load.value;
}

double mean_restart_s(const RunSpec& s, const Rates& r) {
  if (r.stop <= 0) {
    return restart_s(s, true);
  }
  return (r.software * restart_s(s, true) + (r.stop - r.software) * restart_s(s, false)) / r.stop;
}

// Work in healthy-speed seconds, degradation folded in to first order.
double work_s(const RunSpec& s, const Rates& r) {
  const double base = s.steps * s.step.value;
  if (r.degrade <= 0) {
    return base;
  }
  const double slow = s.degraded_step.value / s.step.value - 1;
  return base * (1 + std::min(1.0, r.degrade * s.restart.repair.value) * slow);
}

// Expected wall time of a segment of T seconds restarted from its start on each failure.
double segment_s(double t, double lambda, double restart) {
  if (lambda <= 0) {
    return t;
  }
  return std::expm1(lambda * t) * (1 / lambda + restart);
}

Quantiles quantiles(std::vector<double> v, double expected) {
  double sum = 0;
  for (const double x : v) {
    sum += x;
  }
  std::sort(v.begin(), v.end());
  return {.p10 = core::nearest_rank(v, 0.10),
          .p50 = core::nearest_rank(v, 0.50),
          .p90 = core::nearest_rank(v, 0.90),
          .mean = sum / static_cast<double>(v.size()),
          .expected = expected};
}

struct Trial {
  double wall = 0;
  double stops = 0;
  double degradations = 0;
  double checkpoints = 0;
  std::vector<RunSpan> spans;  // kept when asked (the first run)
};

// The cause a hardware stop (network false) or a degradation (true) is charged to, by rate.
std::string cause_of(const RunSpec& s, bool network, double pick) {
  const bool degradable = s.degraded_step.value > 0;
  const auto counts = [&](const FailureCause& c) {
    return (c.network && degradable) == network && c.name != "software";
  };
  double total = 0;
  for (const auto& c : s.causes) {
    total += counts(c) ? c.per_gpu_hour : 0.0;
  }
  double acc = 0;
  for (const auto& c : s.causes) {
    if (!counts(c)) {
      continue;
    }
    acc += c.per_gpu_hour;
    if (pick * total < acc) {
      return c.name;
    }
  }
  return s.causes.empty() ? std::string() : s.causes.back().name;
}

// A failure at `t`: a degradation of the fabric until repaired, or a stop and a restart (after a
// software fault or a part's) that loses the segment's work; true for a stop. Moves `t` past
// the restart.
bool fail(const RunSpec& s, const Rates& r, std::mt19937_64& rng, bool keep_spans, double& t,
          double& degraded_until, Trial& out) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  if (unit(rng) * (r.stop + r.degrade) < r.degrade) {
    ++out.degradations;
    degraded_until = t + s.restart.repair.value;
    if (keep_spans) {
      out.spans.push_back({RunSpan::degraded, t, degraded_until, cause_of(s, true, unit(rng))});
    }
    return false;
  }
  ++out.stops;
  const bool software = unit(rng) * r.stop < r.software;
  const double restarted = t + restart_s(s, software);
  if (keep_spans) {
    out.spans.push_back(
        {RunSpan::restart, t, restarted, software ? "software" : cause_of(s, false, unit(rng))});
  }
  t = restarted;
  degraded_until = -1;  // the job restarts on a healthy fabric
  return true;
}

// One run: training segments of the interval, each ended by a checkpoint write (but the last);
// failures by the summed rate, each a stop or a degradation by its cause's share.
Trial one_run(const RunSpec& s, const Rates& r, std::mt19937_64& rng, bool keep_spans) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto gap = [&](double rate) {
    return rate > 0 ? -std::log(1.0 - unit(rng)) / rate : INFINITY;
  };
  const double total = s.steps * s.step.value;  // work at healthy speed
  const double tau = s.checkpoint_interval.value;
  const double write = s.checkpoint_write.value;
  const double slow = s.degraded_step.value > 0 ? s.step.value / s.degraded_step.value : 1.0;
  const double rate = r.stop + r.degrade;
  Trial out;
  double t = 0;
  double saved = 0;
  double degraded_until = -1;
  double next_failure = gap(rate);
  while (saved < total) {
    const double target = std::min(tau, total - saved);
    const bool last = saved + target >= total;
    double done = 0;     // work of this segment
    double written = 0;  // of its checkpoint write
    bool lost = false;
    while (true) {
      const double speed = t < degraded_until ? slow : 1.0;
      // The next boundary: the work's end, the write's end, the degradation's end, a failure.
      double until;
      bool ends_work = false;  // the boundary is the work's end (set exactly: no rounding stall)
      if (done < target) {
        until = t + (target - done) / speed;
        ends_work = true;
        if (t < degraded_until && degraded_until < until) {
          until = degraded_until;
          ends_work = false;
        }
      } else {
        until = t + (write - written);
      }
      if (next_failure < until) {
        const double dt = next_failure - t;
        if (done < target) {
          done += dt * speed;
        } else {
          written += dt;
        }
        t = next_failure;
        lost = fail(s, r, rng, keep_spans, t, degraded_until, out);
        next_failure = t + gap(rate);
        if (lost) {
          break;
        }
        continue;
      }
      const double dt = until - t;
      if (done < target) {
        done = ends_work ? target : std::min(target, done + dt * speed);
      } else {
        written = write;
      }
      t = until;
      if (done >= target && (last || written >= write)) {
        break;
      }
    }
    if (lost) {
      continue;
    }
    saved += target;
    out.checkpoints += last ? 0 : 1;
  }
  out.wall = t;
  return out;
}

}  // namespace

core::Seconds daly_interval(core::Seconds c, core::Seconds mtbf) {
  const double m = mtbf.value;
  const double x = c.value / (2 * m);
  if (c.value >= 2 * m) {
    return mtbf;
  }
  return core::Seconds(std::sqrt(2 * c.value * m) * (1 + std::sqrt(x) / 3 + x / 9) - c.value);
}

namespace {

// The spec with its checkpoint interval chosen when it gave none. A run checkpoints between
// steps: an interval given shorter than one step is refused (it would write a checkpoint per
// fraction of a step, and a tiny one loop without end).
RunSpec resolved(RunSpec s) {
  if (s.checkpoint_interval.value <= 0) {
    const double stop = rates_of(s).stop;
    s.checkpoint_interval =
        stop > 0 ? daly_interval(s.checkpoint_write, core::Seconds(1 / stop)) : s.step * s.steps;
  } else if (s.checkpoint_interval < s.step) {
    throw core::KeyedError("campaign.checkpoint_interval",
                           "a checkpoint every " +
                               core::format_number(s.checkpoint_interval.value) +
                               " s is shorter than one step (" + core::fixed(s.step.value, 2) +
                               " s): a run checkpoints "
                               "between steps",
                           "checkpoint every step or less often, or leave it to auto");
  }
  return s;
}

}  // namespace

double expected_wall_s(const RunSpec& spec) {
  const RunSpec s = resolved(spec);
  const Rates r = rates_of(s);
  const double work = work_s(s, r);
  const double tau = s.checkpoint_interval.value;
  const double restart = mean_restart_s(s, r);
  const double full = std::floor(work / tau);
  const double rest = work - full * tau;
  // Every full segment but the run's last one ends with a write.
  if (rest > 0) {
    return full * segment_s(tau + s.checkpoint_write.value, r.stop, restart) +
           segment_s(rest, r.stop, restart);
  }
  return std::max(0.0, full - 1) * segment_s(tau + s.checkpoint_write.value, r.stop, restart) +
         segment_s(tau, r.stop, restart);
}

namespace {

// Refuses a run the model cannot carry out: failures no farther apart than a restart and a
// checkpoint write, a checkpoint interval almost never reached, or a Monte Carlo past its budget
// of events. Blames what the scenario wrote among what sets each side.
void refuse_unrunnable(const RunSpec& s, const Rates& r, core::Seconds mean_restart) {
  if (r.stop > 0 && 1 / r.stop <= mean_restart.value + s.checkpoint_write.value) {
    throw core::KeyedError(
        {"campaign.failures", "campaign.node_failure_rate", "campaign.checkpoint_write",
         "campaign.storage_bandwidth", "campaign.checkpoint_load", "campaign.detection",
         "campaign.reschedule", "campaign.repair", "campaign.spare_nodes", "hardware.nodes"},
        "the job cannot progress: failures every " + core::duration_text(1 / r.stop) +
            " on average, no longer than a restart plus a checkpoint write (" +
            core::duration_text(mean_restart.value + s.checkpoint_write.value) + ")",
        "fewer GPUs, faster checkpoints or restarts, or a lower failure rate");
  }
  const double segment = s.checkpoint_interval.value + s.checkpoint_write.value;
  if (r.stop * segment > 20) {
    throw core::KeyedError({"campaign.checkpoint_interval", "campaign.node_failure_rate",
                            "campaign.failures", "hardware.nodes"},
                           "a checkpoint interval this long is almost never reached: " +
                               std::to_string(r.stop * segment) + " failures expected within one",
                           "checkpoint more often (campaign.checkpoint_interval: auto)");
  }
  // What the trials will step through: each one's checkpoint segments and failures (at least
  // those over its healthy work).
  const double work = s.steps * s.step.value;
  const double per_trial =
      std::ceil(work / s.checkpoint_interval.value) + (r.stop + r.degrade) * work;
  if (!(per_trial * s.monte_carlo.trials <= s.max_events)) {
    const bool one = !(per_trial <= s.max_events);
    const auto count = [](double x) {  // 48, or 2.4e21
      const int e = x < 1e6 ? 0 : static_cast<int>(std::floor(std::log10(x)));
      return e == 0 ? core::fixed(x, 0)
                    : core::fixed(x / std::pow(10.0, e), 1) + "e" + std::to_string(e);
    };
    throw core::KeyedError(
        one ? "campaign.tokens" : "campaign.trials",
        "the run's Monte Carlo would step through " + count(per_trial) +
            " checkpoint segments and failures per trial x " +
            std::to_string(s.monte_carlo.trials) + " trials, over the budget of " +
            count(s.max_events),
        one ? "fewer tokens, or a longer campaign.checkpoint_interval" : "fewer campaign.trials");
  }
}

}  // namespace

RunStats simulate_run(const RunSpec& spec) {
  const RunSpec s = resolved(spec);
  const Rates r = rates_of(s);
  RunStats stats;
  stats.checkpoint_interval = s.checkpoint_interval;
  stats.stop_rate_per_s = r.stop;
  stats.degrade_rate_per_s = r.degrade;
  stats.mean_restart = core::Seconds(mean_restart_s(s, r));
  refuse_unrunnable(s, r, stats.mean_restart);
  std::mt19937_64 rng(s.monte_carlo.seed);
  std::vector<double> wall;
  std::vector<double> stops;
  std::vector<double> degradations;
  double ettr = 0;
  double checkpoints = 0;
  const double productive = s.steps * s.step.value;
  for (int i = 0; i < s.monte_carlo.trials; ++i) {
    const Trial t = one_run(s, r, rng, i == 0);
    if (i == 0) {
      stats.first_run = t.spans;
      stats.first_run_wall_s = t.wall;
    }
    wall.push_back(t.wall);
    stops.push_back(t.stops);
    degradations.push_back(t.degradations);
    ettr += productive / t.wall;
    checkpoints += t.checkpoints;
  }
  const double expected = expected_wall_s(s);
  stats.wall_s = quantiles(wall, expected);
  // Interruptions expected: the stopping rate over the wall time less the restarts' (no failure
  // strikes during one): lambda W' / (1 + lambda R) with W' the wall time.
  const double up = expected / (1 + r.stop * stats.mean_restart.value);
  stats.interruptions = quantiles(stops, r.stop * up);
  stats.degradations = quantiles(degradations, r.degrade * up);
  stats.ettr_mean = ettr / s.monte_carlo.trials;
  stats.ettr_expected = productive / expected;
  stats.checkpoints = checkpoints / s.monte_carlo.trials;
  for (const auto& c : s.causes) {
    stats.expected_by_cause.push_back(c.per_gpu_hour * s.gpus / 3600.0 * up);
  }
  return stats;
}

}  // namespace codesim::campaign
