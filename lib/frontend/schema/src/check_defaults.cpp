// The checks of a default value. PyTorch's parser reads a default by the kind of the argument's
// type (SchemaParser::parseDefaultValue and parseSingleConstant in
// torch/csrc/jit/frontend/function_schema_parser.cpp): what it cannot read is the error
// `default-unreadable` here; what it reads but does not fit the type (`int x=True`, `int x=None`,
// `int[2] x=[1,2,3]`) is a warning (`default-type`, `default-none`, `default-length`).
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "check_problems.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/printer.h"
#include "schemac/torch_releases/dtype_names.h"

namespace schemac::schema {
namespace {

using Kind = DefaultValue::Kind;

// clang-format off
// What parseSingleConstant takes as a name for any type; for a ScalarType it takes the dtype
// names besides (torch_releases::dtype_names).
constexpr std::string_view kConstantNames[] = {
    "float", "complex", "long", "strided", "Mean", "contiguous_format"};
// The device types c10::Device parses from a string.
constexpr std::string_view kDeviceTypes[] = {
    "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
    "ort", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone"};
// clang-format on

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The kind PyTorch reads a value by: the "fake" type, where ScalarType, Layout, MemoryFormat and
// SymInt are int.
enum class ValueKind { Int, Float, Complex, Bool, Str, Number, Optional, Other };

// clang-format off
ValueKind value_kind(const Type& type) {
  if (type.is_optional()) return ValueKind::Optional;
  if (type.kind != Type::Kind::Base) return ValueKind::Other;
  switch (type.base) {
    case BaseType::Int: case BaseType::SymInt: case BaseType::ScalarType: case BaseType::Layout:
    case BaseType::MemoryFormat: case BaseType::DeviceIndex: case BaseType::ConstQuantizerPtr:
      return ValueKind::Int;
    case BaseType::Float: return ValueKind::Float;
    case BaseType::Complex: return ValueKind::Complex;
    case BaseType::Bool: return ValueKind::Bool;
    case BaseType::Str: case BaseType::Dimname: return ValueKind::Str;
    case BaseType::Scalar: return ValueKind::Number;
    default: return ValueKind::Other;
  }
}
// clang-format on

// ScalarType, or an optional of it (isPossiblyOptionalScalarType): dtype names are values too.
bool is_possibly_optional_scalar_type(const Type& type) {
  const Type* node = &type;
  while (node->is_optional()) node = &node->element();
  return node->is_base(BaseType::ScalarType);
}

// What one value reads as (the IValue parseSingleConstant makes), or Error with a message.
enum class Read { Bool, None, String, Int, Double, Complex, Error };

struct Reading {
  Read read = Read::Error;
  std::string error;
  bool hex_as_int = false;  // a hexadecimal number read as a decimal integer (so its first '0')
};

// The escapes PyTorch's parseStringLiteral takes: \\ \' \" \<newline> \a \b \f \n \v \t and three
// octal digits.
std::string string_escape_error(std::string_view literal) {
  size_t quote =
      literal.size() >= 6 && literal[1] == literal[0] && literal[2] == literal[0] ? 3 : 1;
  std::string_view body = literal.substr(quote, literal.size() - 2 * quote);
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 >= body.size()) continue;
    char c = body[i + 1];
    if (std::string_view("\\'\"\nabfnvt").find(c) != std::string_view::npos) {
      ++i;
      continue;
    }
    if (c == 'x') return "hexadecimal escapes (\\x) are not supported in schema strings";
    if (c == 'u' || c == 'U') return "unicode escapes (\\u) are not supported in schema strings";
    bool octal = i + 3 < body.size();
    int code = 0;
    for (size_t k = 1; octal && k <= 3; ++k) {
      char d = body[i + k];
      octal = d >= '0' && d <= '7';
      code = code * 8 + (d - '0');
    }
    if (!octal || code >= 256) {
      return fmt::format(
          "escape '\\{}' is not supported: PyTorch takes \\\\ \\' \\\" \\a \\b "
          "\\f \\n \\v \\t and three octal digits",
          c);
    }
    i += 3;
  }
  return {};
}

// Whether strtod could find `text` out of range: a long mantissa or a three-digit exponent.
bool may_overflow(std::string_view text) {
  if (text.size() > 300) return true;
  size_t exponent =
      text.find_first_of(text.find_first_of("xX") == std::string_view::npos ? "eE" : "pP");
  if (exponent == std::string_view::npos) return false;
  size_t digits = 0;
  for (char c : text.substr(exponent + 1)) digits += c >= '0' && c <= '9';
  return digits >= 3;
}

Reading read_number(std::string_view text, ValueKind kind) {
  Reading r;
  const bool is_complex = text.back() == 'j';
  if (kind == ValueKind::Complex || is_complex) {
    // PyTorch drops the last character as the `j` even when there is none: `1` reads as "".
    std::string_view imaginary = text.substr(0, text.size() - 1);
    if (imaginary.find_first_of("0123456789") == std::string_view::npos) {
      r.error = fmt::format("PyTorch cannot read {} as a complex number (write '{}.')", text, text);
      return r;
    }
    if (may_overflow(text)) {
      std::string digits(text.substr(0, is_complex ? text.size() - 1 : text.size()));
      errno = 0;
      std::strtod(digits.c_str(), nullptr);
      if (errno == ERANGE) r.error = fmt::format("number {} is out of range", text);
    }
    r.read = r.error.empty() ? Read::Complex : Read::Error;
    return r;
  }
  if (kind == ValueKind::Float || text.find_first_of(".e") != std::string_view::npos) {
    if (may_overflow(text)) {
      std::string digits(text);
      errno = 0;
      std::strtod(digits.c_str(), nullptr);
      if (errno == ERANGE) r.error = fmt::format("number {} is out of range of a float", text);
    }
    r.read = r.error.empty() ? Read::Double : Read::Error;
    return r;
  }
  // std::stoll: the longest decimal prefix ("0x2F" reads 0, "1E5" reads 1), which must fit.
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    r.error = fmt::format("integer {} does not fit in 64 bits", text);
    return r;
  }
  r.read = Read::Int;
  r.hex_as_int = text.find_first_of("xX") != std::string_view::npos;
  return r;
}

