// Calls operators of examples/ops.yaml through the dispatcher, using the API that `schemac gen`
// generated for lib/runtime/kernels during the build, and shows which kernels ran for a tensor that
// carries autograd keys.
#include <cstdio>

#include "Operators.h"                          // generated: aten::add, aten::matmul, ...
#include "schemac/kernels/autograd_tape.h"     // the Autograd layering kernel's tape

using schemac::core::Tensor;

static void print(const char* label, const Tensor& t) {
  std::printf("%s = [", label);
  for (int64_t i = 0; i < t.size(0); ++i) {
    std::printf(i ? ", [" : "[");
    for (int64_t j = 0; j < t.size(1); ++j) std::printf(j ? ", %g" : "%g", t.item_at<float>({i, j}));
    std::printf("]");
  }
  std::printf("]\n");
}

int main() {
  aten::register_operators();  // the generated registration of every operator and kernel

  Tensor a = aten::empty({2, 3});   // empty.memory_format: BackendSelect picks CPU
  aten::fill_(a, 1.5);
  Tensor b = aten::empty({3});
  aten::fill_(b, 2.0);

  schemac::kernels::TapeRecording tape;  // record what the Autograd kernel sees
  Tensor c = aten::add(a, b, /*alpha=*/10);          // broadcasts b over the rows of a
  Tensor d = aten::matmul(c, aten::transpose(c, 0, 1));  // CompositeImplicitAutograd -> mm
  print("add(a, b, alpha=10)", c);
  print("matmul(c, c.t())", d);

  std::printf("autograd tape:\n");
  for (const auto& node : tape.nodes()) {
    std::printf("  %s(", node.op.c_str());
    for (size_t i = 0; i < node.inputs.size(); ++i)
      std::printf(i ? ", %s" : "%s", node.inputs[i].c_str());
    std::printf(")\n");
  }
  return 0;
}
