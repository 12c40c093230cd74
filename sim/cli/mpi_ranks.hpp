// The share of a sweep this process runs. Under `mpirun` (Open MPI, or any launcher that sets
// PMI/PMIx variables) it is one MPI rank of several and rank 0 gathers the results; otherwise it
// is the only rank and MPI is never initialized.
#pragma once

#include <string>
#include <vector>

namespace codesim::cli {

class MpiRanks {
 public:
  MpiRanks();   // MPI_Init when launched by an MPI launcher
  ~MpiRanks();  // MPI_Finalize
  MpiRanks(const MpiRanks&) = delete;
  MpiRanks& operator=(const MpiRanks&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Every rank's strings, in rank order, on rank 0; an empty list elsewhere.
  std::vector<std::string> gather(const std::vector<std::string>& mine) const;

 private:
  bool initialized_ = false;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace codesim::cli
