// The entry points bound to every device (views) and the composites (CompositeImplicitAutograd),
// as the registration generated from examples/ops.yaml names them, calling lib/runtime/kernels.
#include "NativeFunctions.h"
#include "Operators.h"
#include "schemac/kernels/native_functions.h"

namespace aten::native {

namespace k = ::schemac::kernels;

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return k::transpose(self, dim0, dim1);
}
Tensor view(const Tensor& self, IntArrayRef size) { return k::view(self, size); }

// The composites are CompositeImplicitAutograd: they call the operators they are built from
// through the dispatcher, so the Autograd, ADInplaceOrView and Autocast kernels see those calls.
static const k::CompositeOps& dispatched_ops() {
  static const k::CompositeOps ops{
      [](const Tensor& a, const Tensor& b) { return aten::mm(a, b); },
      [](IntArrayRef sizes, ScalarType dtype, Device device, MemoryFormat format) {
        return aten::empty(sizes, dtype, std::nullopt, device, std::nullopt, format);
      },
      [](Tensor& dst, const Tensor& src) { aten::ops::copy_::call(dst, src, false); }};
  return ops;
}

Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  return k::contiguous(self, memory_format, dispatched_ops());
}
Tensor matmul(const Tensor& self, const Tensor& other) {
  return k::matmul(self, other, dispatched_ops());
}

}  // namespace aten::native
