// mm on the CPU. float32 and float64 go to lib/runtime/gemm's blocked GEMM (any strides); float16
// and bfloat16 are computed in float32; integer types use a simple loop.
#include <algorithm>
#include <type_traits>

#include <fmt/format.h>

#include "../common/convert.h"
#include "cpu_checks.h"
#include "schemac/gemm/gemm.h"
#include "schemac/kernels/native_functions.h"
#include "schemac/support/thread_pool.h"

namespace schemac::kernels {

using core::ScalarType, core::Tensor, support::parallel_for;

namespace {

// Integer mm: C[i, j] = sum_p A[i, p] * B[p, j], row by row (i-p-j order).
template <typename T>
void simple_mm(const Tensor& a, const Tensor& b, Tensor& c) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  const T* ap = static_cast<const T*>(a.data_ptr());
  const T* bp = static_cast<const T*>(b.data_ptr());
  T* cp = static_cast<T*>(c.data_ptr());
  const int64_t ar = a.stride(0), ac = a.stride(1), br = b.stride(0), bc = b.stride(1);
  parallel_for(0, m, std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(1, n * k)),
               [&](int64_t ib, int64_t ie) {
                 for (int64_t i = ib; i < ie; ++i) {
                   T* row = cp + i * n;
                   for (int64_t j = 0; j < n; ++j) row[j] = T(0);
                   for (int64_t p = 0; p < k; ++p) {
                     const T av = ap[i * ar + p * ac];
                     const T* brow = bp + p * br;
                     for (int64_t j = 0; j < n; ++j) row[j] += av * brow[j * bc];
                   }
                 }
               });
}

}  // namespace

Tensor mm_cpu(const Tensor& self, const Tensor& mat2) {
  cpu::check_cpu("mm", "self", self);
  cpu::check_cpu("mm", "mat2", mat2);
  if (self.dim() != 2 || mat2.dim() != 2)
    throw core::TensorError(fmt::format("mm: expected 2-d tensors, got {}-d self and {}-d mat2",
                                        self.dim(), mat2.dim()));
  if (self.size(1) != mat2.size(0))
    throw core::TensorError(
        fmt::format("mm: self and mat2 shapes cannot be multiplied ({}x{} and {}x{})", self.size(0),
                    self.size(1), mat2.size(0), mat2.size(1)));
  if (self.dtype() != mat2.dtype())
    throw core::TensorError(
        fmt::format("mm: expected self and mat2 to have the same dtype, but got {} != {}",
                    core::to_string(self.dtype()), core::to_string(mat2.dtype())));
  const ScalarType dtype = self.dtype();
  if (dtype == ScalarType::Bool) throw core::TensorError("mm: not implemented for bool");
  if (dtype == ScalarType::Half || dtype == ScalarType::BFloat16)
    return to_dtype(mm_cpu(to_dtype(self, ScalarType::Float), to_dtype(mat2, ScalarType::Float)),
                    dtype);

  const int64_t m = self.size(0), k = self.size(1), n = mat2.size(1);
  Tensor out = Tensor::empty({m, n}, {dtype, core::kCPU});
  if (out.numel() == 0) return out;
  if (k == 0) return fill_cpu_(out, core::Scalar(int64_t{0}));
  core::visit_scalar_type(dtype, [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const gemm::Gemm<T> g{static_cast<const T*>(self.data_ptr()),
                            self.stride(0),
                            self.stride(1),
                            static_cast<const T*>(mat2.data_ptr()),
                            mat2.stride(0),
                            mat2.stride(1),
                            static_cast<T*>(out.data_ptr()),
                            n,
                            m,
                            n,
                            k};
      gemm::multiply(g);
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      simple_mm<T>(self, mat2, out);
    }
  });
  return out;
}

}  // namespace schemac::kernels
