// lib/runtime/gemm: multiply() equals the textbook triple loop for float and double, for each ISA this
// CPU runs, with any strides of A and B, shapes that leave edge tiles, and K over several blocks;
// set_mm_isa clamps to what the CPU supports.
#include "schemac/gemm/gemm.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schemac::gemm {
namespace {

struct Shape {
  int64_t m, k, n;
};
// Edge tiles in every direction; {12, 520, 64} spans three blocks of K (256 each).
const Shape kShapes[] = {{1, 1, 1}, {7, 5, 3}, {6, 32, 32}, {33, 300, 65}, {12, 520, 64}, {130, 17, 200}};

// Element (i, j) of an r x c matrix stored with strides (rs, cs) in a buffer of `size` values.
template <typename T>
std::vector<T> filled(int64_t size, int seed) {
  std::vector<T> v(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) v[static_cast<size_t>(i)] = T((i * seed + 7) % 23) / T(8) - T(1);
  return v;
}

template <typename T>
void check_product(CpuIsa isa, const Shape& s, bool transposed) {
  // A is m x k and B is k x n, row-major, or (transposed) stored column-major with a gap.
  const int64_t a_row = transposed ? 1 : s.k, a_col = transposed ? s.m + 3 : 1;
  const int64_t b_row = transposed ? 1 : s.n, b_col = transposed ? s.k + 2 : 1;
  const auto a = filled<T>(transposed ? a_col * s.k : s.m * s.k, 3);
  const auto b = filled<T>(transposed ? b_col * s.n : s.k * s.n, 5);
  std::vector<T> c(static_cast<size_t>(s.m * s.n), T(-99));
  multiply(Gemm<T>{a.data(), a_row, a_col, b.data(), b_row, b_col, c.data(), s.n, s.m, s.n, s.k});
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) {
      double want = 0;
      for (int64_t p = 0; p < s.k; ++p)
        want += double(a[size_t(i * a_row + p * a_col)]) * double(b[size_t(p * b_row + j * b_col)]);
      const double tolerance = (sizeof(T) == 4 ? 1e-5 : 1e-12) * (1 + s.k);
      ASSERT_NEAR(double(c[size_t(i * s.n + j)]), want, tolerance)
          << to_string(isa) << " " << s.m << "x" << s.k << "x" << s.n << " at " << i << "," << j
          << (transposed ? " transposed" : "");
    }
  }
}

TEST(Gemm, MatchesTheTripleLoopForEveryIsa) {
  for (CpuIsa isa : {CpuIsa::Baseline, CpuIsa::Avx2, CpuIsa::Avx512}) {
    if (isa > detected_isa()) continue;
    set_mm_isa(isa);
    ASSERT_EQ(mm_isa(), isa);
    for (const Shape& s : kShapes) {
      for (bool transposed : {false, true}) {
        check_product<float>(isa, s, transposed);
        check_product<double>(isa, s, transposed);
      }
    }
  }
  set_mm_isa(detected_isa());
}

TEST(Gemm, KZeroLeavesC) {
  const std::vector<float> a(4), b(4);
  std::vector<float> c(4, 5.0f);
  multiply(Gemm<float>{a.data(), 0, 1, b.data(), 2, 1, c.data(), 2, 2, 2, 0});
  EXPECT_EQ(c, std::vector<float>(4, 5.0f));
}

TEST(Gemm, IsaOverrideIsClampedAndNamed) {
  set_mm_isa(CpuIsa::Avx512);
  EXPECT_EQ(mm_isa(), std::min(CpuIsa::Avx512, detected_isa()));
  set_mm_isa(CpuIsa::Baseline);
  EXPECT_EQ(mm_isa(), CpuIsa::Baseline);
  set_mm_isa(detected_isa());
  EXPECT_EQ(std::string(to_string(CpuIsa::Baseline)), "baseline");
  EXPECT_EQ(std::string(to_string(CpuIsa::Avx2)), "avx2");
  EXPECT_EQ(std::string(to_string(CpuIsa::Avx512)), "avx512");
}

}  // namespace
}  // namespace schemac::gemm
