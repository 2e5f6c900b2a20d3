// The retired names, from PyTorch's own native_functions.yaml at each release (0.4.1, 1.0 to
// 1.8, 1.13, 2.x): the first release whose file no longer has the name is the one given.
#include "schemac/native_functions/retired.h"

#include <algorithm>
#include <array>

namespace schemac::native_functions {
namespace {

constexpr auto kFields = std::to_array<RetiredName>({
    {"cpu_bool", "1.2",
     "nothing: the kernels' own dtype dispatch decides which dtypes run; delete the line"},
    {"cpu_half", "1.2",
     "nothing: the kernels' own dtype dispatch decides which dtypes run; delete the line"},
    {"cuda_bool", "1.2",
     "nothing: the kernels' own dtype dispatch decides which dtypes run; delete the line"},
    {"deprecated", "1.0",
     "nothing here: deprecated Python signatures live in tools/autograd/deprecated.yaml"},
    {"matches_jit_signature", "1.2",
     "nothing: every func is written in the JIT schema syntax; delete the line"},
    {"named_guard", "1.6",
     "nothing: named-tensor checks are generated for every operator; delete the line"},
    {"python_default_init", "1.1", "a default written in func, e.g. 'ScalarType? dtype=None'"},
    {"requires_tensor", "1.6", "a dispatch section listing the backends that have kernels"},
    {"return", "1.0", "the returns written in func after '->'"},
    {"supports_named_tensor", "1.7",
     "nothing: named-tensor support is on for every operator; delete the line"},
    {"use_c10_dispatcher", "1.9",
     "nothing: every operator goes through the c10 dispatcher; delete the line"},
});

constexpr auto kDispatchKeys = std::to_array<RetiredName>({
    {"DefaultBackend", "1.9", "CompositeExplicitAutograd"},
    {"Math", "1.9", "CompositeImplicitAutograd"},
});

constexpr auto kTypes = std::to_array<RetiredName>({
    {"BoolTensor", "1.1", "Tensor"},
    {"Generator*", "1.1", "Generator?"},
    {"IndexTensor", "1.1", "Tensor"},
    {"IntList", "1.1", "int[] (IntList[2] is int[2])"},
    {"SparseTensorRef", "1.2", "Tensor"},
    {"TensorList", "1.1", "Tensor[]"},
    {"TensorOptions", "1.2",
     "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"},
    {"Type", "1.0", "ScalarType"},
    {"double", "1.1", "float"},
    {"int64_t", "1.1", "int"},
});

const RetiredName* find(std::span<const RetiredName> table, std::string_view name) {
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const RetiredName& r) { return r.name == name; });
  return it == table.end() ? nullptr : &*it;
}

}  // namespace

const RetiredName* find_retired_field(std::string_view name) { return find(kFields, name); }
const RetiredName* find_retired_dispatch_key(std::string_view name) {
  return find(kDispatchKeys, name);
}
const RetiredName* find_retired_type(std::string_view name) { return find(kTypes, name); }

std::span<const RetiredName> retired_fields() { return kFields; }
std::span<const RetiredName> retired_dispatch_keys() { return kDispatchKeys; }
std::span<const RetiredName> retired_types() { return kTypes; }

}  // namespace schemac::native_functions
