// The dense GEMM every kernel here uses (Eigen, all cores), with its FLOP count.
#pragma once

#include "models/kernels/gate.hpp"

namespace codesim::kernels {

// C = A B; adds 2 m k n to `flops`.
RowMatrixXf gemm(const RowMatrixXf& a, const RowMatrixXf& b, double& flops);

}  // namespace codesim::kernels
