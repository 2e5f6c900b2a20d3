// sum.dim_IntList and mean.dim on the CPU. The input is viewed as rows (kept dimensions) of
// reduced elements. Contiguous rows are summed with 16 independent lanes (vectorisable, and more
// accurate than one running sum); reductions over leading dimensions add whole rows into a
// column accumulator; anything else is first copied into row order.
#include <algorithm>
#include <cmath>
#include <limits>

#include "../common/convert.h"
#include "../common/reduction_plan.h"
#include "cpu_checks.h"
#include "schemac/kernels/native_functions.h"
#include "schemac/support/thread_pool.h"

namespace schemac::kernels {

using core::IntArrayRef, core::ScalarType, core::Tensor, support::parallel_for;

namespace {

constexpr int64_t kBlock = 4096;

// The type a whole row is summed in: double for floating types, int64 for the rest.
template <typename T>
using total_t = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double, int64_t>;

template <typename T>
total_t<T> sum_run(const T* x, int64_t n) {
  using C = std::conditional_t<std::is_floating_point_v<compute_t<T>>, compute_t<T>, int64_t>;
  total_t<T> total = 0;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t m = std::min(kBlock, n - start);
    const T* p = x + start;
    C lanes[16] = {};
    int64_t i = 0;
    for (; i + 16 <= m; i += 16)
      for (int j = 0; j < 16; ++j) lanes[j] += convert<C>(p[i + j]);
    for (; i < m; ++i) lanes[0] += convert<C>(p[i]);
    for (int width = 8; width >= 1; width /= 2)
      for (int j = 0; j < width; ++j) lanes[j] += lanes[j + width];
    total += static_cast<total_t<T>>(lanes[0]);
  }
  return total;
}

template <typename T>
T finish(total_t<T> total, int64_t count, bool mean) {
  if (!mean) return convert<T>(total);
  if constexpr (std::is_floating_point_v<total_t<T>>) {
    return convert<T>(total / static_cast<double>(count));  // 0 / 0 is NaN, as in torch
  } else {
    return convert<T>(total / std::max<int64_t>(count, 1));
  }
}

// Each of `rows` output elements sums `len` contiguous inputs.
template <typename T>
void reduce_rows(const T* x, T* out, int64_t rows, int64_t len, bool mean) {
  if (rows >= support::num_threads() || len < 2 * kBlock) {
    const int64_t grain = std::max<int64_t>(1, (1 << 15) / std::max<int64_t>(len, 1));
    parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) out[r] = finish<T>(sum_run(x + r * len, len), len, mean);
    });
    return;
  }
  // Few long rows: split each row across the threads.
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = x + r * len;
    const int64_t chunks = (len + kBlock * 16 - 1) / (kBlock * 16);
    std::vector<total_t<T>> partial(chunks, 0);
    parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t c = b; c < e; ++c) {
        const int64_t start = c * kBlock * 16;
        partial[c] = sum_run(row + start, std::min(kBlock * 16, len - start));
      }
    });
    total_t<T> total = 0;
    for (auto p : partial) total += p;
    out[r] = finish<T>(total, len, mean);
  }
}

// out[j] = sum over i < count of x[i * width + j].
template <typename T>
void reduce_columns(const T* x, T* out, int64_t count, int64_t width, bool mean) {
  parallel_for(0, width, 1024, [&](int64_t b, int64_t e) {
    std::vector<total_t<T>> acc(e - b, 0);
    for (int64_t i = 0; i < count; ++i) {
      const T* row = x + i * width + b;
      for (int64_t j = 0; j < e - b; ++j)
        acc[j] += static_cast<total_t<T>>(convert<compute_t<T>>(row[j]));
    }
    for (int64_t j = 0; j < e - b; ++j) out[b + j] = finish<T>(acc[j], count, mean);
  });
}

Tensor reduce_cpu(const char* op, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                  ScalarType out_type, bool mean) {
  const ReductionPlan plan = plan_reduction(op, self, dim, keepdim);
  const Tensor x = to_dtype(self, out_type);
  Tensor out = Tensor::empty(plan.out_sizes, {out_type, core::kCPU});
  if (plan.outer == 0) return out;

  // Reduced dimensions leading a contiguous tensor: add rows into columns.
  std::vector<int64_t> reduced_first;
  for (std::size_t d = 0; d < plan.reduced.size(); ++d)
    if (plan.reduced[d]) reduced_first.push_back(static_cast<int64_t>(d));
  for (std::size_t d = 0; d < plan.reduced.size(); ++d)
    if (!plan.reduced[d]) reduced_first.push_back(static_cast<int64_t>(d));
  const bool columns = plan.outer > 1 && plan.inner > 1 && x.permute(reduced_first).is_contiguous();

  Tensor rows = x.permute(plan.permutation);
  if (!columns && !rows.is_contiguous()) rows = contiguous(rows, core::MemoryFormat::Contiguous);
  core::visit_scalar_type(out_type, [&]<typename T>() {
    if (columns) {
      reduce_columns<T>(static_cast<const T*>(x.data_ptr()), static_cast<T*>(out.data_ptr()),
                        plan.inner, plan.outer, mean);
    } else {
      reduce_rows<T>(static_cast<const T*>(rows.data_ptr()), static_cast<T*>(out.data_ptr()),
                     plan.outer, plan.inner, mean);
    }
  });
  return out;
}

}  // namespace

Tensor sum_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  cpu::check_cpu("sum", "self", self);
  return reduce_cpu("sum", self, dim, keepdim, sum_result_type(self.dtype(), dtype),
                    /*mean=*/false);
}

Tensor mean_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype) {
  cpu::check_cpu("mean", "self", self);
  return reduce_cpu("mean", self, dim, keepdim, mean_result_type("mean", self.dtype(), dtype),
                    /*mean=*/true);
}

}  // namespace schemac::kernels
