#include "loop_plan.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace schemac::kernels {

using core::IntArrayRef, core::ScalarType, core::Tensor;

using core::TensorError;
using core::to_string;

std::vector<int64_t> broadcast_shapes(IntArrayRef a, IntArrayRef b) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t sa = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t sb = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (sa != sb && sa != 1 && sb != 1)
      throw TensorError(
          fmt::format("the size of tensor a ({}) must match the size of tensor b ({}) at "
                      "non-singleton dimension {} (shapes {} and {})",
                      sa, sb, i, to_string(a), to_string(b)));
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

namespace {

int category(ScalarType t) {
  if (t == ScalarType::Bool) return 0;
  return core::is_floating_point(t) ? 2 : 1;
}

}  // namespace

ScalarType result_type(const Tensor& a, const Tensor& b) {
  const bool a_dimensioned = a.dim() > 0;
  const bool b_dimensioned = b.dim() > 0;
  if (a_dimensioned == b_dimensioned) return core::promote_types(a.dtype(), b.dtype());
  const ScalarType dim_type = a_dimensioned ? a.dtype() : b.dtype();
  const ScalarType zero_type = a_dimensioned ? b.dtype() : a.dtype();
  if (category(zero_type) > category(dim_type)) return core::promote_types(dim_type, zero_type);
  return dim_type;
}

LoopPlan make_loop_plan(const std::vector<Tensor>& operands, IntArrayRef shape) {
  LoopPlan plan;
  plan.num_operands = static_cast<int>(operands.size());
  if (plan.num_operands > kMaxOperands)
    throw TensorError(
        fmt::format("a loop takes at most {} operands, got {}", kMaxOperands, plan.num_operands));
  plan.numel = core::checked_numel(shape);
  const auto ndim = static_cast<int64_t>(shape.size());

  // Per original dimension (outermost first), each operand's stride in bytes (0 if broadcast).
  std::vector<std::array<int64_t, kMaxOperands>> strides(ndim);
  for (int k = 0; k < plan.num_operands; ++k) {
    const Tensor& t = operands[k];
    plan.data[k] = static_cast<char*>(t.data_ptr());
    const auto tdim = t.dim();
    if (tdim > ndim)
      throw TensorError(fmt::format("operand of shape {} does not broadcast to {}",
                                    to_string(t.sizes()), to_string(shape)));
    const auto elsize = static_cast<int64_t>(t.element_size());
    for (int64_t d = 0; d < ndim; ++d) {
      const int64_t td = d - (ndim - tdim);
      int64_t stride = 0;
      if (td >= 0) {
        const int64_t size = t.sizes()[td];
        if (size == shape[d]) {
          stride = size == 1 ? 0 : t.strides()[td] * elsize;
        } else if (size != 1) {
          throw TensorError(fmt::format("operand of shape {} does not broadcast to {}",
                                        to_string(t.sizes()), to_string(shape)));
        }
      }
      strides[d][k] = stride;
    }
  }

  // Order dimensions innermost first: by operand 0's stride, then the next operands'; drop
  // size-1 dimensions.
  std::vector<int64_t> order;
  for (int64_t d = 0; d < ndim; ++d)
    if (shape[d] != 1) order.push_back(d);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    for (int k = 0; k < plan.num_operands; ++k) {
      const int64_t sx = strides[x][k], sy = strides[y][k];
      if (sx == 0 || sy == 0) continue;  // broadcast dims say nothing about order
      if (sx != sy) return sx < sy;
    }
    return x > y;  // keep the natural order: later dimensions inner
  });

  // Merge an outer dimension into the inner one when every operand steps contiguously.
  for (int64_t d : order) {
    if (!plan.shape.empty()) {
      const int64_t inner_size = plan.shape.back();
      auto& inner = plan.strides.back();
      bool mergeable = true;
      for (int k = 0; k < plan.num_operands; ++k)
        if (strides[d][k] != inner[k] * inner_size) mergeable = false;
      if (mergeable) {
        plan.shape.back() *= shape[d];
        continue;
      }
    }
    plan.shape.push_back(shape[d]);
    plan.strides.push_back(strides[d]);
  }
  return plan;
}

}  // namespace schemac::kernels
