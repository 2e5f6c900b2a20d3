// The gemm operators' binding file: the library block and its CPU kernels, named from inside the
// project's namespace. One operator has no kernel in the project (another build provides it).
#include <torch/library.h>

#include "fastops/kernels.h"

#define FASTOPS_SCHEMA(sig) torch::schema(sig, c10::AliasAnalysisKind::FROM_SCHEMA)

TORCH_LIBRARY(fastops, m) {
  m.def("prepack(Tensor weight) -> Tensor");
  m.def(FASTOPS_SCHEMA("matmul_prepacked(Tensor input, Tensor packed, float alpha=1.0) -> Tensor"));
  m.def(
      "rms_norm(Tensor input, float eps=1e-06)"
      " -> (Tensor output, Tensor rms)");
  m.def("fused_gelu(Tensor input, str approximate=\"none\") -> Tensor");
}

namespace fastops {

TORCH_LIBRARY_IMPL(fastops, CPU, m) {
  m.impl("prepack", &gemm::prepack);
  m.impl("matmul_prepacked", TORCH_FN(gemm::matmul_prepacked));
}

}  // namespace fastops
