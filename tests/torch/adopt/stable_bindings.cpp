// A stable-ABI bindings file in the layout of vLLM's libtorch_stable, written for this test: the
// namespace comes from the build (-DTORCH_EXTENSION_NAME=...), the kernels are written with
// PyTorch's stable API and registered through TORCH_BOX, one kernel is a raw function over the
// StableIValue stack, and one operator takes a Scalar, which the stable ABI cannot convert.
// tests/torch/CMakeLists.txt compiles it as it is (libtorch 2.10 and later), and adopts it with
// `schemac parse --source --format yaml -D TORCH_EXTENSION_NAME=_S`.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

using torch::stable::Tensor;

// A named namespace: adoption names each kernel with it (one in an anonymous namespace could not
// be called from the generated file, and is left out).
namespace stable_demo {

void silu_and_mul(Tensor& out, const Tensor& input) {
  auto* o = static_cast<float*>(out.mutable_data_ptr());
  const auto* in = static_cast<const float*>(input.const_data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = in[i] * 2;
}

Tensor scaled_copy(const Tensor& input, double scale, std::optional<int64_t> group_size) {
  Tensor out = torch::stable::empty_like(input);
  return torch::stable::fill_(out, scale * static_cast<double>(group_size.value_or(1)));
}

std::tuple<Tensor, int64_t> view_info(const Tensor& t,
                                      torch::headeronly::HeaderOnlyArrayRef<int64_t> dims,
                                      std::string_view note) {
  return {t, static_cast<int64_t>(dims.size() + note.size())};
}

// A kernel over the stack itself: not a typed kernel adoption could declare.
void count_raw(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = torch::stable::detail::to<Tensor>(stack[0]);
  stack[0] = torch::stable::detail::from(x.numel());
}

}  // namespace stable_demo

STABLE_TORCH_LIBRARY_FRAGMENT(TORCH_EXTENSION_NAME, ops) {
  ops.def("silu_and_mul(Tensor! out, Tensor input) -> ()");
  ops.def(
      "scaled_copy(Tensor input, float scale,"
      "            int? group_size=None) -> Tensor");
  ops.def("view_info(Tensor t, int[] dims, str note) -> (Tensor, int)");
  ops.def("count_raw(Tensor x) -> int");
  ops.def("clamp_min_scalar(Tensor x, Scalar lo) -> Tensor");
}

STABLE_TORCH_LIBRARY_IMPL(TORCH_EXTENSION_NAME, CPU, ops) {
  ops.impl("silu_and_mul", TORCH_BOX(&stable_demo::silu_and_mul));
  ops.impl("scaled_copy", TORCH_BOX(&stable_demo::scaled_copy));
  ops.impl("view_info", TORCH_BOX(&stable_demo::view_info));
  ops.impl("count_raw", &stable_demo::count_raw);
}
