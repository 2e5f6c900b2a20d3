// Kernels of bindings.cpp for the library built from the original file: each does something
// small, so that a call shows it ran.
#include "kernels.h"

void scaled_act_and_mul(at::Tensor& out, const at::Tensor& input, double scale) {
  out.copy_(input * scale);
}
void norm_with_residual(at::Tensor& out, const at::Tensor& input,
                        const c10::optional<at::Tensor>&, const c10::optional<at::Tensor>&,
                        int64_t, c10::string_view, double) {
  out.copy_(input);
}
void block_index(at::Tensor& counts, const at::Tensor&, const at::Tensor&, int64_t, bool) {
  counts.zero_();
}
at::Tensor quantize_scaled(const at::Tensor& input, const at::Tensor& scale,
                           const c10::optional<std::tuple<int64_t, int64_t>>&) {
  return input / scale;
}
std::tuple<at::Tensor, at::Tensor> top_two(const at::Tensor& logits, int64_t dim) {
  auto result = logits.topk(2, dim);
  return {std::get<0>(result), std::get<1>(result)};
}
int64_t describe_int(int64_t attribute) { return attribute + 1; }
int64_t name_only(int64_t x) { return x; }
void copy_pages(const at::Tensor& src, at::Tensor& dst, at::IntArrayRef) { dst.copy_(src); }
