// The reference kernels' threads (OpenMP, and Eigen's GEMM through it). A process forked after
// they ran has lost OpenMP's thread pool (libgomp does not survive fork: the child's next
// parallel region of more than one thread waits forever for threads that are not there), so a
// forked child calls this before any kernel runs; its kernels then run on one thread.
#pragma once

namespace codesim::kernels {

void run_on_one_thread();

}  // namespace codesim::kernels
