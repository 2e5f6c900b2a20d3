// copy_ on the CPU: any strides, broadcasting, dtype conversion; a memcpy path for matching
// dense layouts and a cache-blocked transpose for layout changes such as NCHW -> channels_last.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fmt/format.h>

#include "../common/convert.h"
#include "../common/loop_plan.h"
#include "cpu_checks.h"
#include "schemac/kernels/cpu_features.h"
#include "schemac/kernels/native_functions.h"
#include "schemac/support/thread_pool.h"
#include "transpose.h"

namespace schemac::kernels {

using core::Tensor, support::parallel_for;

namespace {

constexpr int64_t kCopyGrain = 1 << 16;  // elements per parallel chunk, at least
// Chunks per thread, claimed one at a time: a thread that starts late leaves its share to others.
constexpr int kChunksPerThread = 8;

template <typename Word>
void strided_copy(char* dst, int64_t ds, const char* src, int64_t ss, int64_t n) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * ds, src + i * ss, sizeof(Word));
}

void same_type_inner(char** p, const int64_t* s, int64_t n, int64_t elsize) {
  if (s[0] == elsize && s[1] == elsize) {
    std::memcpy(p[0], p[1], static_cast<std::size_t>(n * elsize));
    return;
  }
  switch (elsize) {
    case 1: strided_copy<uint8_t>(p[0], s[0], p[1], s[1], n); break;
    case 2: strided_copy<uint16_t>(p[0], s[0], p[1], s[1], n); break;
    case 4: strided_copy<uint32_t>(p[0], s[0], p[1], s[1], n); break;
    default: strided_copy<uint64_t>(p[0], s[0], p[1], s[1], n); break;
  }
}

template <typename D, typename S>
void convert_inner(char** p, const int64_t* s, int64_t n) {
  if (s[0] == sizeof(D) && s[1] == sizeof(S)) {
    auto* dst = reinterpret_cast<D*>(p[0]);
    const auto* src = reinterpret_cast<const S*>(p[1]);
    for (int64_t i = 0; i < n; ++i) dst[i] = convert<D>(src[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const auto* src = reinterpret_cast<const S*>(p[1] + i * s[1]);
    auto* dst = reinterpret_cast<D*>(p[0] + i * s[0]);
    *dst = convert<D>(*src);
  }
}

// One full tile of 4-byte words, in 4 x 4 blocks transposed in SSE2 registers: four rows
// loaded, four columns stored, instead of sixteen single-word gathers.
template <int64_t kTile>
void transpose_tile_4x4(uint32_t* dst, int64_t dst_ld, const uint32_t* src, int64_t src_ld) {
#if defined(__SSE2__)
  for (int64_t j = 0; j < kTile; j += 4) {
    for (int64_t i = 0; i < kTile; i += 4) {
      const uint32_t* s = src + i * src_ld + j;
      const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
      const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + src_ld));
      const __m128i r2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 2 * src_ld));
      const __m128i r3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 3 * src_ld));
      const __m128i t0 = _mm_unpacklo_epi32(r0, r1);  // r0[0] r1[0] r0[1] r1[1]
      const __m128i t1 = _mm_unpacklo_epi32(r2, r3);
      const __m128i t2 = _mm_unpackhi_epi32(r0, r1);  // r0[2] r1[2] r0[3] r1[3]
      const __m128i t3 = _mm_unpackhi_epi32(r2, r3);
      uint32_t* d = dst + j * dst_ld + i;
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm_unpacklo_epi64(t0, t1));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + dst_ld), _mm_unpackhi_epi64(t0, t1));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 2 * dst_ld), _mm_unpacklo_epi64(t2, t3));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 3 * dst_ld), _mm_unpackhi_epi64(t2, t3));
    }
  }
#else
  for (int64_t j = 0; j < kTile; ++j)
    for (int64_t i = 0; i < kTile; ++i) dst[j * dst_ld + i] = src[i * src_ld + j];
#endif
}

// One 2-d transpose: dst[i + j * dst_ld] = src[i * src_ld + j] for i < rows, j < cols, for the
// column tiles [j_begin, j_end) (all in elements of type Word).
template <typename Word>
void transpose_tiles(Word* dst, int64_t dst_ld, const Word* src, int64_t src_ld, int64_t rows,
                     int64_t j_begin, int64_t j_end) {
  constexpr int64_t kTile = 64 / sizeof(Word) * 2;  // 32 floats: a few cache lines per row
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(rows, i0 + kTile);
    for (int64_t j0 = j_begin; j0 < j_end; j0 += kTile) {
      const int64_t j1 = std::min(j_end, j0 + kTile);
      if constexpr (std::is_same_v<Word, uint32_t>) {
        if (i1 - i0 == kTile && j1 - j0 == kTile) {
          transpose_tile_4x4<kTile>(dst + j0 * dst_ld + i0, dst_ld, src + i0 * src_ld + j0, src_ld);
          continue;
        }
      }
      if (i1 - i0 == kTile && j1 - j0 == kTile) {
        for (int64_t j = 0; j < kTile; ++j) {
          Word* d = dst + (j0 + j) * dst_ld + i0;
          const Word* s = src + i0 * src_ld + j0 + j;
          for (int64_t i = 0; i < kTile; ++i) d[i] = s[i * src_ld];
        }
      } else {
        for (int64_t j = j0; j < j1; ++j)
          for (int64_t i = i0; i < i1; ++i) dst[j * dst_ld + i] = src[i * src_ld + j];
      }
    }
  }
}

