// InferenceResult is plain data; this file compiles its header on its own.
#include "sim/metrics/inference_result.hpp"
