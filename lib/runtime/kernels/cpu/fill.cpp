// fill_ on the CPU: any strides; a plain store loop for the contiguous runs.
#include "../common/loop_plan.h"
#include "cpu_checks.h"
#include "schemac/kernels/native_functions.h"
#include "schemac/support/thread_pool.h"

namespace schemac::kernels {

using core::Tensor;

Tensor& fill_cpu_(Tensor& self, const core::Scalar& value) {
  cpu::check_cpu("fill_", "self", self);
  const LoopPlan plan = make_loop_plan({self}, self.sizes());
  core::visit_scalar_type(self.dtype(), [&]<typename T>() {
    const T v = value.to<T>();
    support::parallel_for(0, plan.numel, 1 << 16, [&](int64_t b, int64_t e) {
      run_plan_range(plan, b, e, [&](char** p, const int64_t* s, int64_t n) {
        if (s[0] == static_cast<int64_t>(sizeof(T))) {
          T* out = reinterpret_cast<T*>(p[0]);
          for (int64_t i = 0; i < n; ++i) out[i] = v;
        } else {
          for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * s[0]) = v;
        }
      });
    });
  });
  return self;
}

}  // namespace schemac::kernels
