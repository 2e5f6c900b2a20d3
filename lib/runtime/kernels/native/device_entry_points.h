// The entry points that each device (CPU, CUDA) has, written once for both:
// SCHEMAC_DEVICE_ENTRY_POINTS(cpu) defines empty_cpu, fill_cpu_, copy_cpu_, add_cpu, ... as the
// registration generated from examples/ops.yaml declares them (NativeFunctions.h), each calling the
// kernel of the same name in lib/runtime/kernels. cpu.cpp and cuda.cpp expand it inside
// aten::native.
#pragma once

#include "schemac/kernels/native_functions.h"

#define SCHEMAC_DEVICE_ENTRY_POINTS(dev)                                                          \
  Tensor empty_##dev(IntArrayRef size, std::optional<ScalarType> dtype,                           \
                     std::optional<Layout> layout, std::optional<Device> device,                  \
                     std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) { \
    return ::schemac::kernels::empty_##dev(size, dtype, layout, device, pin_memory,               \
                                           memory_format);                                        \
  }                                                                                               \
  Tensor& fill_##dev##_(Tensor& self, const Scalar& value) {                                      \
    return ::schemac::kernels::fill_##dev##_(self, value);                                        \
  }                                                                                               \
  Tensor& copy_##dev##_(Tensor& self, const Tensor& src, bool non_blocking) {                     \
    return ::schemac::kernels::copy_##dev##_(self, src, non_blocking);                            \
  }                                                                                               \
  Tensor add_##dev(const Tensor& self, const Tensor& other, const Scalar& alpha) {                \
    return ::schemac::kernels::add_##dev(self, other, alpha);                                     \
  }                                                                                               \
  Tensor& add_##dev##_(Tensor& self, const Tensor& other, const Scalar& alpha) {                  \
    return ::schemac::kernels::add_##dev##_(self, other, alpha);                                  \
  }                                                                                               \
  Tensor& add_out_##dev(const Tensor& self, const Tensor& other, const Scalar& alpha,             \
                        Tensor& out) {                                                            \
    return ::schemac::kernels::add_out_##dev(self, other, alpha, out);                            \
  }                                                                                               \
  Tensor mul_##dev(const Tensor& self, const Tensor& other) {                                     \
    return ::schemac::kernels::mul_##dev(self, other);                                            \
  }                                                                                               \
  Tensor relu_##dev(const Tensor& self) { return ::schemac::kernels::relu_##dev(self); }          \
  Tensor& relu_##dev##_(Tensor& self) { return ::schemac::kernels::relu_##dev##_(self); }         \
  Tensor sum_dim_##dev(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,          \
                       std::optional<ScalarType> dtype) {                                         \
    return ::schemac::kernels::sum_dim_##dev(self, dim, keepdim, dtype);                          \
  }                                                                                               \
  Tensor mean_dim_##dev(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,         \
                        std::optional<ScalarType> dtype) {                                        \
    return ::schemac::kernels::mean_dim_##dev(self, dim, keepdim, dtype);                         \
  }                                                                                               \
  Tensor softmax_##dev(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {        \
    return ::schemac::kernels::softmax_##dev(self, dim, dtype);                                   \
  }                                                                                               \
  Tensor mm_##dev(const Tensor& self, const Tensor& mat2) {                                       \
    return ::schemac::kernels::mm_##dev(self, mat2);                                              \
  }
