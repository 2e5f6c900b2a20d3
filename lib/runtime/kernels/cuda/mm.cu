// mm on CUDA. Each block of 256 threads computes a 128 x 128 tile of C, each thread an 8 x 8 piece
// of it in registers, in the compute type (float for float16/bfloat16): per step of k it reads 8
// values of A and 8 of B from shared memory and does 64 multiply-adds. Tiles of A (128 x 16) and B
// (16 x 128; 8 for 8-byte types) are staged in shared memory, double-buffered, A transposed, so a
// thread's 8 values of either are contiguous there. A thread's rows (and columns) are two runs of
// 4, 64 apart: the threads of a warp then read shared memory without bank conflicts. Any input
// strides; the tiles are loaded along whichever dimension of the input is contiguous, and
// zero-filled past its edges.
#include <type_traits>

#include "../common/convert.h"
#include "cuda_check.cuh"
#include "launch.h"

namespace schemac::kernels::cuda {

using core::ScalarType;

namespace {

constexpr int kTile = 128;  // rows and columns of C per block
constexpr int kThreads = 256;
constexpr int kPerThread = 8;  // rows (and columns) of C per thread: 2 runs of 4, kTile / 2 apart

// Values of k per shared-memory tile: two buffers of A's and B's tiles fill 32 KiB.
template <typename C>
constexpr int kStep = sizeof(C) >= 8 ? 8 : 16;

// Element e of a tile of `rows` x `cols`: counted along the columns when they are contiguous in
// memory, else along the rows, so that neighbouring threads read neighbouring addresses.
__device__ inline void tile_position(int e, int rows, int cols, bool along_columns, int& r,
                                     int& c) {
  if (along_columns) {
    r = e / cols;
    c = e % cols;
  } else {
    c = e / rows;
    r = e % rows;
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    mm_kernel(const T* a, int64_t a_row, int64_t a_col, const T* b, int64_t b_row, int64_t b_col,
              T* c, int64_t m, int64_t n, int64_t k) {
  using C = compute_t<T>;
  constexpr int step = kStep<C>;
  constexpr int loads = kTile * step / kThreads;  // values of each tile one thread loads
  __shared__ C a_tile[2][step][kTile];            // a_tile[buffer][p][i] = A[row0 + i, p0 + p]
  __shared__ C b_tile[2][step][kTile];            // b_tile[buffer][p][j] = B[p0 + p, col0 + j]
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t row0 = blockIdx.y * int64_t(kTile), col0 = blockIdx.x * int64_t(kTile);
  const bool a_along_k = a_col == 1, b_along_n = b_col == 1 || b_row != 1;
  // The next tiles travel through registers: their loads from global memory are in flight while
  // the current tiles are multiplied.
  C a_next[loads], b_next[loads];
  auto load = [&](int64_t p0) {
#pragma unroll
    for (int l = 0; l < loads; ++l) {
      int i, p, q, j;
      tile_position(threadIdx.x + l * kThreads, kTile, step, a_along_k, i, p);
      a_next[l] =
          row0 + i < m && p0 + p < k ? convert<C>(a[(row0 + i) * a_row + (p0 + p) * a_col]) : C(0);
      tile_position(threadIdx.x + l * kThreads, step, kTile, b_along_n, q, j);
      b_next[l] =
          p0 + q < k && col0 + j < n ? convert<C>(b[(p0 + q) * b_row + (col0 + j) * b_col]) : C(0);
    }
  };
  auto store = [&](int buffer) {
#pragma unroll
    for (int l = 0; l < loads; ++l) {
      int i, p, q, j;
      tile_position(threadIdx.x + l * kThreads, kTile, step, a_along_k, i, p);
      a_tile[buffer][p][i] = a_next[l];
      tile_position(threadIdx.x + l * kThreads, step, kTile, b_along_n, q, j);
      b_tile[buffer][q][j] = b_next[l];
    }
  };
  C acc[kPerThread][kPerThread] = {};
  load(0);
  store(0);
  __syncthreads();
  // One barrier per tile: a thread writes the other buffer only after every thread has passed the
  // barrier that ended its last reads of it.
  for (int64_t p0 = 0, buffer = 0; p0 < k; p0 += step, buffer ^= 1) {
    const bool more = p0 + step < k;
    if (more) load(p0 + step);
#pragma unroll
    for (int p = 0; p < step; ++p) {
      C av[kPerThread], bv[kPerThread];
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        av[x] = a_tile[buffer][p][ty * 4 + x];
        av[x + 4] = a_tile[buffer][p][kTile / 2 + ty * 4 + x];
        bv[x] = b_tile[buffer][p][tx * 4 + x];
        bv[x + 4] = b_tile[buffer][p][kTile / 2 + tx * 4 + x];
      }
#pragma unroll
      for (int x = 0; x < kPerThread; ++x)
#pragma unroll
        for (int y = 0; y < kPerThread; ++y) acc[x][y] += av[x] * bv[y];
    }
    if (more) store(buffer ^ 1);
    __syncthreads();
  }
#pragma unroll
  for (int x = 0; x < kPerThread; ++x) {
    const int64_t row = row0 + (x < 4 ? ty * 4 + x : kTile / 2 + ty * 4 + x - 4);
    if (row >= m) continue;
#pragma unroll
    for (int y = 0; y < kPerThread; ++y) {
      const int64_t col = col0 + (y < 4 ? tx * 4 + y : kTile / 2 + tx * 4 + y - 4);
      if (col < n) c[row * n + col] = convert<T>(acc[x][y]);
    }
  }
}

}  // namespace

void mm(ScalarType t, const void* a, int64_t a_row, int64_t a_col, const void* b, int64_t b_row,
        int64_t b_col, void* c, int64_t m, int64_t n, int64_t k) {
  if (m == 0 || n == 0) return;
  const dim3 blocks(static_cast<unsigned>((n + kTile - 1) / kTile),
                    static_cast<unsigned>((m + kTile - 1) / kTile));
  core::visit_scalar_type(t, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>)
      mm_kernel<T><<<blocks, kThreads>>>(static_cast<const T*>(a), a_row, a_col,
                                         static_cast<const T*>(b), b_row, b_col, static_cast<T*>(c),
                                         m, n, k);
  });
  check_launch("mm");
}

}  // namespace schemac::kernels::cuda
