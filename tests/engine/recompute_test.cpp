// Full activation recomputation: each layer's forward runs again before its backward (time), only
// layer inputs stay (memory), and HFU counts the recomputed FLOPs.
#include <gtest/gtest.h>

#include "models/hardware/catalog.hpp"
#include "models/llm/catalog.hpp"
#include "sim/metrics/step_metrics.hpp"
#include "sim/workload/saved_tensors.hpp"
#include "sim/workload/step_program.hpp"
#include "tests/support/dense_step.hpp"

namespace codesim::engine {
namespace {

using namespace codesim::metrics;  // what these tests exercise beside the engine

using workload::Pass;
using workload::PieceKind;
using workload::Recompute;

workload::StepSpec llama_step(Recompute r) {
  auto s = testing::dense_step("llama3.1-8b", 8);
  s.shape.recompute = r;
  return s;
}

double compute_seconds(const workload::StepProgram& p, PieceKind kind) {
  double s = 0;
  for (const auto& t : p.tasks) {
    if (t.stream == workload::StepStream::compute && t.piece.kind == kind) {
      s += t.duration.value;
    }
  }
  return s;
}

TEST(Recompute, FullRunsEveryLayersForwardAgainBeforeItsBackward) {
  // 32 layers over 4 ranks, 8 micro-batches: 32 x 8 recomputations, each as long as the layer's
  // attn(F) + mlp(F) (1F1B: nothing overlapped). Nothing else changes.
  const auto none = workload::build_step_program(llama_step(Recompute::none));
  const auto full = workload::build_step_program(llama_step(Recompute::full));
  int recomputations = 0;
  for (const auto& t : full.tasks) {
    recomputations += t.piece.kind == PieceKind::recompute ? 1 : 0;
  }
  EXPECT_EQ(recomputations, 32 * 8);
  double forward_only = 0;
  for (const auto& t : none.tasks) {
    if (t.piece.pass == Pass::forward &&
        (t.piece.kind == PieceKind::attention || t.piece.kind == PieceKind::mlp)) {
      forward_only += t.duration.value;
    }
  }
  EXPECT_NEAR(compute_seconds(full, PieceKind::recompute), forward_only, 1e-9);
  EXPECT_EQ(full.tasks.size(), none.tasks.size() + 32 * 8);
}

TEST(Recompute, FullKeepsLayerInputsOnly) {
  // Activations of the first rank: none = a layer's saved tensors (saved_tensors.hpp) x layers x
  // micro-batches in flight; full = its input (2 x hidden bytes per token) x layers x in flight,
  // and one layer's whole set while it is recomputed.
  const auto none = workload::build_step_program(llama_step(Recompute::none));
  const auto full = workload::build_step_program(llama_step(Recompute::full));
  const auto model = *llm::find_preset("llama3.1-8b");
  StepFacts f{.model = &model,
              .gpu = hardware::find_preset("h100")->gpu,
              .shape = {.pp = 4, .seq_len = 8192, .micro_batches = 8}};
  const auto m_none = memory_use(none, f);
  f.shape.recompute = Recompute::full;
  const auto m_full = memory_use(full, f);
  const double layers = none.placement.front().layers();
  const double in_flight = m_none.peak_in_flight;
  EXPECT_EQ(in_flight, 4);  // 1F1B's first rank: PP micro-batches
  const double layer = workload::total_bytes(workload::saved_tensors(
      model, llm::kDenseLayer, workload::SoftwareStack::fused, {.tokens = 8192}));
  EXPECT_NEAR(m_none.activations.value, layer * layers * in_flight, 1);
  EXPECT_NEAR(m_full.activations.value, 2.0 * 4096 * 8192 * layers * in_flight + layer, 1);
}

}  // namespace
}  // namespace codesim::engine
