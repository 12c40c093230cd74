// The layout version written as "schema_version" by every JSON output of codesim. Raise it when
// a key is removed or changes meaning (adding keys keeps it), and say so in the README.
#pragma once

namespace codesim::report {

inline constexpr int kSchemaVersion = 1;

}  // namespace codesim::report
