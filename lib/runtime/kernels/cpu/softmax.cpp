// softmax.int on the CPU: the softmax dimension is moved innermost (copying when needed), each
// row is shifted by its maximum, exponentiated and normalised in float (double for float64).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../common/convert.h"
#include "cpu_checks.h"
#include "schemac/kernels/native_functions.h"
#include "schemac/support/thread_pool.h"

namespace schemac::kernels {

using core::ScalarType, core::Tensor;

Tensor softmax_cpu(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  cpu::check_cpu("softmax", "self", self);
  const ScalarType out_type = dtype.value_or(self.dtype());
  if (!core::is_floating_point(out_type))
    throw core::TensorError(fmt::format(
        "softmax: not implemented for {} (a floating dtype is needed)", core::to_string(out_type)));
  const int64_t ndim = self.dim();
  const int64_t d = core::wrap_dim(dim, ndim);
  const Tensor x = to_dtype(self, out_type);
  const Tensor moved = ndim == 0 ? x : x.transpose(d, ndim - 1);
  const Tensor rows_in = contiguous(moved, core::MemoryFormat::Contiguous);
  Tensor rows_out = Tensor::empty(rows_in.sizes(), {out_type, core::kCPU});
  const int64_t len = ndim == 0 ? 1 : rows_in.size(-1);
  const int64_t rows = len == 0 ? 0 : rows_in.numel() / len;
  core::visit_scalar_type(out_type, [&]<typename T>() {
    using C = compute_t<T>;
    if constexpr (std::is_floating_point_v<C>) {
      const T* in = static_cast<const T*>(rows_in.data_ptr());
      T* out = static_cast<T*>(rows_out.data_ptr());
      support::parallel_for(0, rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(len, 1)),
                            [&](int64_t b, int64_t e) {
                              std::vector<C> buf(len);
                              for (int64_t r = b; r < e; ++r) {
                                const T* x_row = in + r * len;
                                C max = -std::numeric_limits<C>::infinity();
                                for (int64_t i = 0; i < len; ++i)
                                  max = std::max(max, convert<C>(x_row[i]));
                                if (std::isinf(max) && max < 0)
                                  max = 0;  // an all -inf row: avoid inf - inf
                                C total = 0;
                                for (int64_t i = 0; i < len; ++i) {
                                  buf[i] = std::exp(convert<C>(x_row[i]) - max);
                                  total += buf[i];
                                }
                                const C scale = C(1) / total;
                                for (int64_t i = 0; i < len; ++i)
                                  out[r * len + i] = convert<T>(buf[i] * scale);
                              }
                            });
    }
  });
  if (ndim == 0 || d == ndim - 1) return rows_out;
  Tensor result = Tensor::empty(self.sizes(), {out_type, core::kCPU});
  copy_cpu_(result, rows_out.transpose(d, ndim - 1), false);
  return result;
}

}  // namespace schemac::kernels
