// One thread for OpenMP and for Eigen.
#include "models/kernels/threads.hpp"

#include <omp.h>

#include <Eigen/Core>

namespace codesim::kernels {

void run_on_one_thread() {
  omp_set_num_threads(1);
  Eigen::setNbThreads(1);
}

}  // namespace codesim::kernels
