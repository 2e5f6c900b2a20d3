// The CUDA entry points that the registration generated from examples/ops.yaml binds (declared
// in the generated NativeFunctions.h), each calling the CUDA kernel of lib/kernels (which throws when
// the library was built without CUDA; the CUDA registrations are compiled only with it).
#include "NativeFunctions.h"
#include "schemac/kernels/native_functions.h"

namespace aten::native {

namespace k = ::schemac::kernels;

Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return k::empty_cuda(size, dtype, layout, device, pin_memory, memory_format);
}
Tensor& fill_cuda_(Tensor& self, const Scalar& value) { return k::fill_cuda_(self, value); }
Tensor& copy_cuda_(Tensor& self, const Tensor& src, bool non_blocking) {
  return k::copy_cuda_(self, src, non_blocking);
}
Tensor add_cuda(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return k::add_cuda(self, other, alpha);
}
Tensor& add_cuda_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  return k::add_cuda_(self, other, alpha);
}
Tensor& add_out_cuda(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return k::add_out_cuda(self, other, alpha, out);
}
Tensor mul_cuda(const Tensor& self, const Tensor& other) { return k::mul_cuda(self, other); }
Tensor relu_cuda(const Tensor& self) { return k::relu_cuda(self); }
Tensor& relu_cuda_(Tensor& self) { return k::relu_cuda_(self); }
Tensor sum_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  return k::sum_dim_cuda(self, dim, keepdim, dtype);
}
Tensor mean_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype) {
  return k::mean_dim_cuda(self, dim, keepdim, dtype);
}
Tensor softmax_cuda(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return k::softmax_cuda(self, dim, dtype);
}
Tensor mm_cuda(const Tensor& self, const Tensor& mat2) { return k::mm_cuda(self, mat2); }

}  // namespace aten::native
