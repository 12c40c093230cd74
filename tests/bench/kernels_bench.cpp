// Google Benchmark for the CPU reference kernels (not run by ctest):
//   build/tests/kernels_bench
// Reports GFLOP/s for the gate and the GEMM, elements/s for FP8 quantization.
#include <benchmark/benchmark.h>

#include "models/kernels/fp8.hpp"
#include "models/kernels/gemm.hpp"
#include "models/kernels/rng.hpp"
#include "models/kernels/synthetic.hpp"
#include "models/llm/catalog.hpp"

namespace codesim::kernels {
namespace {

RowMatrixXf gaussian(int rows, int cols, std::uint64_t seed) {
  Rng rng(seed);
  RowMatrixXf m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    m.data()[i] = static_cast<float>(rng.normal());
  }
  return m;
}

// DeepSeek-V3's gate over one 4096-token micro-batch: 4096 x 7168 tokens, 256 experts.
void BM_Gate(benchmark::State& state) {
  const GateSpec spec = gate_spec(*llm::find_preset("deepseek-v3"));
  const auto g = make_synthetic_gate(256, 7168, {.zipf = 1.1}, 1);
  const auto x = sample_tokens(g, 4096, 2);
  const Eigen::VectorXf bias = Eigen::VectorXf::Zero(256);
  for (auto _ : state) {
    benchmark::DoNotOptimize(gate(x, g.weight, bias, spec));
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      gate_flops(4096, 7168, 256) * static_cast<double>(state.iterations()) / 1e9,
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Gate)->Unit(benchmark::kMillisecond)->UseRealTime();

// FP8 quantization of a 4096 x 7168 activation in 1 x 128 tiles.
void BM_Fp8QuantizeActivations(benchmark::State& state) {
  const RowMatrixXf x = gaussian(4096, 7168, 3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(quantize_activations(x));
  }
  state.counters["Melem/s"] = benchmark::Counter(
      4096.0 * 7168 * static_cast<double>(state.iterations()) / 1e6, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Fp8QuantizeActivations)->Unit(benchmark::kMillisecond)->UseRealTime();

// An expert-MLP-sized GEMM: 4096 x 7168 times 7168 x 2048, FP32.
void BM_Gemm(benchmark::State& state) {
  const RowMatrixXf a = gaussian(4096, 7168, 4);
  const RowMatrixXf b = gaussian(7168, 2048, 5);
  double flops = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(gemm(a, b, flops));
  }
  state.counters["GFLOP/s"] = benchmark::Counter(flops / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Gemm)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace codesim::kernels

BENCHMARK_MAIN();
