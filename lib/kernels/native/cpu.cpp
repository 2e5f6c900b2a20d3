// The CPU entry points that the registration generated from examples/ops.yaml binds (declared
// in the generated NativeFunctions.h), each calling the CPU kernel of lib/kernels.
#include "NativeFunctions.h"
#include "schemac/kernels/native_functions.h"

namespace aten::native {

namespace k = ::schemac::kernels;

Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return k::empty_cpu(size, dtype, layout, device, pin_memory, memory_format);
}
Tensor& fill_cpu_(Tensor& self, const Scalar& value) { return k::fill_cpu_(self, value); }
Tensor& copy_cpu_(Tensor& self, const Tensor& src, bool non_blocking) {
  return k::copy_cpu_(self, src, non_blocking);
}
Tensor add_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return k::add_cpu(self, other, alpha);
}
Tensor& add_cpu_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  return k::add_cpu_(self, other, alpha);
}
Tensor& add_out_cpu(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return k::add_out_cpu(self, other, alpha, out);
}
Tensor mul_cpu(const Tensor& self, const Tensor& other) { return k::mul_cpu(self, other); }
Tensor relu_cpu(const Tensor& self) { return k::relu_cpu(self); }
Tensor& relu_cpu_(Tensor& self) { return k::relu_cpu_(self); }
Tensor sum_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  return k::sum_dim_cpu(self, dim, keepdim, dtype);
}
Tensor mean_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype) {
  return k::mean_dim_cpu(self, dim, keepdim, dtype);
}
Tensor softmax_cpu(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return k::softmax_cpu(self, dim, dtype);
}
Tensor mm_cpu(const Tensor& self, const Tensor& mat2) { return k::mm_cpu(self, mat2); }

}  // namespace aten::native
