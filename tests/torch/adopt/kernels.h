// The kernels bindings.cpp registers (kernels.cpp defines them), declared at global scope as
// vLLM-style extensions declare theirs in ops.h.
#pragma once

#include <ATen/ATen.h>
#include <c10/util/Optional.h>

#include <string>
#include <tuple>

void scaled_act_and_mul(at::Tensor& out, const at::Tensor& input, double scale);
void norm_with_residual(at::Tensor& out, const at::Tensor& input,
                        const c10::optional<at::Tensor>& bias,
                        const c10::optional<at::Tensor>& residual, int64_t rows,
                        c10::string_view kv_dtype, double eps);
void block_index(at::Tensor& counts, const at::Tensor& seqlens, const at::Tensor& seqlens_again,
                 int64_t block, bool causal);
at::Tensor quantize_scaled(const at::Tensor& input, const at::Tensor& scale,
                           const c10::optional<std::tuple<int64_t, int64_t>>& group_shape);
std::tuple<at::Tensor, at::Tensor> top_two(const at::Tensor& logits, int64_t dim);
int64_t describe_int(int64_t attribute);
int64_t name_only(int64_t x);
void copy_pages(const at::Tensor& src, at::Tensor& dst, at::IntArrayRef mapping);
