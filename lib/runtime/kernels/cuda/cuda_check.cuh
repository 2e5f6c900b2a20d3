// Turns a CUDA error into a TensorError naming what failed (no fmt in .cu files: nvcc cannot
// compile its compile-time format checks).
#pragma once

#include <string>

#include <cuda_runtime.h>

#include "schemac/core/tensor.h"

namespace schemac::kernels::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw core::TensorError(std::string(what) + ": CUDA error: " + cudaGetErrorString(status));
}

// After a kernel launch.
inline void check_launch(const char* what) { check(cudaGetLastError(), what); }

// Blocks for n elements with 256 threads each, grid-stride loops covering the rest.
inline unsigned blocks_for(int64_t n, int threads = 256) {
  const int64_t blocks = (n + threads - 1) / threads;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 65536 ? 65536 : blocks));
}

}  // namespace schemac::kernels::cuda
