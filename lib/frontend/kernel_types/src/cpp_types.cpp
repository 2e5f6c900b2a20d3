// Schema types to C++ types (cpp_types.h).
#include "schemac/kernel_types/cpp_types.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/schema/printer.h"

namespace schemac::kernel_types {
namespace {

using schema::BaseType;
using schema::DefaultValue;
using schema::Type;

// A value of the leaf type, as an element of a list or optional, or as a return.
std::optional<std::string> value_type(const Type& type, bool is_return) {
  if (type.kind != Type::Kind::Base) return std::nullopt;
  switch (type.base) {
    case BaseType::Tensor: return "Tensor";
    case BaseType::Int:
    case BaseType::SymInt:
    case BaseType::DeviceIndex: return "int64_t";
    case BaseType::Float:
    case BaseType::SymFloat: return "double";
    case BaseType::Bool:
    case BaseType::SymBool: return "bool";
    case BaseType::Str:
    case BaseType::Dimname: return is_return ? "std::string" : "std::string_view";
    case BaseType::Scalar: return "Scalar";
    case BaseType::ScalarType: return "ScalarType";
    case BaseType::Layout: return "Layout";
    case BaseType::MemoryFormat: return "MemoryFormat";
    case BaseType::Device: return "Device";
    case BaseType::Generator: return "Generator";
    case BaseType::Complex: return "std::complex<double>";
    default: return std::nullopt;
  }
}

// The C++ value type of any schema type, containers included (cpp_value_type in cpp_types.h).
std::optional<std::string> any_value_type(const Type& type) {
  auto items = [&]() -> std::optional<std::vector<std::string>> {
    std::vector<std::string> out;
    for (const Type& item : type.contained()) {
      std::optional<std::string> t = any_value_type(item);
      if (!t) return std::nullopt;
      out.push_back(std::move(*t));
    }
    return out;
  };
  switch (type.kind) {
    case Type::Kind::Base:
      if (type.base == BaseType::NoneType) return "std::monostate";
      if (type.base == BaseType::Any) return "IValue";
      return value_type(type, /*is_return=*/true);
    case Type::Kind::Optional: {
      std::optional<std::string> elem = any_value_type(type.element());
      if (!elem) return std::nullopt;
      return fmt::format("std::optional<{}>", *elem);
    }
    case Type::Kind::List: {
      std::optional<std::string> elem = any_value_type(type.element());
      if (!elem) return std::nullopt;
      return fmt::format("std::vector<{}>", *elem);
    }
    case Type::Kind::Tuple:
    case Type::Kind::Union:
    case Type::Kind::Dict: {
      std::optional<std::vector<std::string>> parts = items();
      if (!parts) return std::nullopt;
      if (type.kind == Type::Kind::Tuple)
        return fmt::format("std::tuple<{}>", fmt::join(*parts, ", "));
      if (type.kind == Type::Kind::Union)
        return fmt::format("std::variant<{}>", fmt::join(*parts, ", "));
      return fmt::format("Dict<{}>", fmt::join(*parts, ", "));
    }
    case Type::Kind::Future:
    case Type::Kind::RRef:
    case Type::Kind::Await: {
      std::optional<std::vector<std::string>> parts = items();
      if (!parts) return std::nullopt;
      std::string_view wrapper = type.kind == Type::Kind::Future ? "Future"
                                 : type.kind == Type::Kind::RRef ? "RRef"
                                                                 : "Await";
      return fmt::format("{}<{}>", wrapper, fmt::join(*parts, ", "));
    }
  }
  return std::nullopt;
}

// The C++ type of a value the boxing layer converts (boxing.h): leaves, optionals, lists,
// tuples (std::tuple), dicts (Dict<K, V>) and None (std::monostate), nested. Unions, futures,
// RRefs, awaits and Any have none (see cpp_types.h).
std::optional<std::string> boxable_value_type(const Type& type) {
  std::vector<std::string> parts;
  auto add_part = [&parts](const Type& item) {
    std::optional<std::string> t = boxable_value_type(item);
    if (t) parts.push_back(std::move(*t));
    return t.has_value();
  };
  if (type.is_wrapper() && !add_part(type.element())) return std::nullopt;
  for (const Type& item : type.contained())
    if (!add_part(item)) return std::nullopt;
  switch (type.kind) {
    case Type::Kind::Base:
      if (type.base == BaseType::NoneType) return "std::monostate";
      return value_type(type, /*is_return=*/true);
    case Type::Kind::Optional: return fmt::format("std::optional<{}>", parts.at(0));
    case Type::Kind::List: return fmt::format("std::vector<{}>", parts.at(0));
    case Type::Kind::Tuple: return fmt::format("std::tuple<{}>", fmt::join(parts, ", "));
    case Type::Kind::Dict: return fmt::format("Dict<{}>", fmt::join(parts, ", "));
    default: return std::nullopt;
  }
}

bool is_container(const Type& type) {
  return type.kind == Type::Kind::Tuple || type.kind == Type::Kind::Dict;
}

bool is_int_leaf(const Type& type) {
  return type.is_base(BaseType::Int) || type.is_base(BaseType::SymInt);
}

// A list parameter: a read-only view (ArrayRef) of its elements. `str` and `Dimname` elements are
// viewed as std::string_view, as single `str` parameters are.
std::optional<std::string> list_view_type(const Type& list) {
  const Type& elem = list.element();
  if (is_int_leaf(elem)) return "IntArrayRef";
  if (elem.is_base(BaseType::Tensor)) return "TensorList";
  if (elem.is_optional() && elem.element().is_base(BaseType::Tensor)) {
    return "ArrayRef<std::optional<Tensor>>";
  }
  std::optional<std::string> value =
      is_container(elem) ? boxable_value_type(elem) : value_type(elem, /*is_return=*/false);
  if (!value) return std::nullopt;
  return fmt::format("ArrayRef<{}>", *value);
}

std::optional<std::string> argument_type(const Type& type, bool const_ref_for_mutable) {
  switch (type.kind) {
    case Type::Kind::Base: {
      if (type.base == BaseType::NoneType) return "std::monostate";
      if (type.base == BaseType::Tensor) {
        return type.is_mutable() && !const_ref_for_mutable ? "Tensor&" : "const Tensor&";
      }
      std::optional<std::string> value = value_type(type, false);
      if (!value) return std::nullopt;
      if (*value == "Scalar" || *value == "Generator") return "const " + *value + "&";
      return value;
    }
    case Type::Kind::List: return list_view_type(type);
    case Type::Kind::Tuple:
    case Type::Kind::Dict: {  // owned values, by const reference
      std::optional<std::string> value = boxable_value_type(type);
      if (!value) return std::nullopt;
      return fmt::format("const {}&", *value);
    }
    case Type::Kind::Optional: {
      const Type& elem = type.element();
      if (is_container(elem)) {
        std::optional<std::string> value = boxable_value_type(type);
        if (!value) return std::nullopt;
        return fmt::format("const {}&", *value);
      }
      if (elem.is_list()) {
        std::optional<std::string> view = list_view_type(elem);
        if (!view) return std::nullopt;
        return fmt::format("std::optional<{}>", *view);
      }
      std::optional<std::string> value = value_type(elem, false);
      if (!value) return std::nullopt;
      if (*value == "Tensor" || *value == "Scalar" || *value == "Generator") {
        return fmt::format("const std::optional<{}>&", *value);
      }
      return fmt::format("std::optional<{}>", *value);
    }
    default:  // unions, futures, RRefs, awaits: boxed-only (no C++ type with a boxing conversion)
      return std::nullopt;
  }
}

std::optional<std::string> single_return_type(const Type& type, bool const_ref_for_mutable) {
  if (type.is_base(BaseType::Tensor) && type.is_mutable()) {
    return const_ref_for_mutable ? "const Tensor&" : "Tensor&";
  }
  // Containers, None and anything holding one: owned values.
  if (is_container(type) || type.is_base(BaseType::NoneType) ||
      ((type.is_list() || type.is_optional()) && is_container(type.element()))) {
    return boxable_value_type(type);
  }
  if (type.is_list()) {
    std::optional<std::string> elem = value_type(type.element(), true);
    if (!elem) return std::nullopt;
    return fmt::format("std::vector<{}>", *elem);
  }
  if (type.is_optional()) {
    std::optional<std::string> elem = value_type(type.element(), true);
    if (!elem) return std::nullopt;
    return fmt::format("std::optional<{}>", *elem);
  }
  return value_type(type, true);
}

std::optional<std::string> return_type(const schema::FunctionSchema& schema,
                                       bool const_ref_for_mutable) {
  if (schema.is_varret) return std::nullopt;
  if (schema.returns.empty()) return "void";
  std::vector<std::string> types;
  for (const schema::Argument& r : schema.returns) {
    std::optional<std::string> t = single_return_type(r.type, const_ref_for_mutable);
    if (!t) return std::nullopt;
    types.push_back(*t);
  }
  if (types.size() == 1) {
    // A lone tuple-typed return would read as several returns (a std::tuple result pushes one
    // value per element): boxed-only.
    if (schema.returns.front().type.kind == Type::Kind::Tuple) return std::nullopt;
    return types.front();
  }
  return fmt::format("std::tuple<{}>", fmt::join(types, ", "));
}

bool is_number(std::string_view text) {
  if (text.empty()) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  });
}