// parseSingleConstant: how PyTorch reads one value for a type of kind `kind`.
Reading read_single(const DefaultValue& value, ValueKind kind, bool scalar_type) {
  Reading r;
  switch (value.kind) {
    case Kind::Bool: r.read = Read::Bool; return r;
    case Kind::None: r.read = Read::None; return r;
    case Kind::String:
      r.error = string_escape_error(value.text);
      r.read = r.error.empty() ? Read::String : Read::Error;
      return r;
    case Kind::Identifier:
      if (contains(kConstantNames, value.text) ||
          (scalar_type && contains(torch_releases::dtype_names(), value.text))) {
        r.read = Read::Int;
      } else {
        r.error = fmt::format("'{}' is not a value PyTorch reads as a default{}", value.text,
                              scalar_type ? " (not a dtype name)" : "");
      }
      return r;
    case Kind::List: r.error = "a list default is only read for a list type"; return r;
    case Kind::Int:
    case Kind::Float:
    case Kind::Complex: return read_number(value.text, kind);
  }
  return r;
}

// convertToList: the elements of a list default must be of the element's kind.
bool converts_to(Read read, ValueKind element) {
  switch (element) {
    case ValueKind::Int: return read == Read::Int;
    case ValueKind::Float: return read == Read::Double;
    case ValueKind::Complex: return read == Read::Complex;
    case ValueKind::Bool: return read == Read::Bool;
    default: return false;
  }
}

// Whether a value PyTorch read fits the type it was read for (the type under any `?`).
// clang-format off
bool fits(const Type& type, const DefaultValue& value, Read read) {
  if (type.kind != Type::Kind::Base) return false;
  const bool number = read == Read::Int || read == Read::Double;
  switch (type.base) {
    case BaseType::Int: case BaseType::SymInt: case BaseType::DeviceIndex:
      return read == Read::Int && (value.kind == Kind::Int || value.text == "Mean");
    case BaseType::ScalarType: case BaseType::Layout: case BaseType::MemoryFormat:
      return read == Read::Int;
    case BaseType::Float: case BaseType::SymFloat: return number;
    case BaseType::Complex: return number || read == Read::Complex;
    case BaseType::Scalar: return number || read == Read::Complex || read == Read::Bool;
    case BaseType::Bool: case BaseType::SymBool: return read == Read::Bool;
    case BaseType::Str: case BaseType::Dimname: case BaseType::Device:
      return read == Read::String;
    case BaseType::Any: case BaseType::Named: return true;
    default: return false;  // Tensor, Generator, ...: only None
  }
}
// clang-format on

// c10::Device's string form: a device type, then maybe ':' and an index.
bool is_device_string(std::string_view literal) {
  std::string_view text = literal.substr(1, literal.size() - 2);
  std::string_view type = text.substr(0, text.find(':'));
  if (!contains(kDeviceTypes, type)) return false;
  if (type.size() == text.size()) return true;
  std::string_view index = text.substr(type.size() + 1);
  return !index.empty() &&
         std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
         (index.size() == 1 || index[0] != '0');
}

void warn_hex(const Argument& argument, const DefaultValue& value, const Reading& r,
              Problems& problems) {
  if (!r.hex_as_int) return;
  add_problem(problems, value.range, rules::default_hex,
              fmt::format("default {} of argument '{}' is hexadecimal: PyTorch reads it as a "
                          "decimal integer, that is as its leading digits",
                          value.text, argument.name));
}

