// relu and relu_ on the CPU: any strides, NaN kept, vectorisable contiguous runs.
#include <fmt/format.h>

#include "../common/convert.h"
#include "../common/loop_plan.h"
#include "cpu_checks.h"
#include "schemac/kernels/native_functions.h"
#include "schemac/support/thread_pool.h"

namespace schemac::kernels {

using core::ScalarType, core::Tensor;

namespace {

template <typename C>
C relu_of(C x) {
  return x < C(0) ? C(0) : x;
}  // NaN stays NaN

// out = relu(in); out and in have the same shape and dtype.
void run_relu(Tensor& out, const Tensor& in) {
  const LoopPlan plan = make_loop_plan({out, in}, out.sizes());
  core::visit_scalar_type(out.dtype(), [&]<typename T>() {
    using C = compute_t<T>;
    if constexpr (!std::is_same_v<T, bool>) {
      support::parallel_for(0, plan.numel, 1 << 15, [&](int64_t b, int64_t e) {
        run_plan_range(plan, b, e, [&](char** p, const int64_t* s, int64_t n) {
          if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
            T* __restrict o = reinterpret_cast<T*>(p[0]);
            const T* __restrict x = reinterpret_cast<const T*>(p[1]);
            for (int64_t i = 0; i < n; ++i) o[i] = convert<T>(relu_of(convert<C>(x[i])));
          } else {
            for (int64_t i = 0; i < n; ++i) {
              const C x = convert<C>(*reinterpret_cast<const T*>(p[1] + i * s[1]));
              *reinterpret_cast<T*>(p[0] + i * s[0]) = convert<T>(relu_of(x));
            }
          }
        });
      });
    }
  });
}

void check_relu_dtype(const char* op, const Tensor& self) {
  if (self.dtype() == ScalarType::Bool)
    throw core::TensorError(fmt::format("{}: not implemented for bool tensors", op));
}

}  // namespace

Tensor relu_cpu(const Tensor& self) {
  cpu::check_cpu("relu", "self", self);
  check_relu_dtype("relu", self);
  Tensor out =
      Tensor::empty(self.sizes(), {self.dtype(), core::kCPU}, self.suggest_memory_format());
  run_relu(out, self);
  return out;
}

Tensor& relu_cpu_(Tensor& self) {
  cpu::check_cpu("relu_", "self", self);
  check_relu_dtype("relu_", self);
  run_relu(self, self);
  return self;
}

}  // namespace schemac::kernels
