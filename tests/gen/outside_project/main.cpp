// Calls the generated API; exits 0 when the kernels ran through the dispatcher.
#include <cstdio>

#include "Operators.h"

int main() {
  demo::register_operators();
  schemac::core::Tensor t = schemac::core::Tensor::empty({3});
  for (int i = 0; i < 3; ++i) t.data_ptr<float>()[i] = static_cast<float>(i);
  schemac::core::Tensor doubled = demo::twice(t);
  demo::methods(doubled).scale_();
  float last = doubled.data_ptr<float>()[2];
  std::printf("twice then scale_: %g\n", last);
  return last == 8.0f ? 0 : 1;
}
