// Dense GEMM.
#include "models/kernels/gemm.hpp"

namespace codesim::kernels {

RowMatrixXf gemm(const RowMatrixXf& a, const RowMatrixXf& b, double& flops) {
  flops += 2.0 * static_cast<double>(a.rows()) * static_cast<double>(a.cols()) *
           static_cast<double>(b.cols());
  RowMatrixXf c(a.rows(), b.cols());
  c.noalias() = a * b;
  return c;
}

}  // namespace codesim::kernels
