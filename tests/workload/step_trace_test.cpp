// StepTrace validation and its JSON form's errors.
#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/workload/step_trace_json.hpp"

namespace codesim::workload {
namespace {

Op op(int id, int stream, std::vector<int> deps = {}) {
  return Op{.id = id,
            .rank = 0,
            .stream = stream,
            .name = "k" + std::to_string(id),
            .deps = std::move(deps)};
}

TEST(StepTraceValidate, FindsEveryKindOfProblem) {
  StepTrace ok{.source = "t", .ops = {op(0, 7), op(1, 27, {0}), op(2, 7, {1})}};
  EXPECT_TRUE(validate(ok).empty());
  StepTrace dup{.source = "t", .ops = {op(0, 7), op(0, 27)}};
  EXPECT_EQ(validate(dup), std::vector<std::string>{"op id 0 is used twice"});
  StepTrace unknown{.source = "t", .ops = {op(0, 7, {5})}};
  EXPECT_EQ(validate(unknown), std::vector<std::string>{"op 0 depends on unknown op 5"});
  // Stream 7 runs 0 then 2; op 0 waits for op 1 on stream 27, which waits for op 2: a cycle.
  StepTrace cycle{.source = "t", .ops = {op(0, 7, {1}), op(1, 27, {2}), op(2, 7)}};
  EXPECT_EQ(validate(cycle), std::vector<std::string>{"dependency cycle through op 0 and op 2"});
  Op send = op(0, 1);
  send.kind = OpKind::send;
  send.peer = 1;
  send.tag = 3;
  StepTrace unmatched{.source = "t", .ops = {send}};
  EXPECT_EQ(validate(unmatched),
            std::vector<std::string>{"send from rank 0 to rank 1 with tag 3 has no matching recv"});
  Op recv = op(1, 1);
  recv.rank = 1;
  recv.kind = OpKind::recv;
  recv.peer = 0;
  recv.tag = 3;
  StepTrace matched{.source = "t", .ops = {send, recv}};
  EXPECT_TRUE(validate(matched).empty());
}

std::string parse_error_of(const std::string& text) {
  try {
    parse_step_trace(text, "s.json");
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(StepTraceJson, ErrorsWordForWord) {
  EXPECT_EQ(parse_error_of("{\"format\": \"other\"}"),
            "s.json:1:1: error: format: not a codesim StepTrace (expected \"format\": "
            "\"codesim-steptrace\")");
  EXPECT_EQ(parse_error_of("{\"format\": \"codesim-steptrace\", \"version\": 2, \"ops\": []}"),
            "s.json:1:1: error: version: unsupported version 2; this codesim reads version 1");
  EXPECT_EQ(
      parse_error_of(
          "{\"format\": \"codesim-steptrace\", \"version\": 1, \"ops\": [\n"
          " {\"id\": 0, \"rank\": 0, \"stream\": \"7\", \"kind\": \"compute\"},\n"
          " {\"id\": 1, \"rank\": 0, \"stream\": 7, \"kind\": \"magic\", \"class\": \"conv\"}]}"),
      "s.json:2:2: error: ops[0].stream: expected an integer, got \"7\"\n"
      "s.json:3:2: error: ops[1].kind: unknown kind \"magic\"; expected compute, collective, send "
      "or recv\n"
      "s.json:3:2: error: ops[1].class: unknown kernel class \"conv\"");
  EXPECT_EQ(parse_error_of(
                "{\"format\": \"codesim-steptrace\", \"version\": 1, \"ops\": [\n"
                " {\"id\": 0, \"rank\": 0, \"stream\": 7, \"kind\": \"compute\", \"deps\": [3]}]}"),
            "s.json: error: ops: op 0 depends on unknown op 3");
}

}  // namespace
}  // namespace codesim::workload

namespace codesim::workload {
namespace {

TEST(StepTraceJson, NumberTooLargeIsAnInputError) {
  // Found by fuzz_step_trace: nlohmann throws out_of_range, not parse_error, for it.
  EXPECT_EQ(parse_error_of("{\"format\": 1e99999}"),
            "s.json: error: invalid JSON: number overflow parsing '1e99999'");
}

}  // namespace
}  // namespace codesim::workload