// A plan whose two inner dimensions swap between source and destination: dimension 0 is
// contiguous in dst, dimension 1 contiguous in src. Batches over the outer dimensions.
bool is_transpose_plan(const LoopPlan& plan, int64_t elsize) {
  if (plan.shape.size() < 2) return false;
  const auto& s0 = plan.strides[0];
  const auto& s1 = plan.strides[1];
  return s0[0] == elsize && s1[1] == elsize && s0[1] != 0 && s1[0] != 0 && plan.shape[0] >= 8 &&
         plan.shape[1] >= 8;
}

template <typename Word>
void transpose_copy(const LoopPlan& plan) {
  const int64_t w = sizeof(Word);
  const int64_t rows = plan.shape[0];  // i: contiguous in dst
  const int64_t cols = plan.shape[1];  // j: contiguous in src
  const int64_t dst_ld = plan.strides[1][0] / w;
  const int64_t src_ld = plan.strides[0][1] / w;
  // Outer (batch) dimensions.
  std::vector<int64_t> outer_shape(plan.shape.begin() + 2, plan.shape.end());
  int64_t batches = 1;
  for (int64_t s : outer_shape) batches *= s;
  constexpr int64_t kColsPerTask = 256;
  const int64_t col_tasks = (cols + kColsPerTask - 1) / kColsPerTask;
  const int64_t grain =
      std::max<int64_t>(1, kCopyGrain / std::max<int64_t>(1, rows * kColsPerTask));
  // Destination rows adjacent (e.g. NCHW -> channels_last): AVX2 blocks, and streaming stores
  // when source and destination together do not fit in the cache (cache_resident_bytes()).
  [[maybe_unused]] const bool dense_dst =  // read only when Word is uint32_t
      std::is_same_v<Word, uint32_t> && dst_ld == rows && cpu::can_transpose_dense_dst(rows);
  const bool stream = 2 * plan.numel * w > cache_resident_bytes();
  parallel_for(
      0, batches * col_tasks, grain,
      [&](int64_t begin, int64_t end) {
        for (int64_t task = begin; task < end; ++task) {
          int64_t b = task / col_tasks;
          const int64_t jt = task % col_tasks;
          char* dst = plan.data[0];
          const char* src = plan.data[1];
          for (std::size_t d = 0; d < outer_shape.size(); ++d) {
            const int64_t i = b % outer_shape[d];
            b /= outer_shape[d];
            dst += i * plan.strides[d + 2][0];
            src += i * plan.strides[d + 2][1];
          }
          const int64_t j_begin = jt * kColsPerTask,
                        j_end = std::min(cols, (jt + 1) * kColsPerTask);
          if constexpr (std::is_same_v<Word, uint32_t>) {
            if (dense_dst) {
              cpu::transpose_dense_dst(reinterpret_cast<uint32_t*>(dst),
                                       reinterpret_cast<const uint32_t*>(src), src_ld, rows,
                                       j_begin, j_end, stream);
              continue;
            }
          }
          transpose_tiles<Word>(reinterpret_cast<Word*>(dst), dst_ld,
                                reinterpret_cast<const Word*>(src), src_ld, rows, j_begin, j_end);
        }
      },
      kChunksPerThread);
}

}  // namespace

Tensor& copy_cpu_(Tensor& self, const Tensor& src, bool /*non_blocking*/) {
  cpu::check_cpu("copy_", "self", self);
  cpu::check_cpu("copy_", "src", src);
  if (self.is_same(src) || self.numel() == 0) return self;
  const LoopPlan plan = make_loop_plan({self, src}, self.sizes());
  const auto elsize = static_cast<int64_t>(self.element_size());
  if (self.dtype() == src.dtype()) {
    if (is_transpose_plan(plan, elsize)) {
      switch (elsize) {
        case 1: transpose_copy<uint8_t>(plan); break;
        case 2: transpose_copy<uint16_t>(plan); break;
        case 4: transpose_copy<uint32_t>(plan); break;
        default: transpose_copy<uint64_t>(plan); break;
      }
    } else {
      parallel_for(
          0, plan.numel, kCopyGrain,
          [&](int64_t b, int64_t e) {
            run_plan_range(plan, b, e, [&](char** p, const int64_t* s, int64_t n) {
              same_type_inner(p, s, n, elsize);
            });
          },
          kChunksPerThread);
    }
  } else {
    core::visit_scalar_type(self.dtype(), [&]<typename D>() {
      core::visit_scalar_type(src.dtype(), [&]<typename S>() {
        parallel_for(
            0, plan.numel, kCopyGrain,
            [&](int64_t b, int64_t e) { run_plan_range(plan, b, e, convert_inner<D, S>); },
            kChunksPerThread);
      });
    });
  }
  return self;
}

}  // namespace schemac::kernels
