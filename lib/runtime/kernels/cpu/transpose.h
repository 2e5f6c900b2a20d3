// The AVX2 path of copy_'s transposes (NCHW -> channels_last and the like) for 4-byte elements:
// 8 x 8 blocks transposed in registers, and, for outputs that do not fit in the last-level
// cache, non-temporal (streaming) stores of whole cache lines.
#pragma once

#include <cstdint>

namespace schemac::kernels::cpu {

// Whether transpose_dense_dst can do a transpose of `rows` rows: the CPU has AVX2 and rows is a
// multiple of 8 no larger than kMaxDenseRows.
inline constexpr int64_t kMaxDenseRows = 1024;
bool can_transpose_dense_dst(int64_t rows);

// dst[i + j * rows] = src[i * src_ld + j] for i < rows and j in [j_begin, j_end): a transpose
// whose destination rows are adjacent (dst's leading dimension is `rows`), so the columns
// [j_begin, j_end) of the source become one contiguous run of the destination. With `stream`,
// that run is written with non-temporal stores, 16 columns (16 * rows words) at a time, through
// a small buffer that stays in the L1 cache.
void transpose_dense_dst(uint32_t* dst, const uint32_t* src, int64_t src_ld, int64_t rows,
                         int64_t j_begin, int64_t j_end, bool stream);

}  // namespace schemac::kernels::cpu
