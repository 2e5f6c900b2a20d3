// AVX2 transposes for copy_ (transpose.h).
#include "transpose.h"

#include <cstring>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define SCHEMAC_TRANSPOSE_AVX2 1
#else
#define SCHEMAC_TRANSPOSE_AVX2 0
#endif

namespace schemac::kernels::cpu {

#if SCHEMAC_TRANSPOSE_AVX2
namespace {

// Columns of the source done at a time: one cache line of each source row, and 16 destination
// rows (whole cache lines when rows is a multiple of 16) written in one contiguous run.
constexpr int64_t kBlockCols = 16;
// How far ahead (in columns) the source rows are prefetched: a block reads one cache line from
// each of `rows` rows, more streams than the hardware prefetchers follow.
constexpr int64_t kPrefetchCols = 64;

// 8 rows of 8 words at src (leading dimension src_ld) -> their transpose at dst (dst_ld).
__attribute__((target("avx2"), always_inline)) inline void transpose_8x8(const float* src,
                                                                         int64_t src_ld, float* dst,
                                                                         int64_t dst_ld) {
  const __m256 r0 = _mm256_loadu_ps(src);
  const __m256 r1 = _mm256_loadu_ps(src + src_ld);
  const __m256 r2 = _mm256_loadu_ps(src + 2 * src_ld);
  const __m256 r3 = _mm256_loadu_ps(src + 3 * src_ld);
  const __m256 r4 = _mm256_loadu_ps(src + 4 * src_ld);
  const __m256 r5 = _mm256_loadu_ps(src + 5 * src_ld);
  const __m256 r6 = _mm256_loadu_ps(src + 6 * src_ld);
  const __m256 r7 = _mm256_loadu_ps(src + 7 * src_ld);
  // Pairs of rows interleaved, then quads: s0 holds column 0 of rows 0-3 and column 4 of rows
  // 0-3, s4 the same of rows 4-7; the 128-bit halves then make whole columns.
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
  const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  const __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
  const __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  const __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
  _mm256_storeu_ps(dst, _mm256_permute2f128_ps(s0, s4, 0x20));
  _mm256_storeu_ps(dst + dst_ld, _mm256_permute2f128_ps(s1, s5, 0x20));
  _mm256_storeu_ps(dst + 2 * dst_ld, _mm256_permute2f128_ps(s2, s6, 0x20));
  _mm256_storeu_ps(dst + 3 * dst_ld, _mm256_permute2f128_ps(s3, s7, 0x20));
  _mm256_storeu_ps(dst + 4 * dst_ld, _mm256_permute2f128_ps(s0, s4, 0x31));
  _mm256_storeu_ps(dst + 5 * dst_ld, _mm256_permute2f128_ps(s1, s5, 0x31));
  _mm256_storeu_ps(dst + 6 * dst_ld, _mm256_permute2f128_ps(s2, s6, 0x31));
  _mm256_storeu_ps(dst + 7 * dst_ld, _mm256_permute2f128_ps(s3, s7, 0x31));
}

// `n` words (a multiple of 8) from the L1-resident `buffer` to `dst` with streaming stores
// (`dst` 32-byte aligned).
__attribute__((target("avx2"))) void stream_out(float* dst, const float* buffer, int64_t n) {
  for (int64_t i = 0; i < n; i += 8) _mm256_stream_ps(dst + i, _mm256_load_ps(buffer + i));
}

__attribute__((target("avx2"))) void transpose_avx2(float* dst, const float* src, int64_t src_ld,
                                                    int64_t rows, int64_t j_begin, int64_t j_end,
                                                    bool stream) {
  // On the stack (at most 64 KiB): a thread_local here costs a __tls_get_addr call per use in a
  // shared library, which the compiler does not hoist out of the loop.
  alignas(64) float buffer[kBlockCols * kMaxDenseRows];
  int64_t j0 = j_begin;
  for (; j0 + kBlockCols <= j_end; j0 += kBlockCols) {
    float* out = dst + j0 * rows;
    const bool streamed = stream && reinterpret_cast<uintptr_t>(out) % 32 == 0;
    float* block = streamed ? buffer : out;
    for (int64_t i0 = 0; i0 < rows; i0 += 8) {
      const float* in = src + i0 * src_ld + j0;
      for (int64_t i = 0; i < 8; ++i)
        _mm_prefetch(reinterpret_cast<const char*>(in + i * src_ld + kPrefetchCols), _MM_HINT_T0);
      transpose_8x8(in, src_ld, block + i0, rows);
      transpose_8x8(in + 8, src_ld, block + 8 * rows + i0, rows);
    }
    if (streamed) stream_out(out, buffer, kBlockCols * rows);
  }
  for (int64_t j = j0; j < j_end; ++j)  // the last columns, fewer than a block
    for (int64_t i = 0; i < rows; ++i) dst[j * rows + i] = src[i * src_ld + j];
  if (stream) _mm_sfence();
}

}  // namespace

bool can_transpose_dense_dst(int64_t rows) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2 && rows > 0 && rows % 8 == 0 && rows <= kMaxDenseRows;
}

void transpose_dense_dst(uint32_t* dst, const uint32_t* src, int64_t src_ld, int64_t rows,
                         int64_t j_begin, int64_t j_end, bool stream) {
  // The words are moved, never computed on: as floats they are only loaded and stored.
  transpose_avx2(reinterpret_cast<float*>(dst), reinterpret_cast<const float*>(src), src_ld, rows,
                 j_begin, j_end, stream);
}

#else

bool can_transpose_dense_dst(int64_t) { return false; }
void transpose_dense_dst(uint32_t*, const uint32_t*, int64_t, int64_t, int64_t, int64_t, bool) {}

#endif

}  // namespace schemac::kernels::cpu
