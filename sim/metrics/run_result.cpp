// RunResult is plain data; this file compiles its header on its own.
#include "sim/metrics/run_result.hpp"
