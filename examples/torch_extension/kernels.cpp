// The kernels of ops.yaml, written with the native signatures NativeFunctions.h declares.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include "NativeFunctions.h"

namespace myops {

at::Tensor scale_cpu(const at::Tensor& self, double factor) { return self * factor; }

at::Tensor scale_meta(const at::Tensor& self, double /*factor*/) { return at::empty_like(self); }

at::Tensor& scale_out_cpu(const at::Tensor& self, double factor, at::Tensor& out) {
  out.resize_(self.sizes());
  return at::mul_out(out, self, factor);
}

at::Tensor& scale_cpu_(at::Tensor& self, double factor) { return self.mul_(factor); }

at::Tensor blend(const at::Tensor& self, at::IntArrayRef dims, const c10::optional<at::Tensor>& other,
                 const at::Scalar& alpha, bool keepdim, c10::string_view mode) {
  at::Tensor reduced = mode == "mean" ? self.mean(dims, keepdim) : self.sum(dims, keepdim);
  if (other.has_value()) reduced = reduced.add(*other, alpha);
  return reduced;
}

::std::tuple<at::Tensor, at::Tensor> minmax_cpu(const at::Tensor& self) { return {self.min(), self.max()}; }

at::Tensor scale_twice(const at::Tensor& self, double factor) {
  // Calls the operator through the dispatcher, as a composite kernel does.
  static const auto scale = c10::Dispatcher::singleton().findSchemaOrThrow("myops::scale", "").typed<at::Tensor(const at::Tensor&, double)>();
  return scale.call(scale.call(self, factor), factor);
}

at::Tensor filled_cpu(at::IntArrayRef size, const at::Scalar& value, c10::optional<at::ScalarType> dtype,
                      c10::optional<at::Layout> layout, c10::optional<at::Device> device,
                      c10::optional<bool> pin_memory) {
  return at::full(size, value, at::TensorOptions().dtype(dtype).layout(layout).device(device).pinned_memory(pin_memory));
}

}  // namespace myops
