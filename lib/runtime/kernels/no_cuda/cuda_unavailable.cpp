// The CUDA kernels of a build without the CUDA toolkit: each one says so.
#include <fmt/format.h>

#include "schemac/kernels/native_functions.h"

namespace schemac::kernels {

using core::IntArrayRef, core::Scalar, core::ScalarType, core::Tensor;

namespace {
[[noreturn]] void unavailable(const char* op) {
  throw core::TensorError(
      fmt::format("{}: this build of the kernels library has no CUDA support", op));
}
}  // namespace

int cuda_device_count() { return 0; }

Tensor empty_cuda(IntArrayRef, std::optional<ScalarType>, std::optional<core::Layout>,
                  std::optional<core::Device>, std::optional<bool>,
                  std::optional<core::MemoryFormat>) {
  unavailable("empty");
}
Tensor& fill_cuda_(Tensor&, const Scalar&) { unavailable("fill_"); }
Tensor& copy_cuda_(Tensor&, const Tensor&, bool) { unavailable("copy_"); }
Tensor add_cuda(const Tensor&, const Tensor&, const Scalar&) { unavailable("add"); }
Tensor& add_cuda_(Tensor&, const Tensor&, const Scalar&) { unavailable("add_"); }
Tensor& add_out_cuda(const Tensor&, const Tensor&, const Scalar&, Tensor&) {
  unavailable("add.out");
}
Tensor mul_cuda(const Tensor&, const Tensor&) { unavailable("mul"); }
Tensor relu_cuda(const Tensor&) { unavailable("relu"); }
Tensor& relu_cuda_(Tensor&) { unavailable("relu_"); }
Tensor sum_dim_cuda(const Tensor&, std::optional<IntArrayRef>, bool, std::optional<ScalarType>) {
  unavailable("sum");
}
Tensor mean_dim_cuda(const Tensor&, std::optional<IntArrayRef>, bool, std::optional<ScalarType>) {
  unavailable("mean");
}
Tensor softmax_cuda(const Tensor&, int64_t, std::optional<ScalarType>) { unavailable("softmax"); }
Tensor mm_cuda(const Tensor&, const Tensor&) { unavailable("mm"); }

}  // namespace schemac::kernels
