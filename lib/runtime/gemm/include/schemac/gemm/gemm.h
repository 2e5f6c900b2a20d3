// The blocked GEMM behind mm on the CPU: C (m x n, row-major, leading dimension ldc) = A (m x k)
// * B (k x n), with A and B given by element strides, for float and double. Panels of B and
// blocks of A are packed into contiguous buffers (which makes any input strides cheap) and an
// MR x NR micro-kernel keeps its block of C in registers; the work is split across the thread
// pool along C's longer side. The micro-kernel is instantiated for the baseline ISA, AVX2+FMA and
// AVX-512, and chosen at run time.
#pragma once

#include <cstdint>
#include <string_view>

namespace schemac::gemm {

// Which vector instruction set the micro-kernel uses.
enum class CpuIsa { Baseline, Avx2, Avx512 };

std::string_view to_string(CpuIsa isa);  // "baseline", "avx2", "avx512"
// The best ISA this CPU supports (checked once).
CpuIsa detected_isa();
// The ISA multiply() uses: detected_isa() unless overridden; the override is clamped to what the
// CPU supports. For tests and benchmarks that compare the paths.
CpuIsa mm_isa();
void set_mm_isa(CpuIsa isa);

// One product: C = A * B. Strides are in elements; C's rows are ldc elements apart and its
// columns adjacent. With k == 0, C is left as it is (the caller zeroes it).
template <typename T>
struct Gemm {
  const T* a;
  int64_t a_row, a_col;
  const T* b;
  int64_t b_row, b_col;
  T* c;
  int64_t ldc;
  int64_t m, n, k;
};

void multiply(const Gemm<float>& g);
void multiply(const Gemm<double>& g);

}  // namespace schemac::gemm
