// The kernels of a small multi-file extension written for this test, in the layout many binding
// projects have: declarations in a header, in the project's namespaces; definitions in their own
// files; registrations in binding files (bindings/). schemac adopts the bindings together with
// this header, so that each kernel is named with its namespace.
#pragma once

#include <ATen/ATen.h>

#include <tuple>

namespace fastops {
namespace gemm {
at::Tensor prepack(const at::Tensor& weight);
at::Tensor matmul_prepacked(const at::Tensor& input, const at::Tensor& packed, double alpha);
}  // namespace gemm

namespace norm {
std::tuple<at::Tensor, at::Tensor> rms_norm(const at::Tensor& input, double eps);
}  // namespace norm

at::Tensor add_one(const at::Tensor& input);
}  // namespace fastops
