// What add and mul decide before any arithmetic, on every device: the broadcast shape, the
// result dtype, whether alpha fits it, and whether the output can hold it.
#pragma once

#include <fmt/format.h>

#include "loop_plan.h"
#include "schemac/core/scalar_type.h"

namespace schemac::kernels {

using core::ScalarType, core::Tensor;

struct BinaryPlan {
  std::vector<int64_t> shape;
  ScalarType common;  // the dtype the arithmetic is done in
};

inline BinaryPlan plan_binary(const char* op, const Tensor& self, const Tensor& other,
                              const core::Scalar* alpha) {
  if (!self.defined() || !other.defined())
    throw core::TensorError(fmt::format("{}: undefined tensor argument", op));
  if (self.device() != other.device())
    throw core::TensorError(fmt::format("{}: expected both tensors on one device, got {} and {}",
                                        op, self.device().to_string(), other.device().to_string()));
  BinaryPlan plan{broadcast_shapes(self.sizes(), other.sizes()), result_type(self, other)};
  if (alpha != nullptr) {
    if (core::is_integral(plan.common, /*include_bool=*/true) && alpha->is_floating_point())
      throw core::TensorError(
          fmt::format("{}: for integral input tensors, argument alpha must not be a floating point "
                      "number (got {})",
                      op, alpha->to_string()));
    if (plan.common == ScalarType::Bool && !alpha->is_boolean() && alpha->to_int64() != 1)
      throw core::TensorError(fmt::format(
          "{}: boolean alpha only supported for boolean results (got {})", op, alpha->to_string()));
  }
  return plan;
}

// Checks that `out` can receive the result; resizes it (add.out) or insists on the shape
// (in-place ops).
inline void prepare_out(const char* op, const BinaryPlan& plan, Tensor& out, bool may_resize) {
  if (!core::can_cast(plan.common, out.dtype()))
    throw core::TensorError(
        fmt::format("{}: result type {} can't be cast to the desired output type {}", op,
                    core::to_string(plan.common), core::to_string(out.dtype())));
  if (!(out.sizes() == core::IntArrayRef(plan.shape))) {
    if (!may_resize)
      throw core::TensorError(
          fmt::format("{}: output with shape {} doesn't match the broadcast shape {}", op,
                      core::to_string(out.sizes()), core::to_string(plan.shape)));
    out.resize_(plan.shape);
  }
}

}  // namespace schemac::kernels
