// A test library whose operators take tuples, dicts and None (through the C++ API, library.h),
// for `dispatch-inspect trace` with nested value specs. Forms seen in public extension schemas:
// `Dict(str, Tensor)` (sglang), `(int, int)? group_shape=None` (vLLM csrc/torch_bindings.cpp),
// `(str, str, str)[] edge_types` (pyg-lib), `None` as a type (PyTorch's own test schemas).
#include <string>
#include <tuple>

#include "schemac/dispatch/library.h"

namespace {

using schemac::core::Dict;
using schemac::core::Tensor;

// The tensor under `key` (the same handle) and the product of group_shape's sizes (-1 without).
std::tuple<Tensor, int64_t> pick_cpu(const Tensor& self, const Dict<std::string, Tensor>& seed_dict,
                                     std::string_view key,
                                     const std::optional<std::tuple<int64_t, int64_t>>& group_shape) {
  (void)self;
  const int64_t groups = group_shape ? std::get<0>(*group_shape) * std::get<1>(*group_shape) : -1;
  return {seed_dict.at(std::string(key)), groups};
}

// The sizes that `edge_types` name as sources, in the order of `sizes`.
Dict<std::string, double> source_sizes(const Dict<std::string, double>& sizes,
                                       schemac::core::ArrayRef<std::tuple<std::string, std::string>> edge_types,
                                       std::monostate) {
  Dict<std::string, double> out;
  for (const auto& [name, size] : sizes)
    for (const auto& edge : edge_types)
      if (std::get<0>(edge) == name) out.insert_or_assign(name, size);
  return out;
}

}  // namespace

SCHEMAC_LIBRARY(inspect_containers, m) {
  m.def("pick(Tensor self, Dict(str, Tensor) seed_dict, str key, (int, int)? group_shape=None) -> (Tensor, int)");
  m.def("source_sizes(Dict(str, float) sizes, (str, str)[] edge_types, None unused) -> Dict(str, float)",
        &source_sizes);
}

SCHEMAC_LIBRARY_IMPL(inspect_containers, CPU, m) { m.impl("pick", &pick_cpu, "pick_cpu"); }
