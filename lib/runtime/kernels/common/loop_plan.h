// Iteration over several strided tensors of one shape (the output's), the shared engine of the
// element-wise kernels: broadcast the inputs, order dimensions so the output's smallest stride is
// innermost, merge dimensions that are contiguous for every operand, and walk the result in
// linear ranges that a parallel_for can split.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "schemac/core/tensor.h"

namespace schemac::kernels {

using core::IntArrayRef, core::ScalarType, core::Tensor;

using core::IntArrayRef;
using core::ScalarType;
using core::Tensor;

inline constexpr int kMaxOperands = 4;

// The shape two shapes broadcast to; throws TensorError naming both.
std::vector<int64_t> broadcast_shapes(IntArrayRef a, IntArrayRef b);

// The dtype of a binary operation on a and b (torch.result_type for tensors): a 0-d tensor only
// raises the category (bool < integer < floating) of dimensioned tensors, never their width.
ScalarType result_type(const Tensor& a, const Tensor& b);

struct LoopPlan {
  int num_operands = 0;
  int64_t numel = 0;
  std::vector<int64_t> shape;  // dimension 0 is the innermost
  // strides[d][k]: bytes to step operand k along dimension d.
  std::vector<std::array<int64_t, kMaxOperands>> strides;
  std::array<char*, kMaxOperands> data{};
};

// A plan over `shape` (operand 0 is normally the output and has that shape; the others
// broadcast to it). Throws TensorError if an operand does not broadcast to `shape`.
LoopPlan make_loop_plan(const std::vector<Tensor>& operands, IntArrayRef shape);

// Calls inner(ptrs, strides, n) for each innermost run of the linear index range [begin, end)
// of `plan`: ptrs[k] points at operand k's first element, strides[k] its inner step in bytes.
template <typename Inner>
void run_plan_range(const LoopPlan& plan, int64_t begin, int64_t end, Inner&& inner) {
  if (begin >= end) return;
  const int nops = plan.num_operands;
  const auto ndim = static_cast<int64_t>(plan.shape.size());
  std::array<int64_t, kMaxOperands> inner_strides{};
  if (ndim == 0) {
    std::array<char*, kMaxOperands> ptrs = plan.data;
    inner(ptrs.data(), inner_strides.data(), int64_t{1});
    return;
  }
  for (int k = 0; k < nops; ++k) inner_strides[k] = plan.strides[0][k];
  // Multi-index of `begin` (dimension 0 innermost).
  std::vector<int64_t> index(ndim, 0);
  int64_t rest = begin;
  for (int64_t d = 0; d < ndim; ++d) {
    index[d] = rest % plan.shape[d];
    rest /= plan.shape[d];
  }
  int64_t pos = begin;
  while (pos < end) {
    std::array<char*, kMaxOperands> ptrs{};
    for (int k = 0; k < nops; ++k) {
      char* p = plan.data[k];
      for (int64_t d = 0; d < ndim; ++d) p += index[d] * plan.strides[d][k];
      ptrs[k] = p;
    }
    const int64_t n = std::min(plan.shape[0] - index[0], end - pos);
    inner(ptrs.data(), inner_strides.data(), n);
    pos += n;
    index[0] += n;
    for (int64_t d = 0; d + 1 < ndim && index[d] == plan.shape[d]; ++d) {
      index[d] = 0;
      ++index[d + 1];
    }
  }
}

}  // namespace schemac::kernels
