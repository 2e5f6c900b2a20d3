// Row reductions on CUDA: one block per row (grid-stride over rows), a shared-memory tree for
// the block's partial sums; softmax makes three passes over its row (max, sum of exp, write).
#include <cmath>
#include <type_traits>

#include "../common/convert.h"
#include "cuda_check.cuh"
#include "launch.h"

namespace schemac::kernels::cuda {

using core::ScalarType;

namespace {

constexpr int kThreads = 256;

// The accumulation type: double for float64, float for the other floats, int64 otherwise.
template <typename T>
using acc_t =
    std::conditional_t<std::is_same_v<T, double>, double,
                       std::conditional_t<std::is_floating_point_v<compute_t<T>>, float, int64_t>>;

// Sum of `value` over the block; every thread gets the result.
template <typename A>
__device__ A block_sum(A value, A* shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int width = kThreads / 2; width > 0; width /= 2) {
    if (threadIdx.x < width) shared[threadIdx.x] += shared[threadIdx.x + width];
    __syncthreads();
  }
  const A total = shared[0];
  __syncthreads();
  return total;
}

template <typename A>
__device__ A block_max(A value, A* shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int width = kThreads / 2; width > 0; width /= 2) {
    if (threadIdx.x < width)
      shared[threadIdx.x] = fmax(shared[threadIdx.x], shared[threadIdx.x + width]);
    __syncthreads();
  }
  const A total = shared[0];
  __syncthreads();
  return total;
}

template <typename T>
__global__ void reduce_rows_kernel(const T* in, T* out, int64_t rows, int64_t len, bool mean) {
  using A = acc_t<T>;
  __shared__ A shared[kThreads];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    A partial = 0;
    for (int64_t i = threadIdx.x; i < len; i += kThreads)
      partial += static_cast<A>(convert<compute_t<T>>(in[r * len + i]));
    const A total = block_sum(partial, shared);
    if (threadIdx.x == 0) {
      if (!mean) {
        out[r] = convert<T>(total);
      } else if constexpr (std::is_floating_point_v<A>) {
        out[r] = convert<T>(static_cast<A>(total / static_cast<A>(len)));
      } else {
        out[r] = convert<T>(total / (len > 0 ? len : 1));
      }
    }
  }
}

template <typename T>
__global__ void softmax_rows_kernel(const T* in, T* out, int64_t rows, int64_t len) {
  using A = acc_t<T>;
  __shared__ A shared[kThreads];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* x = in + r * len;
    A max = -INFINITY;
    for (int64_t i = threadIdx.x; i < len; i += kThreads)
      max = fmax(max, static_cast<A>(convert<compute_t<T>>(x[i])));
    max = block_max(max, shared);
    if (isinf(max) && max < 0) max = 0;
    A partial = 0;
    for (int64_t i = threadIdx.x; i < len; i += kThreads)
      partial += exp(static_cast<A>(convert<compute_t<T>>(x[i])) - max);
    const A scale = A(1) / block_sum(partial, shared);
    for (int64_t i = threadIdx.x; i < len; i += kThreads)
      out[r * len + i] = convert<T>(exp(static_cast<A>(convert<compute_t<T>>(x[i])) - max) * scale);
  }
}

unsigned row_blocks(int64_t rows) {
  return static_cast<unsigned>(rows < 1 ? 1 : (rows > 65536 ? 65536 : rows));
}

}  // namespace

void reduce_rows(ScalarType t, const void* in, void* out, int64_t rows, int64_t len, bool mean) {
  if (rows == 0) return;
  core::visit_scalar_type(t, [&]<typename T>() {
    reduce_rows_kernel<T><<<row_blocks(rows), kThreads>>>(static_cast<const T*>(in),
                                                          static_cast<T*>(out), rows, len, mean);
  });
  check_launch(mean ? "mean" : "sum");
}

void softmax_rows(ScalarType t, const void* in, void* out, int64_t rows, int64_t len) {
  if (rows == 0 || len == 0) return;
  core::visit_scalar_type(t, [&]<typename T>() {
    if constexpr (std::is_floating_point_v<compute_t<T>>)
      softmax_rows_kernel<T><<<row_blocks(rows), kThreads>>>(static_cast<const T*>(in),
                                                             static_cast<T*>(out), rows, len);
  });
  check_launch("softmax");
}

}  // namespace schemac::kernels::cuda
