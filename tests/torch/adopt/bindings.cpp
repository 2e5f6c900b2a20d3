// A bindings file in vLLM's layout, written for this test: the namespace comes from the build
// (-DTORCH_EXTENSION_NAME=...), through TORCH_LIBRARY_EXPAND and CONCAT; kernels are registered
// with a device constant; one schema names an argument twice (PyTorch accepts it); some
// definitions are in preprocessor branches. tests/torch/CMakeLists.txt compiles it as it is, and
// adopts it with `schemac parse --source --format yaml -D TORCH_EXTENSION_NAME=_C`.
#include <torch/library.h>
#include <torch/types.h>  // torch::kCPU

#include "kernels.h"
#include "registration.h"

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("scaled_act_and_mul(Tensor! out, Tensor input, float scale) -> ()");
  ops.impl("scaled_act_and_mul", torch::kCPU, &scaled_act_and_mul);

  // Many literals, one schema.
  ops.def(
      "norm_with_residual(Tensor! out, Tensor input,"
      "                   Tensor? bias, Tensor!? residual,"
      "                   SymInt rows, str kv_dtype,"
      "                   float eps=1e-06) -> ()");
  ops.impl("norm_with_residual", torch::kCPU, &norm_with_residual);

#ifndef USE_ROCM
  ops.def(
      "block_index(Tensor! counts, Tensor seqlens, Tensor seqlens, "
      "int block, bool causal) -> ()");
  ops.impl("block_index", torch::kCPU, &block_index);
#else
  ops.def("block_index_rocm(Tensor! counts) -> ()");
#endif

  ops.def(
      "quantize_scaled(Tensor input, Tensor scale, (int, int)? group_shape=None) "
      "-> Tensor");
  ops.impl("quantize_scaled", torch::kCPU, &quantize_scaled);

  ops.def("top_two(Tensor logits, int dim=-1) -> (Tensor values, Tensor indices)");
  ops.impl("top_two", torch::kCPU, &top_two);

  ops.def("describe_int(int attribute) -> int", &describe_int);
  ops.impl("describe_int", torch::kCPU, &describe_int);

  // The schema is inferred from the function: nothing to adopt.
  ops.def("name_only", &name_only);
}

TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME, _cache_ops), cache_ops) {
  cache_ops.def("copy_pages(Tensor src, Tensor! dst, int[] mapping) -> ()");
  cache_ops.impl("copy_pages", torch::kCPU, &copy_pages);
}
