// MPI through the C API: init, rank and size, and a gather of strings (lengths, then bytes).
#include "sim/cli/mpi_ranks.hpp"

#include <mpi.h>

#include <cstdlib>
#include <numeric>

namespace codesim::cli {
namespace {

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    if (std::getenv(v) != nullptr) {
      return true;
    }
  }
  return false;
}

}  // namespace

MpiRanks::MpiRanks() {
  if (!launched_by_mpi()) {
    return;
  }
  MPI_Init(nullptr, nullptr);
  initialized_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiRanks::~MpiRanks() {
  if (initialized_) {
    MPI_Finalize();
  }
}

std::vector<std::string> MpiRanks::gather(const std::vector<std::string>& mine) const {
  if (!initialized_) {
    return mine;
  }
  // Each rank's strings travel as one buffer of (length, bytes) records.
  std::string packed;
  for (const auto& s : mine) {
    packed += std::to_string(s.size()) + ":" + s;
  }
  int length = static_cast<int>(packed.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(lengths.size(), 0);
  if (!lengths.empty()) {
    std::exclusive_scan(lengths.begin(), lengths.end(), offsets.begin(), 0);
  }
  std::string all(rank_ == 0 ? static_cast<std::size_t>(offsets.back() + lengths.back()) : 0, '\0');
  MPI_Gatherv(packed.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  std::size_t at = 0;
  while (rank_ == 0 && at < all.size()) {
    const std::size_t colon = all.find(':', at);
    const std::size_t n = std::stoul(all.substr(at, colon - at));
    out.push_back(all.substr(colon + 1, n));
    at = colon + 1 + n;
  }
  return out;
}

}  // namespace codesim::cli
