// Which layers each pipeline stage holds: contiguous runs of transformer layers, the embedding on
// the first stage, the output head and the MTP modules on the last, split so that the slowest
// stage is as fast as it can be (a linear partition over per-layer forward times).
#pragma once

#include <string>
#include <vector>

namespace codesim::workload {

struct StageLayers {
  int first_layer = 0;
  int last_layer = -1;  // transformer layers [first, last]
  bool embedding = false;
  bool head = false;  // output head, and the MTP modules (the report puts MTP with the head)
  int layers() const { return last_layer - first_layer + 1; }
};

struct StageCosts {
  std::vector<double> layer;  // forward time per transformer layer, any unit
  double embedding = 0;
  double head = 0;  // output head plus MTP modules
};

// Throws core::KeyedError (parallelism.pp) when there are fewer layers than stages.
std::vector<StageLayers> place_layers(const StageCosts& c, int stages);

// The same when devices hold several stages (`stages_of[d]`: device d's stages; DualPipe and
// DualPipeV give each device two, and a device's work is the sum of its stages'): the linear
// partition, then single layers moved across stage boundaries while that lowers the busiest
// device's sum (then the spread of the devices' sums); the first stage may give away all its
// layers (keeping the embedding) and the last all of its (keeping the head and MTP), as when
// DualPipeV puts both on one device. With one stage per device it is the linear partition.
std::vector<StageLayers> place_layers(const StageCosts& c, int stages,
                                      const std::vector<std::vector<int>>& stages_of);

// "0-3 + embedding", "58-60 + head, MTP", "head, MTP" (no transformer layer).
std::string describe(const StageLayers& s);

}  // namespace codesim::workload
