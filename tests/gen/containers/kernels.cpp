// Kernels of ops.yaml, written with the native signatures `schemac gen` declares in
// NativeFunctions.h: tuples as std::tuple, dicts as Dict<K, V>, None as std::monostate.
#include "NativeFunctions.h"

namespace containers::native {

// The tensor under `key` (the same handle), and the product of group_shape's sizes (-1 without).
std::tuple<Tensor, int64_t> pick(const Dict<std::string, Tensor>& seed_dict, std::string_view key,
                                 const std::optional<std::tuple<int64_t, int64_t>>& group_shape) {
  const int64_t groups = group_shape ? std::get<0>(*group_shape) * std::get<1>(*group_shape) : -1;
  return {seed_dict.at(std::string(key)), groups};
}

// Every size times scale[0], plus scale[1], in the order of `sizes`.
Dict<std::string, int64_t> scale_sizes(const Dict<std::string, int64_t>& sizes,
                                       const std::tuple<int64_t, int64_t>& scale) {
  Dict<std::string, int64_t> out;
  for (const auto& [name, size] : sizes) {
    out.insert_or_assign(name, size * std::get<0>(scale) + std::get<1>(scale));
  }
  return out;
}

// How many edge types start at `src`.
int64_t count_edges(ArrayRef<std::tuple<std::string, std::string, std::string>> edge_types,
                    std::string_view src, std::monostate) {
  int64_t n = 0;
  for (const auto& edge : edge_types) n += std::get<0>(edge) == src ? 1 : 0;
  return n;
}

std::monostate check_none(const Tensor&, std::monostate) { return {}; }

}  // namespace containers::native