// A list type's default: a bracketed list of values of the element's kind, or for `T[N]` one value.
void check_list_default(const Argument& argument, const Type& list, Problems& problems) {
  const DefaultValue& value = *argument.default_value;
  const Type& element = list.element();
  const ValueKind kind = value_kind(element);
  const bool scalar_type = is_possibly_optional_scalar_type(element);
  if (kind != ValueKind::Int && kind != ValueKind::Float && kind != ValueKind::Complex &&
      kind != ValueKind::Bool) {
    add_problem(problems, value.range, rules::default_unreadable,
                fmt::format("PyTorch reads list defaults only for int, float, bool and complex "
                            "lists, not '{}'",
                            print_type(argument.type)));
    return;
  }
  auto check_item = [&](const DefaultValue& item) {
    Reading r = read_single(item, kind, scalar_type);
    if (r.read == Read::Error) {
      add_problem(problems, item.range, rules::default_unreadable, std::move(r.error));
      return false;
    }
    if (!converts_to(r.read, kind)) {
      add_problem(problems, item.range, rules::default_unreadable,
                  fmt::format("default {} of argument '{}' does not fit its element type '{}'",
                              item.text, argument.name, print_type(element)));
      return false;
    }
    warn_hex(argument, item, r, problems);
    return true;
  };
  if (value.kind != Kind::List) {
    if (!list.fixed_size || value.kind == Kind::Identifier) {
      add_problem(problems, value.range, rules::default_unreadable,
                  fmt::format("default {} of argument '{}' needs brackets: only a fixed-size list "
                              "(such as 'int[2]') takes a single value",
                              value.text, argument.name));
      return;
    }
    check_item(value);  // PyTorch repeats it N times
    return;
  }
  for (const DefaultValue& item : value.items) {
    if (!check_item(item)) return;
  }
  // `[]` stands for "the default" whatever the size, and `[1]` only says that a single value may
  // stand for the list (PyTorch's corpus has `int[1] dim=[-2,-1]`): neither fixes a length.
  if (list.fixed_size && *list.fixed_size != 1 && !value.items.empty() &&
      value.items.size() != static_cast<size_t>(*list.fixed_size)) {
    add_problem(problems, value.range, rules::default_length,
                fmt::format("default {} of argument '{}' has {} element{}, but its type '{}' "
                            "has {}",
                            value.text, argument.name, value.items.size(),
                            value.items.size() == 1 ? "" : "s", print_type(argument.type),
                            *list.fixed_size));
  }
}

void check_single_default(const Argument& argument, Problems& problems) {
  const DefaultValue& value = *argument.default_value;
  const Type& type = argument.type;
  Reading r = read_single(value, value_kind(type), is_possibly_optional_scalar_type(type));
  if (r.read == Read::Error) {
    add_problem(problems, value.range, rules::default_unreadable, std::move(r.error));
    return;
  }
  warn_hex(argument, value, r, problems);
  if (r.read == Read::None) {
    if (!type.is_optional()) {
      add_problem(problems, value.range, rules::default_none,
                  fmt::format("default None of argument '{}' needs an optional type, not '{}' "
                              "(write '{}?')",
                              argument.name, print_type(type), print_type(type)));
    }
    return;
  }
  const Type* inner = &type;
  while (inner->is_optional()) inner = &inner->element();
  if (!fits(*inner, value, r.read)) {
    add_problem(problems, value.range, rules::default_type,
                fmt::format("default {} of argument '{}' does not fit its type '{}'", value.text,
                            argument.name, print_type(type)));
  }
}

}  // namespace

void check_default(const Argument& argument, Problems& problems) {
  const DefaultValue& value = *argument.default_value;
  const Type& type = argument.type;
  if (type.is_list()) {
    check_list_default(argument, type, problems);
    return;
  }
  if (type.is_optional() || value_kind(type) != ValueKind::Other) {
    check_single_default(argument, problems);
    return;
  }
  const bool tensor_like = type.is_base(BaseType::Tensor) || type.is_base(BaseType::Generator) ||
                           type.is_base(BaseType::Quantizer);
  if (tensor_like) {
    if (value.kind != Kind::None) {
      add_problem(problems, value.range, rules::default_unreadable,
                  fmt::format("default {} of argument '{}': a '{}' default can only be None",
                              value.text, argument.name, print_type(type)));
    } else {
      add_problem(problems, value.range, rules::default_none,
                  fmt::format("default None of argument '{}' needs an optional type, not '{}' "
                              "(write '{}?')",
                              argument.name, print_type(type), print_type(type)));
    }
    return;
  }
  if (type.is_base(BaseType::Device)) {
    if (value.kind != Kind::String || !string_escape_error(value.text).empty() ||
        !is_device_string(value.text)) {
      add_problem(problems, value.range, rules::default_unreadable,
                  fmt::format("default {} of argument '{}' is not a device string such as "
                              "'cpu' or 'cuda:0'",
                              value.text, argument.name));
    }
    return;
  }
  add_problem(problems, value.range, rules::default_unreadable,
              fmt::format("argument '{}' of type '{}' cannot have a default: PyTorch reads "
                          "defaults only for tensors, numbers, bools, strings, devices, lists of "
                          "numbers and optional types",
                          argument.name, print_type(type)));
}

}  // namespace schemac::schema