std::string string_literal(std::string_view quoted) {
  std::string body(quoted.substr(1, quoted.size() >= 2 ? quoted.size() - 2 : 0));
  std::string out = "\"";
  for (char c : body) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A default value as a C++ expression for a parameter of schema type `type`, when there is a
// faithful one.
std::optional<std::string> cpp_default(const Type& type, const DefaultValue& value) {
  const Type& inner = type.is_optional() ? type.element() : type;
  const std::string text(value.text);
  switch (value.kind) {
    case DefaultValue::Kind::None:
      return type.is_optional() ? std::optional<std::string>("std::nullopt") : std::nullopt;
    case DefaultValue::Kind::Bool:
      if (inner.is_base(BaseType::Bool) || inner.is_base(BaseType::SymBool)) {
        return value.text == "True" ? "true" : "false";
      }
      return std::nullopt;
    case DefaultValue::Kind::Int:
      if (is_int_leaf(inner) || inner.is_base(BaseType::DeviceIndex)) return text;
      if (inner.is_base(BaseType::Float) || inner.is_base(BaseType::SymFloat)) return text + ".0";
      if (inner.is_base(BaseType::Scalar)) return text;
      return std::nullopt;
    case DefaultValue::Kind::Float:
      if (!is_number(value.text)) return std::nullopt;
      if (inner.is_base(BaseType::Float) || inner.is_base(BaseType::SymFloat) ||
          inner.is_base(BaseType::Scalar)) {
        return text.find_first_of(".eE") == std::string::npos ? text + ".0" : text;
      }
      return std::nullopt;
    case DefaultValue::Kind::String:
      if (inner.is_base(BaseType::Str)) return string_literal(value.text);
      return std::nullopt;
    case DefaultValue::Kind::List: {
      if (!inner.is_list() || !is_int_leaf(inner.element())) return std::nullopt;
      std::vector<std::string_view> items;
      for (const DefaultValue& item : value.items) {
        if (item.kind != DefaultValue::Kind::Int) return std::nullopt;
        items.push_back(item.text);
      }
      if (type.is_optional()) return std::nullopt;
      return fmt::format("IntArrayRef({{{}}})", fmt::join(items, ", "));
    }
    case DefaultValue::Kind::Identifier:
      if (inner.is_base(BaseType::MemoryFormat)) {
        if (value.text == "contiguous_format") return "MemoryFormat::Contiguous";
        if (value.text == "preserve_format") return "MemoryFormat::Preserve";
        if (value.text == "channels_last") return "MemoryFormat::ChannelsLast";
      }
      if (inner.is_base(BaseType::Layout) && value.text == "strided") return "Layout::Strided";
      if (inner.is_base(BaseType::ScalarType)) {
        if (value.text == "long") return "ScalarType::Long";
        if (value.text == "float") return "ScalarType::Float";
      }
      if (is_int_leaf(inner)) {
        if (value.text == "Mean") return "1";
        if (value.text == "Sum") return "2";
      }
      return std::nullopt;
    case DefaultValue::Kind::Complex: return std::nullopt;
  }
  return std::nullopt;
}

constexpr std::array<std::string_view, 60> kCppKeywords = {
    "alignas",   "alignof",  "and",     "and_eq", "asm",     "auto",      "bitand", "bitor",
    "bool",      "break",    "case",    "catch",  "char",    "class",     "compl",  "const",
    "constexpr", "continue", "default", "delete", "do",      "double",    "else",   "enum",
    "explicit",  "export",   "extern",  "false",  "float",   "for",       "friend", "goto",
    "if",        "inline",   "int",     "long",   "mutable", "namespace", "new",    "not",
    "not_eq",    "operator", "or",      "or_eq",  "private", "protected", "public", "register",
    "return",    "short",    "signed",  "sizeof", "static",  "struct",    "switch", "template",
    "this",      "throw",    "union",   "xor"};

}  // namespace

