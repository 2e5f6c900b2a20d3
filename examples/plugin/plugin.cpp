// An example plugin: three operators in namespace `example_plugin`, written against the stable
// C ABI only.
//   scale(Tensor self, float factor) -> Tensor        CPU kernel: a new tensor, self * factor
//   scale_twice(Tensor self, float factor) -> Tensor  CPU kernel: calls `scale` twice, by name
//   count(Tensor self) -> int                         catch-all kernel: the number of elements
#include <cstdint>

#include "schemac/stable/library.hpp"

namespace {

using schemac::stable::Tensor;

void scale(StableValue* stack, uint64_t, uint64_t) {
  const Tensor self = Tensor::borrow(stack[0]);
  const double factor = schemac_value_to_double(stack[1]);
  if (self.dtype() != SCHEMAC_DTYPE_FLOAT32 || !self.is_contiguous()) {
    schemac_set_error("example_plugin::scale supports contiguous float32 tensors only");
    return;
  }
  Tensor out = Tensor::empty(self.sizes(), SCHEMAC_DTYPE_FLOAT32);
  const float* in = self.data<float>();
  float* dst = out.data<float>();
  for (int64_t i = 0, n = self.numel(); i < n; ++i) dst[i] = static_cast<float>(in[i] * factor);
  stack[0] = std::move(out).into_slot();
}

void scale_twice(StableValue* stack, uint64_t, uint64_t) {
  try {
    StableValue call[2] = {stack[0], stack[1]};
    schemac::stable::call("example_plugin::scale", call, 2, 1);
    const Tensor once = Tensor::adopt(call[0]);
    call[0] = once.as_argument();
    schemac::stable::call("example_plugin::scale", call, 2, 1);
    stack[0] = call[0];  // already owned by us: handed on to our caller
  } catch (const schemac::stable::Error& e) {
    schemac_set_error(e.what());
  }
}

void count(StableValue* stack, uint64_t, uint64_t) {
  stack[0] = schemac_value_from_int(Tensor::borrow(stack[0]).numel());
}

}  // namespace

SCHEMAC_STABLE_LIBRARY(example_plugin, m) {
  m.def("scale(Tensor self, float factor) -> Tensor");
  m.def("scale_twice(Tensor self, float factor) -> Tensor");
  m.def("count(Tensor self) -> int");
  m.impl("count", &count);
}

SCHEMAC_STABLE_LIBRARY_IMPL(example_plugin, CPU, m) {
  m.impl("scale", &scale);
  m.impl("scale_twice", &scale_twice);
}

SCHEMAC_STABLE_PLUGIN()
