// Kernels of containers.yaml, written with the types the generated NativeFunctions.h declares
// (std::tuple, c10::Dict, c10::optional of them; a mismatch is a compile error there, and one
// that PyTorch's schema inference disagrees with fails when the library loads).
#include <string>

#include <ATen/ATen.h>

#include "NativeFunctions.h"

namespace tc {

// self plus each weight times the length of its name, in the dict's order; `window` (start,
// end) keeps rows start..end-1.
at::Tensor weighted_sum_cpu(const at::Tensor& self, const c10::Dict<std::string, at::Tensor>& weights,
                            const c10::optional<::std::tuple<int64_t, int64_t>>& window) {
  at::Tensor out = self.clone();
  for (const auto& entry : weights) out.add_(entry.value() * static_cast<int64_t>(entry.key().size()));
  if (!window.has_value()) return out;
  const auto [start, end] = *window;
  return out.narrow(0, start, end - start);
}

// {"<name>": id, "spans": number of spans, "covered": the spans' total length, rounded} and
// then every entry of `counts`.
c10::Dict<std::string, int64_t> describe(const ::std::tuple<int64_t, std::string>& tag,
                                         at::ArrayRef<::std::tuple<double, double>> spans,
                                         const c10::optional<c10::Dict<std::string, int64_t>>& counts) {
  c10::Dict<std::string, int64_t> out;
  out.insert(std::get<1>(tag), std::get<0>(tag));
  out.insert("spans", static_cast<int64_t>(spans.size()));
  double covered = 0;
  for (const auto& [from, to] : spans) covered += to - from;
  out.insert("covered", static_cast<int64_t>(covered + 0.5));
  if (counts.has_value()) {
    for (const auto& entry : *counts) out.insert_or_assign(entry.key(), entry.value());
  }
  return out;
}

// The rows before `at`'s first element, and `at` with its elements swapped.
::std::tuple<at::Tensor, ::std::tuple<int64_t, int64_t>> split_at_cpu(const at::Tensor& self,
                                                                     const ::std::tuple<int64_t, int64_t>& at) {
  return {self.narrow(0, 0, std::get<0>(at)), {std::get<1>(at), std::get<0>(at)}};
}

}  // namespace tc