std::optional<std::string> cpp_value_type(const Type& type) { return any_value_type(type); }

std::string cpp_identifier(std::string_view name) {
  std::string id(name);
  if (std::find(kCppKeywords.begin(), kCppKeywords.end(), name) != kCppKeywords.end() ||
      name == "true" || name == "try" || name == "typedef" || name == "typename" ||
      name == "using" || name == "virtual" || name == "void" || name == "while" ||
      name == "unsigned" || name == "requires" || name == "concept") {
    id += '_';
  }
  return id;
}

bool has_unboxed_signature(const schema::FunctionSchema& schema) {
  return boxed_only_reason(schema).empty();
}

std::string boxed_only_reason(const schema::FunctionSchema& schema) {
  if (schema.is_vararg || schema.is_varret) return "varargs";
  for (const schema::Argument& a : schema.arguments) {
    if (!argument_type(a.type, false)) {
      return fmt::format("'{}' has no C++ type", schema::print_type(a.type));
    }
  }
  if (return_type(schema, false)) return "";
  if (schema.returns.size() == 1 && schema.returns.front().type.kind == Type::Kind::Tuple) {
    return "a lone tuple return";
  }
  for (const schema::Argument& r : schema.returns) {
    if (!single_return_type(r.type, false)) {
      return fmt::format("'{}' has no C++ type", schema::print_type(r.type));
    }
  }
  return "no C++ signature";
}

