// The view operators (transpose.int, view) and the composites (contiguous, matmul): the same
// code for every device.
#include <fmt/format.h>

#include "schemac/kernels/native_functions.h"

namespace schemac::kernels {

using core::Device, core::MemoryFormat, core::ScalarType, core::Tensor;

using core::TensorError;

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return self.transpose(dim0, dim1);
}

Tensor view(const Tensor& self, core::IntArrayRef size) { return self.view(size); }

namespace {

Tensor empty_on(core::IntArrayRef sizes, ScalarType dtype, Device device, MemoryFormat format) {
  return device.is_cuda() ? empty_cuda(sizes, dtype, std::nullopt, device, std::nullopt, format)
                          : empty_cpu(sizes, dtype, std::nullopt, device, std::nullopt, format);
}

void copy_on_device(Tensor& dst, const Tensor& src) {
  if (dst.is_cuda() || src.is_cuda()) copy_cuda_(dst, src, false);
  else copy_cpu_(dst, src, false);
}

Tensor mm_on_device(const Tensor& a, const Tensor& b) {
  return a.is_cuda() ? mm_cuda(a, b) : mm_cpu(a, b);
}

}  // namespace

const CompositeOps& CompositeOps::direct() {
  static const CompositeOps ops{mm_on_device, empty_on, copy_on_device};
  return ops;
}

Tensor contiguous(const Tensor& self, MemoryFormat memory_format, const CompositeOps& ops) {
  if (memory_format == MemoryFormat::Preserve)
    throw TensorError(
        "contiguous: preserve memory format is unsupported by the contiguous operator");
  if (self.is_contiguous(memory_format)) return self;
  Tensor out = ops.empty(self.sizes(), self.dtype(), self.device(), memory_format);
  ops.copy(out, self);
  return out;
}

Tensor matmul(const Tensor& self, const Tensor& other, const CompositeOps& ops) {
  const int64_t a = self.dim();
  const int64_t b = other.dim();
  if (a == 0 || b == 0 || a > 2 || b > 2)
    throw TensorError(
        fmt::format("matmul: both arguments need 1 or 2 dimensions, got {}-d and {}-d", a, b));
  if (a == 2 && b == 2) return ops.mm(self, other);
  if (a == 2 && b == 1) return ops.mm(self, other.view({-1, 1})).view({-1});
  if (a == 1 && b == 2) return ops.mm(self.view({1, -1}), other).view({-1});
  return ops.mm(self.view({1, -1}), other.view({-1, 1})).view({});  // dot
}

Tensor to_device(const Tensor& t, Device device) {
  if (device.is_cuda() && !device.has_index()) device = Device(core::DeviceType::CUDA, 0);
  if (t.device() == device) return t;
  Tensor out = empty_on(t.sizes(), t.dtype(), device, MemoryFormat::Contiguous);
  copy_on_device(out, t);
  return out;
}

Tensor to_dtype(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype) return t;
  Tensor out = empty_on(t.sizes(), dtype, t.device(), t.suggest_memory_format());
  copy_on_device(out, t);
  return out;
}

}  // namespace schemac::kernels
