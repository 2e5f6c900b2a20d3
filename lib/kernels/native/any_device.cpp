// The entry points bound to every device (views) and the composites (CompositeImplicitAutograd),
// as the registration generated from examples/ops.yaml names them, calling lib/kernels.
#include "NativeFunctions.h"
#include "schemac/kernels/native_functions.h"

namespace aten::native {

namespace k = ::schemac::kernels;

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) { return k::transpose(self, dim0, dim1); }
Tensor view(const Tensor& self, IntArrayRef size) { return k::view(self, size); }
Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  return k::contiguous(self, memory_format);
}
Tensor matmul(const Tensor& self, const Tensor& other) { return k::matmul(self, other); }

}  // namespace aten::native