void make_parameter_names_unique(std::vector<CppParam>& params) {
  for (size_t i = 1; i < params.size(); ++i) {
    auto taken = [&](const std::string& name) {
      for (size_t j = 0; j < params.size(); ++j) {
        if (j != i && params[j].name == name) return true;
      }
      return false;
    };
    bool repeated = false;
    for (size_t j = 0; j < i; ++j) repeated = repeated || params[j].name == params[i].name;
    if (!repeated) continue;
    std::string name = fmt::format("{}_{}", params[i].name, i);
    while (taken(name)) name += '_';
    params[i].name = std::move(name);
  }
}

CppSignature native_signature(const schema::FunctionSchema& schema,
                              bool const_ref_for_mutable_tensors) {
  CppSignature sig;
  sig.return_type = return_type(schema, const_ref_for_mutable_tensors).value_or("void");
  for (const schema::Argument& a : schema.arguments) {
    CppParam param;
    param.type = argument_type(a.type, const_ref_for_mutable_tensors).value_or("IValue");
    param.name = cpp_identifier(a.name);
    sig.params.push_back(std::move(param));
  }
  make_parameter_names_unique(sig.params);
  // C++ defaults must be trailing: stop at the last argument without a faithful one.
  for (size_t i = schema.arguments.size(); i-- > 0;) {
    const schema::Argument& a = schema.arguments[i];
    if (!a.default_value) break;
    std::optional<std::string> value = cpp_default(a.type, *a.default_value);
    if (!value) break;
    sig.params[i].default_value = *value;
  }
  return sig;
}

std::string CppSignature::param_types() const {
  std::string out;
  for (const CppParam& p : params) {
    if (!out.empty()) out += ", ";
    out += p.type;
  }
  return out;
}

std::string CppSignature::function_type() const {
  return fmt::format("{}({})", return_type, param_types());
}

std::string CppSignature::param_list(bool with_defaults) const {
  std::string out;
  for (const CppParam& p : params) {
    if (!out.empty()) out += ", ";
    out += p.type;
    out += ' ';
    out += p.name;
    if (with_defaults && !p.default_value.empty()) {
      out += " = ";
      out += p.default_value;
    }
  }
  return out;
}

std::string CppSignature::arg_names() const {
  std::string out;
  for (const CppParam& p : params) {
    if (!out.empty()) out += ", ";
    out += p.name;
  }
  return out;
}

}  // namespace schemac::kernel_types
