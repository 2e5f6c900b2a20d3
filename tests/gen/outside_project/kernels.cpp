// The kernels that ops.yaml names, with the declarations schemac generated.
#include "NativeFunctions.h"

namespace demo::native {

Tensor twice_cpu(const Tensor& self) {
  Tensor out = Tensor::empty(self.sizes(), {self.dtype(), self.device()});
  const float* in = self.data_ptr<float>();
  float* o = out.data_ptr<float>();
  for (int64_t i = 0; i < self.numel(); ++i) o[i] = 2 * in[i];
  return out;
}

Tensor& scale_cpu_(Tensor& self, double factor) {
  float* data = self.data_ptr<float>();
  for (int64_t i = 0; i < self.numel(); ++i) data[i] = static_cast<float>(data[i] * factor);
  return self;
}

}  // namespace demo::native
