// What sum and mean decide before reducing, on every device: which dimensions go, the output
// shape, the dtype to accumulate into, and the input rearranged so that each output element
// reduces one contiguous row.
#pragma once

#include <vector>

#include <fmt/format.h>

#include "schemac/core/tensor.h"

namespace schemac::kernels {

struct ReductionPlan {
  std::vector<bool> reduced;         // per input dimension
  std::vector<int64_t> out_sizes;    // with keepdim applied
  std::vector<int64_t> kept_sizes;   // the kept dimensions only, in order
  std::vector<int64_t> permutation;  // kept dimensions, then reduced ones
  int64_t outer = 1;                 // number of output elements
  int64_t inner = 1;                 // elements reduced into each
};

inline ReductionPlan plan_reduction(const char* op, const core::Tensor& self,
                                    std::optional<core::IntArrayRef> dim, bool keepdim) {
  const int64_t ndim = self.dim();
  ReductionPlan plan;
  plan.reduced.assign(static_cast<std::size_t>(ndim), false);
  if (!dim || dim->empty()) {
    plan.reduced.assign(static_cast<std::size_t>(ndim), true);
  } else {
    for (int64_t d : *dim) {
      const int64_t w = core::wrap_dim(d, ndim);
      if (ndim == 0) continue;
      if (plan.reduced[w])
        throw core::TensorError(
            fmt::format("{}: dim {} appears multiple times in the list of dims {}", op, w,
                        core::to_string(*dim)));
      plan.reduced[w] = true;
    }
  }
  std::vector<int64_t> reduced_dims;
  for (int64_t d = 0; d < ndim; ++d) {
    const int64_t size = self.sizes()[d];
    if (plan.reduced[d]) {
      reduced_dims.push_back(d);
      plan.inner *= size;
      if (keepdim) plan.out_sizes.push_back(1);
    } else {
      plan.permutation.push_back(d);
      plan.kept_sizes.push_back(size);
      plan.outer *= size;
      plan.out_sizes.push_back(size);
    }
  }
  plan.permutation.insert(plan.permutation.end(), reduced_dims.begin(), reduced_dims.end());
  return plan;
}

// The dtype sum accumulates into and returns: the requested one, else int64 for integral and
// bool inputs, else the input's.
inline core::ScalarType sum_result_type(core::ScalarType in,
                                        std::optional<core::ScalarType> dtype) {
  if (dtype) return *dtype;
  return core::is_integral(in, /*include_bool=*/true) ? core::ScalarType::Long : in;
}

inline core::ScalarType mean_result_type(const char* op, core::ScalarType in,
                                         std::optional<core::ScalarType> dtype) {
  const core::ScalarType t = dtype.value_or(in);
  if (!core::is_floating_point(t))
    throw core::TensorError(
        fmt::format("{}: could not infer output dtype; input dtype must be floating point, got {}",
                    op, core::to_string(t)));
  return t;
}

}  // namespace schemac::kernels
