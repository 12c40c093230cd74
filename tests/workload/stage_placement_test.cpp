// Layer placement: the linear partition, and the pair-balanced one of devices with two stages.
#include "sim/workload/stage_placement.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/core/error.hpp"

namespace codesim::workload {
namespace {

double stage_cost(const StageCosts& c, const StageLayers& s) {
  double x = 0;
  for (int l = s.first_layer; l <= s.last_layer; ++l) {
    x += c.layer[static_cast<std::size_t>(l)];
  }
  return x + (s.embedding ? c.embedding : 0) + (s.head ? c.head : 0);
}

double busiest_device(const StageCosts& c, const std::vector<StageLayers>& p,
                      const std::vector<std::vector<int>>& devices) {
  double busiest = 0;
  for (const auto& d : devices) {
    double sum = 0;
    for (const int s : d) {
      sum += stage_cost(c, p[static_cast<std::size_t>(s)]);
    }
    busiest = std::max(busiest, sum);
  }
  return busiest;
}

// More stages than layers is the scenario's parallelism.pp at fault, and the error says so.
TEST(StagePlacement, MoreStagesThanLayersNamesParallelismPp) {
  const StageCosts c{.layer = {1.0, 1.0}};
  try {
    place_layers(c, 3);
    FAIL() << "3 stages for 2 layers were accepted";
  } catch (const core::KeyedError& e) {
    EXPECT_EQ(e.key_path(), "parallelism.pp");
    EXPECT_EQ(std::string(e.what()), "cannot place 2 layers on 3 pipeline stages: each needs a layer");
  }
}

TEST(StagePlacement, OneStagePerDeviceIsTheLinearPartition) {
  // 8 layers of 1 and a head of 2 over 4 stages: the best largest stage is 3 (e.g. 3, 2, 2, 1+2).
  const StageCosts c{{1, 1, 1, 1, 1, 1, 1, 1}, 0, 2};
  const auto linear = place_layers(c, 4);
  EXPECT_DOUBLE_EQ(busiest_device(c, linear, {{0}, {1}, {2}, {3}}), 3);
  const auto same = place_layers(c, 4, {{0}, {1}, {2}, {3}});
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(same[i].first_layer, linear[i].first_layer);
    EXPECT_EQ(same[i].last_layer, linear[i].last_layer);
  }
}

TEST(StagePlacement, DevicesWithTwoStagesBalanceTheirSums) {
  // DualPipeV-like: 4 stages on 2 devices, device 0 = stages 0 and 3 (embedding 1, head 3),
  // device 1 = stages 1 and 2; 10 layers of 1: total work 14, so at best 7 per device. Every
  // split of the layers into 4 non-empty stages, searched by brute force, gives the same optimum.
  const StageCosts c{std::vector<double>(10, 1.0), 1, 3};
  const std::vector<std::vector<int>> devices{{0, 3}, {1, 2}};
  const auto placed = place_layers(c, 4, devices);
  double optimum = 1e9;
  for (int a = 1; a <= 7; ++a) {
    for (int b = a + 1; b <= 8; ++b) {
      for (int d = b + 1; d <= 9; ++d) {
        const std::vector<StageLayers> p{{0, a - 1, true, false},
                                         {a, b - 1, false, false},
                                         {b, d - 1, false, false},
                                         {d, 9, false, true}};
        optimum = std::min(optimum, busiest_device(c, p, devices));
      }
    }
  }
  EXPECT_DOUBLE_EQ(optimum, 7);
  EXPECT_DOUBLE_EQ(busiest_device(c, placed, devices), optimum);
  // Still contiguous, every layer once, every stage non-empty.
  EXPECT_EQ(placed.front().first_layer, 0);
  EXPECT_EQ(placed.back().last_layer, 9);
  for (std::size_t i = 0; i < placed.size(); ++i) {
    EXPECT_GE(placed[i].layers(), 1);
    if (i > 0) {
      EXPECT_EQ(placed[i].first_layer, placed[i - 1].last_layer + 1);
    }
  }
}

TEST(StagePlacement, AFoldedPipelineMayLeaveTheEmbeddingAndTheHeadAlone) {
  // DualPipeV-like: 6 stages on 3 devices ({0, 5}, {1, 4}, {2, 3}); 8 layers of 1 and a head of
  // 4 (an output head and MTP weigh several layers). Total 12, so at best 4 per device: only with
  // the head alone on the last stage and nothing but the embedding on the first. Brute force
  // over every split (first and last stages may be empty, the others not) finds the same.
  const StageCosts c{std::vector<double>(8, 1.0), 0, 4};
  const std::vector<std::vector<int>> devices{{0, 5}, {1, 4}, {2, 3}};
  const auto placed = place_layers(c, 6, devices);
  double optimum = 1e9;
  for (int b1 = 0; b1 <= 8; ++b1) {
    for (int b2 = b1 + 1; b2 <= 8; ++b2) {
      for (int b3 = b2 + 1; b3 <= 8; ++b3) {
        for (int b4 = b3 + 1; b4 <= 8; ++b4) {
          for (int b5 = b4 + 1; b5 <= 8; ++b5) {
            const std::vector<StageLayers> p{{0, b1 - 1, true, false}, {b1, b2 - 1, false, false},
                                             {b2, b3 - 1, false, false}, {b3, b4 - 1, false, false},
                                             {b4, b5 - 1, false, false}, {b5, 7, false, true}};
            optimum = std::min(optimum, busiest_device(c, p, devices));
          }
        }
      }
    }
  }
  EXPECT_DOUBLE_EQ(optimum, 4);
  EXPECT_DOUBLE_EQ(busiest_device(c, placed, devices), 4);
  EXPECT_EQ(placed.front().layers(), 0);
  EXPECT_EQ(placed.back().layers(), 0);
  EXPECT_EQ(describe(placed.front()), "embedding");
  EXPECT_EQ(describe(placed.back()), "head, MTP");
}

}  // namespace
}  // namespace codesim::workload
