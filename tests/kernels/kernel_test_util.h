// Helpers for the kernel tests: tensors from values, values from tensors (any strides, any
// dtype, read through plain index arithmetic), strided and broadcast variants of an input.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "schemac/core/tensor.h"

namespace schemac::kernels::testing {

using core::IntArrayRef;
using core::ScalarType;
using core::Tensor;

// The multi-index of row-major position `linear` in `sizes`.
inline std::vector<int64_t> unravel(int64_t linear, IntArrayRef sizes) {
  std::vector<int64_t> index(sizes.size());
  for (std::size_t d = sizes.size(); d-- > 0;) {
    index[d] = linear % sizes[d];
    linear /= sizes[d];
  }
  return index;
}

// Element `linear` (row-major) of a CPU tensor, as double.
inline double value_at(const Tensor& t, int64_t linear) {
  const int64_t offset = t.element_offset(unravel(linear, t.sizes()));
  return core::visit_scalar_type(t.dtype(), [&]<typename T>() -> double {
    const T v = static_cast<const T*>(t.data_ptr())[offset];
    if constexpr (std::is_same_v<T, bool>) return v ? 1.0 : 0.0;
    else if constexpr (std::is_same_v<T, core::Half> || std::is_same_v<T, core::BFloat16>)
      return static_cast<float>(v);
    else return static_cast<double>(v);
  });
}

// Every element of a CPU tensor in row-major order.
inline std::vector<double> values(const Tensor& t) {
  std::vector<double> out(static_cast<std::size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = value_at(t, i);
  return out;
}

// Writes `v` (row-major) into a CPU tensor of any strides.
inline void set_values(const Tensor& t, const std::vector<double>& v) {
  for (int64_t i = 0; i < t.numel(); ++i) {
    const int64_t offset = t.element_offset(unravel(i, t.sizes()));
    core::visit_scalar_type(t.dtype(), [&]<typename T>() {
      T* p = static_cast<T*>(t.data_ptr()) + offset;
      if constexpr (std::is_same_v<T, bool>) *p = v[i] != 0.0;
      else if constexpr (std::is_integral_v<T>) *p = static_cast<T>(v[i]);
      else if constexpr (std::is_floating_point_v<T>) *p = static_cast<T>(v[i]);
      else *p = T(static_cast<float>(v[i]));
    });
  }
}

// Values that every dtype represents exactly (small integers and halves; 0/1 for bool).
inline std::vector<double> sample_values(int64_t n, ScalarType dtype, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-8, 8);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const int r = dist(rng);
    if (dtype == ScalarType::Bool) x = r > 0 ? 1.0 : 0.0;
    else if (core::is_floating_point(dtype)) x = r * 0.5;
    else x = r;
  }
  return v;
}

// A contiguous CPU tensor of `sizes` filled with sample values.
inline Tensor sample(IntArrayRef sizes, ScalarType dtype, unsigned seed = 1) {
  Tensor t = Tensor::empty(sizes, {dtype});
  set_values(t, sample_values(t.numel(), dtype, seed));
  return t;
}

// The same values as `t`, laid out with gaps: every dimension's stride doubled (a view of a
// larger buffer), so no fast contiguous path applies.
inline Tensor gapped(const Tensor& t) {
  std::vector<int64_t> big(t.sizes().begin(), t.sizes().end());
  for (auto& s : big) s *= 2;
  Tensor buffer = Tensor::empty(big, {t.dtype()});
  std::vector<int64_t> strides = buffer.strides().vec();
  for (auto& s : strides) s *= 2;
  Tensor view = buffer.as_strided(t.sizes(), strides, 0);
  set_values(view, values(t));
  return view;
}

// The same values as `t` (2-d or more) stored transposed in its last two dimensions.
inline Tensor transposed_layout(const Tensor& t) {
  const int64_t n = t.dim();
  std::vector<int64_t> swapped(t.sizes().begin(), t.sizes().end());
  std::swap(swapped[n - 1], swapped[n - 2]);
  Tensor buffer = Tensor::empty(swapped, {t.dtype()});
  Tensor view = buffer.transpose(n - 1, n - 2);
  set_values(view, values(t));
  return view;
}

}  // namespace schemac::kernels::testing
