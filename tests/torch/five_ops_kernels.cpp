// Kernels of five_ops.yaml, written with torchgen's native signatures (the ones the generated
// NativeFunctions.h declares; a mismatch is a compile error there).
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include "NativeFunctions.h"

namespace five {

at::Tensor shift_cpu(const at::Tensor& self, double amount) { return self + amount; }

at::Tensor& shift_out_cpu(const at::Tensor& self, double amount, at::Tensor& out) {
  out.resize_(self.sizes());
  return out.copy_(self + amount);
}

at::Tensor& shift_cpu_(at::Tensor& self, double amount) { return self.add_(amount); }

at::Tensor reduce_cpu(const at::Tensor& self, at::IntArrayRef dims, const c10::optional<at::Tensor>& bias,
                      const at::Scalar& scale, bool keepdim, c10::string_view mode) {
  at::Tensor r = mode == "max" ? std::get<0>(self.max(dims[0], keepdim)) : self.sum(dims, keepdim);
  r = r * scale;
  return bias.has_value() ? r + *bias : r;
}

at::Tensor shift_twice(const at::Tensor& self, double amount) {
  static const auto shift =
      c10::Dispatcher::singleton().findSchemaOrThrow("five::shift", "").typed<at::Tensor(const at::Tensor&, double)>();
  return shift.call(shift.call(self, amount), amount);
}

}  // namespace five
