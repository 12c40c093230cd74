// SweepResult is plain data; this file compiles its header on its own.
#include "sim/metrics/sweep_result.hpp"
