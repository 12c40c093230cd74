// RunResult is plain data; this file gives the module its target.
#include "sim/metrics/run_result.hpp"
