// Hops from every vertex to a destination through switches, kept once per class of twin switches.
//
// Two switches are twins when they are joined to the same switches (a pod's leaves on a fat tree:
// each reaches every spine of its pod; a core group's cores). Twins are never joined to each other
// (a switch would be its own neighbour), so for a destination switch r and any switch x outside
// r's class, x's distance to r is its class's distance to r's class in the graph of classes (a
// shortest path visits one switch per class: a class joined to another is joined to all of its
// members); r's twins are 2 hops away (through any common neighbour), r itself 0. So one table
// per class of destination switch serves all of its members: a 1,048,576-endpoint fat tree has
// 8,192 leaves in 64 pods, so 64 searches over ~8,400 classes instead of 8,192 over 2.2 million
// vertices.
//
// Only switches carry transit traffic: a NIC ends paths; its distance is its switch's plus one.
// Every NIC has at most one switch link (every family here; the constructor checks it).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "topologies/topology.hpp"

namespace codesim::topologies {

class SwitchDistances {
 public:
  // Throws std::invalid_argument for a NIC joined to more than one switch.
  explicit SwitchDistances(const Topology& topology);

  // A vertex's switch and its switch's class: a switch is its own, a NIC its only switch's; -1
  // for the rest.
  struct Place {
    int cls = -1;
    VertexId attach = 0;
  };

  // Hops from any vertex to `destination` (a NIC or a switch) through switches; -1 where no
  // such path exists (GPUs and NVSwitches, a NIC without a switch).
  class View {
   public:
    int operator[](VertexId v) const {
      if (v == destination_) {
        return 0;
      }
      const Place& p = (*places_)[v];
      if (p.cls < 0 || table_ == nullptr) {
        return -1;
      }
      const int d = p.attach == root_      ? 0
                    : p.cls == root_class_ ? twin_
                                           : (*table_)[static_cast<std::size_t>(p.cls)];
      if (d < 0) {
        return -1;
      }
      return d + (p.attach != v ? 1 : 0) + offset_;
    }

   private:
    friend class SwitchDistances;
    const std::vector<Place>* places_ = nullptr;
    const std::vector<std::int16_t>* table_ = nullptr;  // per class: hops to the root's class
    VertexId destination_ = 0;
    VertexId root_ = 0;  // the destination's switch (itself for a switch)
    int root_class_ = -1;
    int twin_ = -1;   // hops between two twins: 2, or -1 for twins joined to no switch
    int offset_ = 0;  // 1 when the destination is a NIC (one hop past its switch)
  };
  View to(VertexId destination) const;

  // Classes of twin switches among the switches (a measure of the symmetry found).
  int classes() const { return static_cast<int>(neighbours_.size()); }
  int switches() const { return switches_; }

 private:
  const std::vector<std::int16_t>& table(int root_class) const;

  int switches_ = 0;
  std::vector<Place> places_;                 // per vertex
  std::vector<std::vector<int>> neighbours_;  // per class: the classes joined to it
  mutable std::unordered_map<int, std::vector<std::int16_t>> tables_;  // per root class
};

}  // namespace codesim::topologies
