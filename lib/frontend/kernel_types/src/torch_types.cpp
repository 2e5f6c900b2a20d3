// torchgen's native signature for PyTorch (torch_types.h).
#include "schemac/kernel_types/torch_types.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/schema/printer.h"

namespace schemac::kernel_types {
namespace {

using schema::BaseType;
using schema::Type;

// torchgen's BaseTypeToCppMapping (SymInt handled by the callers).
std::optional<std::string> base_cpp_type(BaseType base) {
  switch (base) {
    case BaseType::Int: return "int64_t";
    case BaseType::Float: return "double";
    case BaseType::Bool: return "bool";
    case BaseType::Str: return "c10::string_view";
    case BaseType::Generator: return "at::Generator";
    case BaseType::ScalarType: return "at::ScalarType";
    case BaseType::Tensor: return "at::Tensor";
    case BaseType::Dimname: return "at::Dimname";
    case BaseType::Layout: return "at::Layout";
    case BaseType::Device: return "at::Device";
    case BaseType::Scalar: return "at::Scalar";
    case BaseType::MemoryFormat: return "at::MemoryFormat";
    case BaseType::QScheme: return "at::QScheme";
    case BaseType::Storage: return "at::Storage";
    case BaseType::Stream: return "at::Stream";
    default: return std::nullopt;
  }
}

// cpp.valuetype_type: the types that look the same as arguments and returns.
std::optional<std::string> value_type(const Type& t, bool symint) {
  switch (t.kind) {
    case Type::Kind::Base:
      if (t.base == BaseType::Tensor || t.base == BaseType::Scalar) return std::nullopt;
      if (t.base == BaseType::SymInt) return symint ? "c10::SymInt" : "int64_t";
      return base_cpp_type(t.base);
    case Type::Kind::Optional: {
      std::optional<std::string> elem = value_type(t.element(), symint);
      if (!elem) return std::nullopt;
      return fmt::format("c10::optional<{}>", *elem);
    }
    case Type::Kind::List:
      if (t.element().is_base(BaseType::Bool) && t.fixed_size) {
        return fmt::format("::std::array<bool,{}>", *t.fixed_size);
      }
      return std::nullopt;
    default: return std::nullopt;  // tuples, dicts (argument_type), unions, futures, RRefs, awaits
  }
}

bool is_list_of(const Type& t, BaseType elem) { return t.is_list() && t.element().is_base(elem); }

bool is_container(const Type& t) {
  return t.kind == Type::Kind::Tuple || t.kind == Type::Kind::Dict;
}

// c10::Dict's key types (ATen/core/Dict.h valid_dict_key_types, less complex<double>, which
// has no schema spelling here).
std::optional<std::string> dict_key_type(const Type& t, bool symint) {
  if (t.kind != Type::Kind::Base) return std::nullopt;
  switch (t.base) {
    case BaseType::Str: return "std::string";
    case BaseType::Int:
    case BaseType::Float:
    case BaseType::Bool:
    case BaseType::SymInt: return value_type(t, symint);
    case BaseType::Tensor: return "at::Tensor";
    default: return std::nullopt;
  }
}

// A value inside a tuple, a dict, a list or an optional container: owned, as IValue::to<T> gives
// it (str -> std::string, T[] -> c10::List<T>, T? -> c10::optional<T>). None has no C++ type the
// kernel boxing accepts (infer_schema maps no C++ type to NoneType); c10::List<at::Scalar> is
// refused by assert_is_valid_input_type. `symint`: how a SymInt here is written. PyTorch compares
// the types inside a tuple or a dict as `int` (their fake type: int64_t, whatever the kernel) and a
// SymInt element of a list (`SymInt?[]`, `SymInt[][]`) as SymInt (c10::SymInt), in 1.13 and 2.14.
std::optional<std::string> element_value_type(const Type& t, bool symint) {
  std::vector<std::string> parts;
  for (const Type& item : t.contained()) {
    std::optional<std::string> part = t.kind == Type::Kind::Dict && parts.empty()
                                          ? dict_key_type(item, false)
                                          : element_value_type(item, false);
    if (!part) return std::nullopt;
    parts.push_back(std::move(*part));
  }
  switch (t.kind) {
    case Type::Kind::Base:
      if (t.base == BaseType::Str) return "std::string";
      if (t.base == BaseType::Tensor) return "at::Tensor";
      if (t.base == BaseType::Scalar) return "at::Scalar";
      return value_type(t, symint);
    case Type::Kind::Optional: {
      std::optional<std::string> elem = element_value_type(t.element(), symint);
      if (!elem) return std::nullopt;
      return fmt::format("c10::optional<{}>", *elem);
    }
    case Type::Kind::List: {
      if (t.element().is_base(BaseType::Scalar)) return std::nullopt;
      std::optional<std::string> elem = element_value_type(t.element(), symint);
      if (!elem) return std::nullopt;
      return fmt::format("c10::List<{}>", *elem);
    }
    case Type::Kind::Tuple: return fmt::format("::std::tuple<{}>", fmt::join(parts, ", "));
    case Type::Kind::Dict: return fmt::format("c10::Dict<{}>", fmt::join(parts, ", "));
    default: return std::nullopt;  // unions, futures, RRefs, awaits
  }
}

// native.argumenttype_type, then cpp.argumenttype_type.
std::optional<std::string> argument_type(const Type& t, bool mutable_, bool const_ref,
                                         bool symint) {
  const bool mut_ref = mutable_ && !const_ref;
  // Written or not (torchgen says c10::optional<at::Tensor>& for `Tensor(a!)?`): c10 unboxes an
  // optional into a temporary, which only a const reference binds; the tensor stays writable.
  if (t.is_optional() && t.element().is_base(BaseType::Tensor))
    return "const c10::optional<at::Tensor>&";
  // c10 infers `Generator?` from at::Generator: a plain `Generator` has no C++ type that matches.
  if (t.is_base(BaseType::Generator)) return std::nullopt;
  if (t.is_list() && t.element().is_optional() && t.element().element().is_base(BaseType::Tensor)) {
    return "const c10::List<c10::optional<at::Tensor>>&";
  }
  if (t.is_base(BaseType::Scalar)) return "const at::Scalar&";
  if (t.is_optional() && t.element().is_base(BaseType::Scalar))
    return "const c10::optional<at::Scalar>&";
  if (std::optional<std::string> value = value_type(t, symint)) return value;
  // Tuples and dicts, and optionals of them: owned values by const reference.
  if (is_container(t) || (t.is_optional() && is_container(t.element()))) {
    std::optional<std::string> value = element_value_type(t, false);
    if (!value) return std::nullopt;
    return fmt::format("const {}&", *value);
  }
  switch (t.kind) {
    case Type::Kind::Base:
      if (t.base == BaseType::Tensor) return mut_ref ? "at::Tensor&" : "const at::Tensor&";
      return std::nullopt;
    case Type::Kind::Optional: {
      const Type& elem = t.element();
      if (is_list_of(elem, BaseType::Bool)) return "const c10::optional<c10::List<bool>>&";
      if (is_list_of(elem, BaseType::Int)) return "at::OptionalIntArrayRef";
      if (is_list_of(elem, BaseType::SymInt)) {
        return symint ? "at::OptionalSymIntArrayRef" : "at::OptionalIntArrayRef";
      }
      std::optional<std::string> inner = argument_type(elem, mutable_, const_ref, symint);
      if (!inner) return std::nullopt;
      return fmt::format("c10::optional<{}>", *inner);
    }
    case Type::Kind::List: {
      const Type& elem = t.element();
      if (elem.is_base(BaseType::Int)) return "at::IntArrayRef";
      if (elem.is_base(BaseType::SymInt)) return symint ? "c10::SymIntArrayRef" : "at::IntArrayRef";
      if (elem.is_base(BaseType::Tensor)) return "at::TensorList";
      if (elem.is_base(BaseType::Scalar)) return "at::ArrayRef<at::Scalar>";
      if (elem.is_base(BaseType::Dimname)) return "at::DimnameList";
      // No ArrayRef<bool> over a std::vector<bool>: c10 takes bool lists as c10::List<bool>.
      if (elem.is_base(BaseType::Bool)) return "const c10::List<bool>&";
      // Lists of containers and of lists hold owned values (`int[][]` ->
      // at::ArrayRef<c10::List<int64_t>>); a SymInt inside a list element is c10::SymInt
      // (`SymInt?[]` -> at::ArrayRef<c10::optional<c10::SymInt>>), whatever the kernel's name.
      std::optional<std::string> inner = is_container(elem) || elem.is_list()
                                             ? element_value_type(elem, !is_container(elem))
                                             : argument_type(elem, mutable_, const_ref, true);
      if (!inner) return std::nullopt;
      return fmt::format("at::ArrayRef<{}>", *inner);
    }
    default: return std::nullopt;  // unions, futures, RRefs, awaits
  }
}

// cpp.returntype_type, and the returns c10 takes beyond torchgen's: str as an owned std::string
// and an optional of any return type (`Tensor?` -> c10::optional<at::Tensor>). `symint`: a SymInt
// return is c10::SymInt (symint_returns_are_symint), inside a tuple or a dict int64_t.
std::optional<std::string> single_return_type(const Type& t, bool mutable_, bool const_ref,
                                              bool symint) {
  if (t.is_base(BaseType::Str)) return "std::string";
  if (t.is_base(BaseType::Generator)) return std::nullopt;  // as in argument_type
  // c10 refuses std::vector<bool> and std::vector<at::Scalar> as outputs; a bool list is returned
  // as c10::List<bool>, a Scalar list has no typed return.
  if (is_list_of(t, BaseType::Bool) && !t.fixed_size) return "c10::List<bool>";
  if (is_list_of(t, BaseType::Scalar)) return std::nullopt;
  if (t.is_optional() && !is_container(t.element())) {
    std::optional<std::string> inner = single_return_type(t.element(), false, const_ref, symint);
    if (!inner) return std::nullopt;
    return fmt::format("c10::optional<{}>", *inner);
  }
  if (std::optional<std::string> value = value_type(t, symint)) return value;
  if (t.is_base(BaseType::Tensor)) {
    if (!mutable_) return "at::Tensor";
    return const_ref ? "const at::Tensor&" : "at::Tensor&";
  }
  if (t.is_base(BaseType::Scalar)) return "at::Scalar";
  // Containers and optionals of them by value (c10::Dict<K, at::Scalar> is refused as an output).
  if (is_container(t) || (t.is_optional() && is_container(t.element()))) {
    const Type& c = t.is_optional() ? t.element() : t;
    if (c.kind == Type::Kind::Dict && c.contained()[1].is_base(BaseType::Scalar))
      return std::nullopt;
    return element_value_type(t, false);
  }
  if (t.is_list() && !mutable_ && !t.fixed_size) {
    std::optional<std::string> elem = single_return_type(t.element(), false, const_ref, symint);
    if (!elem) return std::nullopt;
    return fmt::format("::std::vector<{}>", *elem);
  }
  return std::nullopt;
}

// The argument's own annotation writes (torchgen's Argument.is_write: `Tensor(a!)`,
// `Tensor(a!)?`, not an annotated list element).
bool is_write(const Type& t) {
  const Type& node = t.is_optional() ? t.element() : t;
  return node.alias != nullptr && node.alias->is_write;
}

bool contains_none(const Type& t) {
  if (t.is_base(BaseType::NoneType)) return true;
  if (t.is_wrapper() && contains_none(t.element())) return true;
  for (const Type& item : t.contained())
    if (contains_none(item)) return true;
  return false;
}

// Why `t` has no native type: the comment on a boxed kernel's declaration says it.
std::string no_type_reason(const Type& t, torch_releases::TorchVersion release) {
  const std::string printed = schema::print_type(t);
  if (is_list_of(t, BaseType::Scalar)) {
    return fmt::format("'{}': PyTorch refuses std::vector<at::Scalar> as a kernel's output",
                       printed);
  }
  if (t.is_base(BaseType::Generator)) {
    return fmt::format(
        "'{}': PyTorch infers 'Generator?' from at::Generator, so no typed kernel matches it",
        printed);
  }
  if (contains_none(t)) {
    return fmt::format(
        "'{}': PyTorch {} kernels have no C++ type for None (schema inference maps no C++ "
        "argument type to NoneType)",
        printed, torch_releases::format_torch_version(release));
  }
  return fmt::format("'{}' has no C++ native type", printed);
}

}  // namespace

bool TorchSignature::reordered() const {
  for (size_t i = 0; i < schema_index.size(); ++i) {
    if (schema_index[i] != i) return true;
  }
  return false;
}

// Before 2.0 a SymInt return is written as the kernel's arguments are (c10::SymInt for a SymInt
// kernel: 1.13 infers `int` from int64_t, and `SymInt[]` only from std::vector<c10::SymInt>).
bool symint_returns_are_symint(torch_releases::TorchVersion release) {
  return release >= torch_releases::TorchVersion{2, 0};
}

std::optional<TorchSignature> torch_native_signature(const schema::FunctionSchema& schema,
                                                     bool const_ref_for_mutable_tensors,
                                                     bool symint, std::string* why,
                                                     torch_releases::TorchVersion release) {
  auto fail = [&](std::string reason) -> std::optional<TorchSignature> {
    if (why != nullptr) *why = std::move(reason);
    return std::nullopt;
  };
  if (schema.is_vararg || schema.is_varret) return fail("it has varargs ('...')");
  TorchSignature sig;
  std::vector<size_t> outs;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const schema::Argument& a = schema.arguments[i];
    std::optional<std::string> type =
        argument_type(a.type, is_write(a.type), const_ref_for_mutable_tensors, symint);
    if (!type)
      return fail(fmt::format("argument '{}' of type {}", a.name, no_type_reason(a.type, release)));
    // torchgen's out arguments: the keyword-only ones that are written, moved last.
    if (a.kwarg_only && is_write(a.type)) {
      outs.push_back(i);
    } else {
      sig.schema_index.push_back(i);
    }
    (void)type;
  }
  for (size_t i : outs) sig.schema_index.push_back(i);
  for (size_t i : sig.schema_index) {
    const schema::Argument& a = schema.arguments[i];
    CppParam param;
    param.type = *argument_type(a.type, is_write(a.type), const_ref_for_mutable_tensors, symint);
    param.name = cpp_identifier(a.name);
    sig.params.push_back(std::move(param));
  }
  make_parameter_names_unique(sig.params);
  // A std::tuple result means several returns to PyTorch's boxing (push_outputs).
  if (schema.returns.size() == 1 && schema.returns.front().type.kind == schema::Type::Kind::Tuple) {
    return fail(
        "a lone tuple-typed return: PyTorch's C++ kernels return several values as a ::std::tuple");
  }
  std::vector<std::string> returns;
  for (const schema::Argument& r : schema.returns) {
    std::optional<std::string> type =
        single_return_type(r.type, is_write(r.type), const_ref_for_mutable_tensors,
                           symint || symint_returns_are_symint(release));
    if (!type) return fail(fmt::format("a return of type {}", no_type_reason(r.type, release)));
    returns.push_back(*type);
  }
  if (returns.empty()) {
    sig.return_type = "void";
  } else if (returns.size() == 1) {
    sig.return_type = returns.front();
  } else {
    sig.return_type = fmt::format("::std::tuple<{}>", fmt::join(returns, ", "));
  }
  return sig;
}

}  // namespace schemac::kernel_types
