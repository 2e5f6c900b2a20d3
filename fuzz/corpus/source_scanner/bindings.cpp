// Registration forms seen in extension projects, written for these tests:
// ops.def with joined literals and a duplicated argument name (seen in vllm csrc/torch_bindings.cpp),
// TORCH_SELECTIVE_SCHEMA (torchvision csrc/ops), torch::schema (PyTorch's library.h docs),
// raw strings and escapes (PyTorch's own tests), m.def("name", fn) (vllm, detectron2).
#include <torch/library.h>

TORCH_LIBRARY(myops, ops) {
  ops.def(
      "attention(Tensor! out, Tensor q, "
      // a comment between the pieces
      "Tensor q_seqlens, Tensor q_seqlens) -> ()");
  ops.def("scale(Tensor x, float factor=1.0) -> Tensor", &scale);
  ops.def(TORCH_SELECTIVE_SCHEMA("myops::nms(Tensor dets, float iou_threshold) -> Tensor"));
  ops.def(torch::schema("pure(Tensor x) -> Tensor", c10::AliasAnalysisKind::PURE_FUNCTION));
  ops.def(R"SCHEMA(raw(Tensor x,
                       int n) -> Tensor)SCHEMA");
  ops.def(u8"pre\x66ixed(Tensor x) -> Tensor");
  ops.def("contin\
ued(Tensor x) -> Tensor");
  ops.def("inferred", &inferred);
  ops.def(SCHEMA_FROM_MACRO);
  /* ops.def("commented_out(Tensor x) -> Tensor"); */
  // ops.def("also_commented(Tensor x) -> Tensor");
  const char* text = "not_a_call(Tensor x) -> Tensor";
}

TORCH_LIBRARY_IMPL(myops, CUDA, m) {
  m.impl("attention", &attention_cuda);
  m.impl("missing_op", &missing_cuda);
}
