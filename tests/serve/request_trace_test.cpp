// Request trace files: the format, and each bad value located word for word.
#include "sim/serve/request_trace.hpp"

#include <gtest/gtest.h>

#include "sim/core/error.hpp"

namespace codesim::serve {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_request_trace(text, "t.csv");
  } catch (const core::InputError& e) {
    return e.diagnostics().front().to_string();
  }
  return "no error";
}

const std::string kHeader = "timestamp_s,prompt_tokens,cached_tokens,output_tokens\n";

TEST(RequestTrace, ReadsRequestsSkippingCommentsAndBlankLines) {
  const auto r =
      parse_request_trace("# a trace\n" + kHeader + "0,100,20,5\n\n0.5, 200, 0, 1\n", "t.csv");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].arrival.value, 0.5);
  EXPECT_EQ(r[1].prompt_tokens, 200);
  EXPECT_EQ(r[0].cached_tokens, 20);
  EXPECT_EQ(r[0].output_tokens, 5);
}

TEST(RequestTrace, BadValuesAreLocated) {
  EXPECT_EQ(error_of("time,prompt\n"),
            "t.csv:1:1: error: the first line must be the header "
            "'timestamp_s,prompt_tokens,cached_tokens,output_tokens'");
  EXPECT_EQ(error_of(kHeader + "-1,100,0,5\n"),
            "t.csv:2:1: error: timestamp_s: a timestamp cannot be negative");
  EXPECT_EQ(error_of(kHeader + "2,100,0,5\n1.5,100,0,5\n"),
            "t.csv:3:1: error: timestamp_s: timestamps must not go back (1.5 s after 2 s)\n"
            "  hint: sort the trace by timestamp");
  EXPECT_EQ(error_of(kHeader + "0,100,x,5\n"),
            "t.csv:2:7: error: cached_tokens: 'x' is not a number");
  EXPECT_EQ(error_of(kHeader + "0,100,101,5\n"),
            "t.csv:2:7: error: cached_tokens: cached tokens must be between 0 and the prompt's "
            "tokens");
  EXPECT_EQ(error_of(kHeader + "0,100,0\n"),
            "t.csv:2:1: error: 3 values where a request has 4: "
            "timestamp_s,prompt_tokens,cached_tokens,output_tokens");
  EXPECT_EQ(error_of(kHeader + "0,100.5,0,5\n"),
            "t.csv:2:3: error: prompt_tokens: '100.5' is not a whole number of tokens");
  // Not-a-number and infinite timestamps, and epoch-like ones, would serve every request at once.
  EXPECT_EQ(error_of(kHeader + "nan,100,0,5\n"),
            "t.csv:2:1: error: timestamp_s: 'nan' is not a finite number");
  EXPECT_EQ(error_of(kHeader + "0,100,0,5\ninf,100,0,5\n"),
            "t.csv:3:1: error: timestamp_s: 'inf' is not a finite number");
  EXPECT_EQ(error_of(kHeader + "1e15,100,0,5\n"),
            "t.csv:2:1: error: timestamp_s: '1e15' s: a trace spans at most 31536000 s (a year)\n"
            "  hint: timestamps are seconds from the trace's start, not since the epoch");
  // As serve.arrivals.* allow (and no int overflows): at most 10,000,000 tokens.
  EXPECT_EQ(error_of(kHeader + "0,100,0,64333333333333\n"),
            "t.csv:2:9: error: output_tokens: '64333333333333' tokens: a request has at most "
            "10000000");
}

}  // namespace
}  // namespace codesim::serve
