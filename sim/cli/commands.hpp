// The codesim subcommands, each a function from parsed options to output; main.cpp (the only
// file that sees CLI11) parses flags and maps exceptions to exit codes.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

namespace codesim::cli {

struct ModelOptions {
  std::string name;    // preset name; empty when config is given
  std::string config;  // model config JSON path
  int seq_len = 4096;
  std::optional<int> mtp_depth;
  std::string format = "table";
};
// `codesim model`: parameters, KV cache, FLOPs per token and the per-layer op table.
void run_model(const ModelOptions& o, std::ostream& out);

// `codesim describe`: the scenario schema as a table, JSON or Markdown.
void run_describe(const std::string& format, std::ostream& out);

// `codesim check`: load and validate a scenario, print it resolved (YAML or JSON).
void run_check(const std::string& scenario, const std::string& format, std::ostream& out);

}  // namespace codesim::cli
