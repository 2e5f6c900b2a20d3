// mm on CUDA: 32 x 32 tiles of A and B staged in shared memory, each thread accumulating one
// element of C in the compute type (float for float16/bfloat16). Any input strides.
#include <type_traits>

#include "../common/convert.h"
#include "cuda_check.cuh"
#include "launch.h"

namespace schemac::kernels::cuda {
namespace {

constexpr int kTile = 32;

template <typename T>
__global__ void mm_kernel(const T* a, int64_t a_row, int64_t a_col, const T* b, int64_t b_row, int64_t b_col, T* c,
                          int64_t m, int64_t n, int64_t k) {
  using C = compute_t<T>;
  __shared__ C a_tile[kTile][kTile];
  __shared__ C b_tile[kTile][kTile + 1];
  const int64_t row = blockIdx.y * int64_t(kTile) + threadIdx.y;
  const int64_t col = blockIdx.x * int64_t(kTile) + threadIdx.x;
  C acc = 0;
  for (int64_t p0 = 0; p0 < k; p0 += kTile) {
    const int64_t ap = p0 + threadIdx.x;
    const int64_t bp = p0 + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] = row < m && ap < k ? convert<C>(a[row * a_row + ap * a_col]) : C(0);
    b_tile[threadIdx.y][threadIdx.x] = bp < k && col < n ? convert<C>(b[bp * b_row + col * b_col]) : C(0);
    __syncthreads();
#pragma unroll 8
    for (int p = 0; p < kTile; ++p) acc += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = convert<T>(acc);
}

}  // namespace

void mm(ScalarType t, const void* a, int64_t a_row, int64_t a_col, const void* b, int64_t b_row, int64_t b_col,
        void* c, int64_t m, int64_t n, int64_t k) {
  if (m == 0 || n == 0) return;
  const dim3 threads(kTile, kTile);
  const dim3 blocks(static_cast<unsigned>((n + kTile - 1) / kTile), static_cast<unsigned>((m + kTile - 1) / kTile));
  dispatch::visit_scalar_type(t, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>)
      mm_kernel<T><<<blocks, threads>>>(static_cast<const T*>(a), a_row, a_col, static_cast<const T*>(b), b_row, b_col,
                                        static_cast<T*>(c), m, n, k);
  });
  check_launch("mm");
}

}  // namespace schemac::kernels::cuda
