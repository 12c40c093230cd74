// The codesim subcommands, each a function from parsed options to output; main.cpp (the only
// file that sees CLI11) parses flags and maps exceptions to exit codes.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/cli/network_flags.hpp"
#include "sim/metrics/run_result.hpp"
#include "sim/report/format.hpp"

namespace codesim::cli {

struct ModelOptions {
  std::string name;    // preset name; empty when config is given
  std::string config;  // model config JSON path
  int seq_len = 4096;
  std::optional<int> mtp_depth;
  report::Format format = report::Format::table;
};
// `codesim model`: parameters, KV cache, FLOPs per token and the per-layer op table.
void run_model(const ModelOptions& o, std::ostream& out);

// `codesim describe`: the scenario schema as a table, JSON or Markdown.
void run_describe(const std::string& format, std::ostream& out);

// `codesim check`: load and validate a scenario, print it resolved (YAML or JSON).
void run_check(const std::string& scenario, const std::string& format, std::ostream& out);

struct TopoOptions {
  std::string scenario;          // build what the scenario's topology section says
  NetworkFlags network;          // or from flags
  std::string compare;           // "ft2,mpft,ft3,sf,df": ISCA Table 3 instances
  std::string route;             // "A,B": the equal-cost routes between GPUs A and B
  bool bench = false;            // print build time and peak memory
  std::string format = "table";  // table | json | dot (not a report format: a drawing)
};
// `codesim topo`: build a topology and print its properties, routes, DOT, or the Table 3
// comparison.
void run_topo(const TopoOptions& o, std::ostream& out);

struct KernelsOptions {
  std::string what;  // routing | fp8 | logfmt | mla
  std::string model = "deepseek-v3";
  std::uint64_t seed = 1;
  report::Format format = report::Format::table;
  // routing
  int tokens = 4096;  // tokens of one micro-batch over the EP group
  int ep = 64;
  int gpus_per_node = 8;
  int node_limit = 0;  // 0: the model's n_limited_groups
  int hidden = 0;      // 0: the model's hidden size
  double zipf = 1.1;
  int topics = 64;
  double strength = 2.0;
  int balance_steps = 100;
  int balance_tokens = 1024;
  double gamma = 0.001;
  int redundant = 0;
  std::string eplb = "global";
  // fp8
  int m = 64;
  int k = 4096;
  int n = 64;
  int mantissa_bits = 13;
  int interval = 128;
  // logfmt
  int values = 128 * 1024;
  // mla
  int heads = 8;
};
// `codesim kernels`: run a CPU reference kernel and report what it measures.
void run_kernels(const KernelsOptions& o, std::ostream& out);

struct CostOptions {
  std::string kind;  // gemm, grouped_gemm, attention, attention_forward, attention_backward,
                     // elementwise, norm, quantize, memcpy
  std::string hardware = "h800";
  double m = 0, n = 0, k = 0, batch = 1;
  std::vector<double> rows;  // grouped_gemm: each group's rows (then m and batch are unused)
  std::string dtype = "bf16";
  double flops = 0;  // non-GEMM classes
  double bytes = 0;
  // attention (by shape): heads, sequence, head dimensions, causal, pass
  double heads = 0;
  double seq = 0;
  int d_qk = 128;
  int d_v = 0;  // 0: d_qk
  bool causal = false;
  std::string pass = "fwd";  // fwd | fwd+bwd
  int sms = 0;               // 0: all of the GPU's
  report::Format format = report::Format::table;
};
// `codesim cost`: the predicted time of one kernel, what bounds it and the efficiency used.
void run_cost(const CostOptions& o, std::ostream& out);

struct TraceOptions {
  std::string action;  // import | replay
  std::string file;
  std::string out;                   // import: write the StepTrace JSON here
  std::string chrome_trace;          // write the (measured or replayed) timeline as a Chrome trace
  std::string hardware = "h800";     // replay: the target GPU
  std::string scenario;              // replay: take the target GPU from this scenario (custom GPUs)
  std::string measured_on = "h800";  // replay: the GPU the trace was taken on
  std::string model = "deepseek-v3";  // replay: the model the trace ran
  int tokens = 4096;                  // replay: tokens per micro-batch on the profiled GPU
  int seq_len = 4096;                 // replay: tokens per sequence
  int ep = 64;                        // replay: expert parallelism of the profiled run
  int comm_sms = 20;                  // replay: SMs DeepEP held while the pieces ran
  double max_trace_mb = 1024;         // refuse larger trace files
  report::Format format = report::Format::table;
};
// `codesim trace import|replay FILE`: a profiler trace's kernels, streams, overlap and pieces;
// replayed on another GPU model.
void run_trace(const TraceOptions& o, std::ostream& out);

struct A2aOptions {
  NetworkFlags network{.family = "mpft"};  // nodes default: the EP group's
  std::string model = "deepseek-v3";       // gate (experts, groups, top-k) and hidden size
  int ep = 64;
  int tokens = 4096;                   // per GPU
  int hidden = 0;                      // 0: the model's
  int topk = 0;                        // 0: the model's
  int node_limit = 0;                  // 0: the model's
  std::string mode = "deepep-normal";  // an EpMode name (workload/ep_mode.hpp)
  std::string dispatch = "fp8";        // fp8 | bf16
  std::string combine = "bf16";        // bf16 | logfmt-N
  int gate_hidden = 256;               // width of the synthetic gate (routing statistics only)
  double zipf = 1.1;
  float strength = 2.0f;  // logit lift of a topic's experts; 0: every token routes at random
  int balance_steps = 100;
  int sms = 20;                 // SMs the communication kernels hold
  std::string sm_copy_rate;     // per SM, e.g. "8GBps"; empty: no cap
  std::string spread = "even";  // even | hashed | dmodk | ftree | minhop | updn | valiant | ugal
  std::uint64_t seed = 1;
  bool bench = false;
  report::Format format = report::Format::table;
};
// `codesim a2a`: one expert-parallel dispatch and combine on a simulated cluster.
void run_a2a(const A2aOptions& o, std::ostream& out);

struct CollectiveOptions {
  NetworkFlags network{.family = "node"};  // nodes default: enough for the GPUs
  std::string kind = "all-reduce";
  std::string algorithm;  // empty or auto: NCCL's choice per size
  int gpus = 8;           // the first N GPUs
  std::string sizes = "1MB,16MB,256MB,1GB";
  std::string spread = "even";
  double max_memory_mb = 4096;  // refuse a sweep that would need more
  bool bench = false;
  report::Format format = report::Format::table;
};
// `codesim collective`: time and bus bandwidth of a collective per message size.
void run_collective(const CollectiveOptions& o, std::ostream& out);

struct ScheduleOptions {
  std::string method = "dualpipe";  // 1f1b | zb1p | dualpipe | dualpipev | interleaved-1f1b
  int pp = 8;                       // pipeline ranks (devices)
  int virtual_stages = 1;           // interleaved-1f1b: stages per rank
  int chunks = 20;                  // micro-batches
  std::string f = "1ms";            // a forward chunk
  std::string b = "2ms";            // a whole backward chunk (input + weight parts)
  std::string w = "1ms";            // its weight part
  std::string fb = "2.5ms";         // an overlapped forward + backward pair
  int width = 0;                    // chart columns; 0: 4 per forward chunk
  report::Format format = report::Format::table;
};
// `codesim schedule`: a pipeline schedule's chunks per rank, its chart, bubble and activations.
void run_schedule(const ScheduleOptions& o, std::ostream& out);

struct RunOptions {
  std::string scenario;
  std::vector<std::string> settings;  // --set key.path=value, applied over the file
  report::Format format = report::Format::table;
  std::string chrome_trace;         // write the replayed timeline here (training)
  std::string report;               // also write the JSON report here
  double max_memory_mb = 4096;      // refuse a run whose platform would need more
  long long max_tasks = 5'000'000;  // refuse a step program with more tasks
  bool bench = false;               // print where the time went and peak memory
  metrics::Fidelity fidelity = metrics::Fidelity::full;  // training steps
};
// `codesim run`: simulate one training, prefill or decode step of a scenario and report it.
void run_run(const RunOptions& o, std::ostream& out);

// A study of one scenario file reported in any format (serve, campaign).
struct ScenarioReportOptions {
  std::string scenario;
  std::vector<std::string> settings;  // --set key.path=value, applied over the file
  report::Format format = report::Format::table;
  std::string report;  // also write the JSON report here
};

struct ServeOptions : ScenarioReportOptions {
  long long max_steps = 50'000'000;  // refuse a serving run of more steps
};
// `codesim serve`: the scenario's serving run (serve: section), reported.
void run_serve(const ServeOptions& o, std::ostream& out);

struct CampaignOptions : ScenarioReportOptions {
  metrics::Fidelity fidelity = metrics::Fidelity::fast;  // of the step simulations
  bool sweep = false;   // a campaign at every point of the scenario's sweep: section
  bool search = false;  // every candidate of its search: section, ranked by a run objective
  bool bench = false;   // print where the time went and peak memory (stderr)
};
// `codesim campaign`: the scenario's training run (campaign: section), reported.
void run_campaign(const CampaignOptions& o, std::ostream& out);

struct CompareOptions {
  std::vector<std::string> scenarios;
  int jobs = 2;                                   // scenarios simulated at once (one process each)
  report::Format format = report::Format::table;  // table | json
};
// `codesim compare`: network cost and training throughput of scenarios side by side.
void run_compare(const CompareOptions& o, std::ostream& out);

struct SweepOptions {
  std::string scenario;
  std::vector<std::string> settings;              // --set key.path=value, applied to every point
  std::string out_dir;                            // points/, results.csv, results.json, report.html
  int jobs = 2;                                   // points simulated at once per process
  report::Format format = report::Format::table;  // what stdout gets: table | json | csv | md
  bool dry_run = false;                           // list the points, run none
};
// `codesim sweep`: every point of the scenario's sweep, in child processes (and over MPI ranks
// under mpirun); resumes with the points already written. Returns how many points failed.
int run_sweep(const SweepOptions& o, std::ostream& out);

struct SearchOptions {
  std::string scenario;
  std::vector<std::string> settings;              // --set key.path=value, applied to every one
  std::string out_dir;                            // points/, ranking.csv, ranking.json, report.html
  int jobs = 2;                                   // full simulations at once per process
  int top = 0;                                    // simulated in full; 0: the search's own top
  report::Format format = report::Format::table;  // what stdout gets: table | json
  bool dry_run = false;                           // list the configurations, simulate none
  double max_memory_mb = 4096;                    // as for run, per configuration
  long long max_tasks = 5'000'000;
};
// `codesim search`: the scenario's search: configurations screened by the fast tier, the best
// simulated in full; returns how many full simulations failed.
int run_search(const SearchOptions& o, std::ostream& out);

}  // namespace codesim::cli
