// Semantic checks of one schema (check.h). Each check is one function below, adding errors with
// their own rule id; check_schema runs them all, in one pass over the arguments and one over the
// returns, and returns the errors in text order.
#include "schemac/schema/check.h"
#include "schemac/support/did_you_mean.h"

#include <algorithm>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "base_type_names.h"
#include "schemac/schema/printer.h"

namespace schemac::schema {
namespace {

using Errors = std::vector<SchemaError>;

void add(Errors& errors, TextRange range, std::string_view rule, std::string message) {
  uint32_t length = range.end > range.begin ? range.end - range.begin : 1;
  errors.push_back(SchemaError{std::move(message), range.begin, length, std::string(rule)});
}

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// ---- names ----------------------------------------------------------------------------------

void check_overload_name(const FunctionSchema& schema, Errors& errors) {
  // PyTorch's Python binding uses these two as attributes of an operator's overload packet.
  std::string_view overload = schema.op.overload;
  if (overload == "default" || overload == "__name__") {
    add(errors, schema.op.range, "reserved-overload-name",
        fmt::format("overload name '{}' is reserved", overload));
  }
}

// Whether entries[i] repeats an earlier name. `sketch` (one bit per length and first letter of the
// names seen so far) sends only the names that might repeat one to the pairwise comparison.
void check_duplicate_name(std::span<const Argument> entries, size_t i, uint64_t& sketch,
                          std::string_view what, std::string_view rule, Errors& errors) {
  std::string_view name = entries[i].name;
  if (name.empty()) return;
  const uint64_t bit = uint64_t{1}
                       << ((name.size() * 7 + static_cast<unsigned char>(name[0])) & 63);
  const bool maybe_seen = (sketch & bit) != 0;
  sketch |= bit;
  if (!maybe_seen) return;
  for (size_t j = 0; j < i; ++j) {
    if (entries[j].name == name) {
      add(errors, entries[i].name_range, rule,
          fmt::format("{} name '{}' is used twice", what, name));
      return;
    }
  }
}

// ---- types ----------------------------------------------------------------------------------

// A name that is not a known type: lower-case names are type variables (`t`), dotted names are
// custom classes (`__torch__.torch.classes.ns.Foo`); anything else is a typo or unknown.
void check_type_name(const Type& leaf, Errors& errors) {
  if (leaf.base != BaseType::Named) return;
  std::string_view name = leaf.name;
  bool is_type_variable = name[0] >= 'a' && name[0] <= 'z';
  bool is_custom_class = name.find('.') != std::string_view::npos;
  if (is_type_variable || is_custom_class) return;
  std::vector<std::string_view> known;
  for (const BaseTypeName& type : kBaseTypeNames) known.push_back(type.name);
  const std::vector<std::string> best = closest_names(name, known, 2);
  std::string hint = best.empty() ? "" : fmt::format("; did you mean '{}'?", best.front());
  add(errors, leaf.range, "unknown-type", fmt::format("unknown type '{}'{}", name, hint));
}

// `[N]` is only allowed on the outermost list, as PyTorch reads it at the argument level.
void check_fixed_size_position(const Type& type, Errors& errors) {
  const Type* node = &type;
  if (node->is_optional()) node = &node->element();
  if (node->is_list()) node = &node->element();  // an outermost `[N]` is fine
  for (; node->kind != Type::Kind::Base; node = &node->element()) {
    if (node->is_list() && node->fixed_size) {
      add(errors, type.range, "fixed-size-list-position",
          fmt::format("a fixed-size list can only be the outermost type (followed at most by "
                      "'?'), not inside '{}'",
                      print_type(type)));
      return;
    }
  }
}

// Alias annotations mean "this value may share memory": they make no sense on plain values.
bool is_value_type(BaseType base) {
  switch (base) {
    case BaseType::Int: case BaseType::Float: case BaseType::Bool: case BaseType::Str:
    case BaseType::Scalar: case BaseType::ScalarType: case BaseType::Layout:
    case BaseType::Device: case BaseType::DeviceIndex: case BaseType::MemoryFormat:
    case BaseType::Dimname: case BaseType::Complex: case BaseType::SymInt:
    case BaseType::SymFloat: case BaseType::SymBool: case BaseType::QScheme:
      return true;
    default:
      return false;
  }
}

void check_alias_placement(const Type& type, Errors& errors) {
  for (const Type* node = &type;; node = &node->element()) {
    if (node->alias && node->kind == Type::Kind::Base && is_value_type(node->base)) {
      add(errors, node->alias->range, "alias-on-value",
          fmt::format("alias annotation {} on '{}' makes no sense: only tensors, lists and "
                      "objects can share memory",
                      print_alias(*node->alias), node->name));
    }
    if (node->kind == Type::Kind::Base) return;
  }
}

void check_type(const Type& type, Errors& errors) {
  // Most types are a known leaf without an annotation, which none of the checks concern.
  if (type.kind == Type::Kind::Base && !type.alias && type.base != BaseType::Named) return;
  check_type_name(type.leaf(), errors);
  check_fixed_size_position(type, errors);
  check_alias_placement(type, errors);
}

// ---- alias sets across arguments and returns ---------------------------------------------------

// Every alias set a return names must come from an argument, and a return written to (`!`) must
// alias an argument that is written to.
void check_return_aliases(const FunctionSchema& schema, Errors& errors) {
  auto find_set = [&](std::string_view set, bool* written) {
    bool found = false;
    for (const Argument& argument : schema.arguments) {
      const AliasInfo* alias = argument.type.any_alias();
      if (!alias) continue;
      bool in_before = std::find(alias->before.begin(), alias->before.end(), set) !=
                       alias->before.end();
      bool in_after =
          std::find(alias->after.begin(), alias->after.end(), set) != alias->after.end();
      if (in_before || in_after) {
        found = true;
        *written = *written || alias->is_write;
      }
    }
    return found;
  };
  for (const Argument& ret : schema.returns) {
    const AliasInfo* alias = ret.type.any_alias();
    if (!alias) continue;
    for (std::string_view set : alias->before) {
      if (set == "*") continue;
      bool written = false;
      if (!find_set(set, &written)) {
        add(errors, alias->range, "alias-unknown-set",
            fmt::format("return '{}' aliases set '{}', but no argument is in that set",
                        print_argument(ret), set));
      } else if (alias->is_write && !written) {
        add(errors, alias->range, "alias-write-mismatch",
            fmt::format("return '{}' writes alias set '{}', but no argument in that set is "
                        "written to (annotate it '({}!)')",
                        print_argument(ret), set, set));
      }
    }
  }
}

// ---- defaults -------------------------------------------------------------------------------

// clang-format off
constexpr std::string_view kScalarTypeNames[] = {
    "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex32",
    "complex64", "complex128", "bool", "qint8", "quint8", "qint32", "bfloat16", "quint4x2",
    "quint2x4", "byte", "char", "short", "int", "long", "half", "float", "double", "cfloat",
    "cdouble", "chalf", "complex", "uint16", "uint32", "uint64", "float8_e5m2",
    "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz", "bits8", "bits16"};
constexpr std::string_view kLayoutNames[] = {
    "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "_mkldnn",
    "jagged"};
constexpr std::string_view kMemoryFormatNames[] = {
    "contiguous_format", "preserve_format", "channels_last", "channels_last_3d"};
constexpr std::string_view kQSchemeNames[] = {
    "per_tensor_affine", "per_channel_affine", "per_tensor_symmetric", "per_channel_symmetric",
    "per_channel_affine_float_qparams"};
constexpr std::string_view kReductionNames[] = {"Mean", "Sum"};
// clang-format on

using Kind = DefaultValue::Kind;

// What a default for a leaf type may be; empty `expected` means anything goes.
struct LeafRule {
  bool allows_int = false, allows_float = false, allows_bool = false, allows_string = false;
  std::span<const std::string_view> identifiers;
  std::string_view expected;
};

LeafRule leaf_rule(const Type& leaf) {
  switch (leaf.base) {
    case BaseType::Int: case BaseType::SymInt: case BaseType::DeviceIndex:
      return {true, false, false, false, kReductionNames, "an integer"};
    case BaseType::Float: case BaseType::SymFloat: case BaseType::Complex:
      return {true, true, false, false, {}, "a number"};
    case BaseType::Bool: case BaseType::SymBool:
      return {false, false, true, false, {}, "True or False"};
    case BaseType::Str: case BaseType::Device: case BaseType::Dimname:
      return {false, false, false, true, {}, "a string"};
    case BaseType::Scalar:
      return {true, true, true, false, {}, "a number or True/False"};
    case BaseType::ScalarType:
      return {false, false, false, false, kScalarTypeNames, "a dtype name such as 'long'"};
    case BaseType::Layout:
      return {false, false, false, false, kLayoutNames, "a layout name such as 'strided'"};
    case BaseType::MemoryFormat:
      return {false, false, false, false, kMemoryFormatNames,
              "a memory format name such as 'contiguous_format'"};
    case BaseType::QScheme:
      return {false, false, false, false, kQSchemeNames,
              "a quantization scheme name such as 'per_tensor_affine'"};
    case BaseType::Any: case BaseType::Named:
      return {true, true, true, true, {}, ""};
    default:  // Tensor, Generator, Storage, Stream, ...: only None, and only when optional
      return {false, false, false, false, {}, "None (with an optional type)"};
  }
}

bool fits_leaf(const Type& leaf, const DefaultValue& value) {
  LeafRule rule = leaf_rule(leaf);
  if (rule.expected.empty()) return true;
  switch (value.kind) {
    case Kind::Int: return rule.allows_int || rule.allows_float;
    case Kind::Float: return rule.allows_float;
    case Kind::Bool: return rule.allows_bool;
    case Kind::String: return rule.allows_string;
    case Kind::Identifier: return contains(rule.identifiers, value.text);
    case Kind::None: case Kind::List: return false;
  }
  return false;
}

void check_default(const Argument& argument, Errors& errors) {
  const DefaultValue& value = *argument.default_value;
  const Type* type = &argument.type;
  auto type_text = [&] { return print_type(argument.type); };  // for messages only
  if (value.kind == Kind::None) {
    if (!type->is_optional() && type->leaf().base != BaseType::Any &&
        type->leaf().base != BaseType::Named) {
      add(errors, value.range, "default-none",
          fmt::format("default None of argument '{}' needs an optional type, not '{}' "
                      "(write '{}?')",
                      argument.name, type_text(), type_text()));
    }
    return;
  }
  if (type->is_optional()) type = &type->element();
  auto mismatch = [&](const DefaultValue& bad, const Type& leaf) {
    std::string_view expected = leaf_rule(leaf).expected;
    add(errors, bad.range, "default-type",
        fmt::format("default {} of argument '{}' does not fit its type '{}': expected {}",
                    bad.text, argument.name, type_text(), expected));
  };
  if (!type->is_list()) {
    if (value.kind == Kind::List) {
      add(errors, value.range, "default-type",
          fmt::format("default {} of argument '{}' is a list, but its type '{}' is not",
                      value.text, argument.name, type_text()));
    } else if (type->kind == Type::Kind::Base && !fits_leaf(*type, value)) {
      mismatch(value, *type);
    }
    return;
  }
  const Type& element = type->element();
  const Type& element_leaf = element.is_optional() ? element.element() : element;
  if (value.kind != Kind::List) {
    // PyTorch repeats a single value N times for a fixed-size list: `int[2] stride=1`.
    if (!type->fixed_size) {
      add(errors, value.range, "default-type",
          fmt::format("default {} of argument '{}' needs brackets: only a fixed-size list "
                      "(such as 'int[2]') takes a single value",
                      value.text, argument.name));
    } else if (element_leaf.kind == Type::Kind::Base && !fits_leaf(element_leaf, value)) {
      mismatch(value, element_leaf);
    }
    return;
  }
  // `[]` stands for "the default" whatever the size, and `[1]` only says that a single value may
  // stand for the list (PyTorch's corpus has `int[1] dim=[-2,-1]`): neither fixes a length.
  if (type->fixed_size && *type->fixed_size != 1 && !value.items.empty() &&
      value.items.size() != static_cast<size_t>(*type->fixed_size)) {
    add(errors, value.range, "default-length",
        fmt::format("default {} of argument '{}' has {} element{}, but its type '{}' has {}",
                    value.text, argument.name, value.items.size(),
                    value.items.size() == 1 ? "" : "s", type_text(), *type->fixed_size));
  }
  for (const DefaultValue& item : value.items) {
    if (item.kind == Kind::None && element.is_optional()) continue;
    if (element_leaf.kind == Type::Kind::Base && !fits_leaf(element_leaf, item)) {
      mismatch(item, element_leaf);
      return;
    }
  }
}

// The defaults of one argument: its own (check_default), none with '...', and none missing after
// a positional argument that has one. `last_with_default` carries that argument along.
void check_defaults(const FunctionSchema& schema, const Argument& argument,
                    const Argument*& last_with_default, Errors& errors) {
  if (argument.default_value) {
    check_default(argument, errors);
    if (schema.is_vararg) {
      add(errors, argument.default_value->range, "vararg-default",
          fmt::format("argument '{}' has a default, but a schema with '...' cannot have "
                      "defaults",
                      argument.name));
    }
    if (!argument.kwarg_only) last_with_default = &argument;
  } else if (!argument.kwarg_only && last_with_default) {
    add(errors, argument.name_range, "default-order",
        fmt::format("positional argument '{}' has no default but follows '{}', which has one "
                    "(give it a default or move it after '*')",
                    argument.name, last_with_default->name));
  }
}

}  // namespace

std::vector<SchemaError> check_schema(const FunctionSchema& schema) {
  Errors errors;
  check_overload_name(schema, errors);
  // One pass over the arguments and one over the returns, each check looking at one entry.
  uint64_t argument_names = 0;
  const Argument* last_with_default = nullptr;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& argument = schema.arguments[i];
    check_duplicate_name(schema.arguments, i, argument_names, "argument", "duplicate-argument",
                         errors);
    check_type(argument.type, errors);
    check_defaults(schema, argument, last_with_default, errors);
  }
  uint64_t return_names = 0;
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    check_duplicate_name(schema.returns, i, return_names, "return", "duplicate-return", errors);
    check_type(schema.returns[i].type, errors);
  }
  check_return_aliases(schema, errors);
  if (errors.size() > 1) {
    std::stable_sort(errors.begin(), errors.end(), [](const SchemaError& a, const SchemaError& b) {
      return a.offset < b.offset;
    });
  }
  return errors;
}

}  // namespace schemac::schema
