// C++ types derived from schema types: the "native" signature that kernels implement and that
// typed handles and the user-facing API use.
//   Tensor -> const Tensor&        Tensor(a!) -> Tensor& (const Tensor& under
//                                  use_const_ref_for_mutable_tensors)
//   Tensor? -> const std::optional<Tensor>&
//   lists are read-only views (ArrayRef): int[] / SymInt[] -> IntArrayRef, Tensor[] -> TensorList,
//   Tensor?[] -> ArrayRef<std::optional<Tensor>>, float[] -> ArrayRef<double>, bool[] ->
//   ArrayRef<bool>, str[] -> ArrayRef<std::string_view>, Scalar[] -> ArrayRef<Scalar>, ...;
//   an optional list is a std::optional of its view (int[1]? -> std::optional<IntArrayRef>)
//   int, SymInt -> int64_t   float -> double   str -> std::string_view   Scalar -> const Scalar&
//   ScalarType, Layout, MemoryFormat, Device -> by value   Generator? -> std::optional<Generator>
//   returns own their values: Tensor -> Tensor, Tensor(a!) -> Tensor&, Tensor[] ->
//   std::vector<Tensor>, several -> std::tuple<...>, none -> void
//   tuples, dicts and None are owned values (boxing.h converts them):
//   (int, str) -> const std::tuple<int64_t, std::string>&   (int, int)? -> const
//   std::optional<std::tuple<int64_t, int64_t>>&   Dict(str, Tensor) -> const Dict<std::string,
//   Tensor>&   (str, str)[] -> ArrayRef<std::tuple<std::string, std::string>>   None ->
//   std::monostate; as returns by value (a lone tuple-typed return stays boxed-only: a
//   std::tuple result means several returns)
// Types the runtime has no C++ counterpart with a boxing conversion for (Union, Future, RRef,
// Await, Any, Storage, Stream, QScheme, custom classes, ...) and varargs make an operator
// boxed-only.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/schema/model.h"

namespace schemac::kernel_types {

struct CppParam {
  std::string type;           // "const Tensor&"
  std::string name;           // a valid C++ identifier
  std::string default_value;  // C++ expression, "" when none
};

struct CppSignature {
  std::string return_type;
  std::vector<CppParam> params;

  // "Tensor(const Tensor&, int64_t)": the function type.
  std::string function_type() const;
  // "const Tensor&, int64_t": the parameter types.
  std::string param_types() const;
  // "const Tensor& self, int64_t dim = 0": with defaults only when asked.
  std::string param_list(bool with_defaults) const;
  // "self, dim": the names, for forwarding.
  std::string arg_names() const;
};

// False when some argument or return has no C++ type, or the schema has varargs.
bool has_unboxed_signature(const schema::FunctionSchema& schema);
// Why an operator is boxed-only ("varargs", "'Union(int, str)' has no C++ type"); empty when it
// has an unboxed signature.
std::string boxed_only_reason(const schema::FunctionSchema& schema);

// The native signature; call only when has_unboxed_signature(schema).
CppSignature native_signature(const schema::FunctionSchema& schema,
                              bool const_ref_for_mutable_tensors);

// The C++ value type of any schema type, containers included: `(int, str)` ->
// std::tuple<int64_t, std::string>, `Dict(str, Tensor)` -> Dict<std::string, Tensor>, `None` ->
// std::monostate, `Union(int, str)` -> std::variant<int64_t, std::string>, `Future(Tensor)` ->
// Future<Tensor>, `int[]?` -> std::optional<std::vector<int64_t>>, `Any` -> IValue. Empty for a
// type with no C++ counterpart (Storage, Stream, custom classes, type variables). Only tuples,
// dicts and None of these containers have boxing conversions: operators with unions, futures,
// RRefs, awaits or Any stay boxed-only (has_unboxed_signature is false for them).
std::optional<std::string> cpp_value_type(const schema::Type& type);

// `name` itself, or with a trailing '_' when it is a C++ keyword.
std::string cpp_identifier(std::string_view name);

// Gives each parameter whose name an earlier one already has a `_<position>` suffix: PyTorch
// accepts a schema that names two arguments alike (`Tensor q, Tensor q`), C++ no function.
void make_parameter_names_unique(std::vector<CppParam>& params);

}  // namespace schemac::kernel_types
