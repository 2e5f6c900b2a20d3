// The kernels of ops.yaml, written with PyTorch's stable API only (no libtorch C++ types): the
// declarations come from the generated NativeFunctions.h.
#include <numeric>
#include <string>

#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/util/Exception.h>

#include "NativeFunctions.h"

namespace xstable {
namespace {

void scale_into(const torch::stable::Tensor& from, const torch::stable::Tensor& to, double factor) {
  STD_TORCH_CHECK(from.scalar_type() == torch::headeronly::ScalarType::Float,
                  "xstable kernels take float tensors");
  const auto* in = static_cast<const float*>(from.const_data_ptr());
  auto* out = static_cast<float*>(to.mutable_data_ptr());
  for (int64_t i = 0; i < from.numel(); ++i) out[i] = static_cast<float>(in[i] * factor);
}

}  // namespace

torch::stable::Tensor scaled_cpu(const torch::stable::Tensor& x, double factor) {
  torch::stable::Tensor out = torch::stable::empty_like(torch::stable::contiguous(x));
  scale_into(torch::stable::contiguous(x), out, factor);
  return out;
}

torch::stable::Tensor scaled_out_cpu(const torch::stable::Tensor& x, double factor,
                                     torch::stable::Tensor& out) {
  scale_into(torch::stable::contiguous(x), out, factor);
  return out;
}

torch::stable::Tensor scale_cpu_(torch::stable::Tensor& x, double factor) {
  scale_into(x, x, factor);
  return x;
}

std::tuple<int64_t, std::vector<int64_t>> sizes_info(
    const torch::stable::Tensor& x, torch::headeronly::HeaderOnlyArrayRef<int64_t> extra,
    std::optional<int64_t> offset) {
  const int64_t total = std::accumulate(extra.begin(), extra.end(), x.numel());
  const auto sizes = x.sizes();
  return {total + offset.value_or(0), std::vector<int64_t>(sizes.begin(), sizes.end())};
}

std::string describe(const torch::stable::Tensor& x, std::string_view prefix,
                     const std::vector<std::string>& tags,
                     const std::optional<std::string>& suffix) {
  std::string out = std::string(prefix) + std::to_string(x.dim());
  for (const std::string& tag : tags) out += "," + tag;
  return out + suffix.value_or("");
}

std::vector<torch::stable::Tensor> pick(
    torch::headeronly::HeaderOnlyArrayRef<torch::stable::Tensor> xs,
    torch::headeronly::HeaderOnlyArrayRef<std::optional<torch::stable::Tensor>> maybe,
    int64_t index, std::optional<torch::headeronly::HeaderOnlyArrayRef<int64_t>> sizes) {
  std::vector<torch::stable::Tensor> out{xs[static_cast<size_t>(index)]};
  for (const std::optional<torch::stable::Tensor>& m : maybe)
    if (m) out.push_back(*m);
  if (sizes) out.push_back(torch::stable::new_zeros(xs[0], *sizes));
  return out;
}

std::tuple<torch::headeronly::ScalarType, torch::stable::Device> dtype_of(
    const torch::stable::Tensor& x, std::optional<torch::headeronly::ScalarType> dtype,
    std::optional<torch::headeronly::Layout> layout,
    const std::optional<torch::stable::Device>& device,
    std::optional<torch::headeronly::MemoryFormat> memory_format) {
  STD_TORCH_CHECK(!layout || *layout == torch::headeronly::Layout::Strided, "strided only");
  STD_TORCH_CHECK(!memory_format || *memory_format == torch::headeronly::MemoryFormat::Contiguous,
                  "contiguous only");
  return {dtype.value_or(x.scalar_type()), device.value_or(x.device())};
}

std::tuple<bool, double, int64_t> flags(
    const std::vector<bool>& mask, torch::headeronly::HeaderOnlyArrayRef<double> weights,
    torch::headeronly::HeaderOnlyArrayRef<std::vector<int64_t>> groups,
    std::optional<bool> strict) {
  bool all = strict.value_or(true);
  for (bool m : mask) all = all && m;
  int64_t members = 0;
  for (const std::vector<int64_t>& group : groups) members += static_cast<int64_t>(group.size());
  return {all, std::accumulate(weights.begin(), weights.end(), 0.0), members};
}

torch::stable::Tensor seeded_cpu(const torch::stable::Tensor& x,
                                 const std::optional<torch::stable::Generator>& generator) {
  return torch::stable::fill_(torch::stable::empty_like(x), generator ? 1.0 : 0.0);
}

torch::stable::Tensor fill_like(const torch::stable::Tensor& x, double value) {
  return torch::stable::fill_(torch::stable::empty_like(x), value);
}

}  // namespace xstable
