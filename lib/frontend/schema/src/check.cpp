// Semantic checks of one schema (check.h). Each check is one function below, adding problems with
// their own rule id; the id's severity comes from schema_rules.h: an error where PyTorch's parser
// rejects the schema, a warning where it takes it but something is questionable. check_schema runs
// them all, in one pass over the arguments and one over the returns, and returns them in text
// order. The defaults are checked in check_defaults.cpp.
#include "schemac/schema/check.h"
#include "schemac/support/did_you_mean.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "base_type_names.h"
#include "check_problems.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/printer.h"

namespace schemac::schema {
namespace {

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// ---- names ----------------------------------------------------------------------------------

void check_overload_name(const FunctionSchema& schema, Problems& problems) {
  // PyTorch's Python binding uses `default` and dunder names as attributes of an operator's
  // overload packet; its parser rejects them.
  std::string_view overload = schema.op.overload;
  if (overload == "default" || overload.starts_with("__")) {
    add_problem(problems, schema.op.range, rules::reserved_overload_name,
                fmt::format("overload name '{}' is reserved", overload));
  }
}

// The words PyTorch's lexer reads as keywords, not names (torch/csrc/jit/frontend/lexer.h): an
// argument, a return or a type variable cannot be called so.
constexpr std::string_view kKeywords[] = {
    "def", "if",   "else",  "elif",   "while", "return", "is",       "True",    "False", "None",
    "and", "or",   "not",   "global", "for",   "in",     "raise",    "assert",  "break", "continue",
    "del", "pass", "class", "import", "with",  "as",     "NoneType", "Ellipsis"};
// A hash table of the keywords with no two in one slot (checked when it is built), hashed by
// length, first and last letter: a name is a keyword only if its slot holds it.
constexpr size_t keyword_slot(std::string_view name) {
  return (name.size() + static_cast<unsigned char>(name.front()) * 36u +
          static_cast<unsigned char>(name.back()) * 5u) &
         63u;
}
constexpr auto kKeywordSlots = [] {
  std::array<std::string_view, 64> slots{};
  for (std::string_view keyword : kKeywords) {
    std::string_view& slot = slots[keyword_slot(keyword)];
    if (!slot.empty()) throw "two keywords share a slot: change keyword_slot";
    slot = keyword;
  }
  return slots;
}();
bool is_keyword(std::string_view name) {
  if (name.size() < 2 || name.size() > 8) return false;
  const std::string_view slot = kKeywordSlots[keyword_slot(name)];
  return slot.size() == name.size() && std::memcmp(slot.data(), name.data(), name.size()) == 0;
}

// The checks below run for every argument: their common case (nothing found) is inlined into
// check_schema's loop, the rest (searching, formatting the message) lives out of line.
[[gnu::noinline, gnu::cold]] void report_keyword(TextRange range, std::string_view what,
                                                 std::string_view name, Problems& problems) {
  add_problem(problems, range, rules::keyword_name,
              fmt::format("{} name '{}' is a keyword of PyTorch's schema language", what, name));
}
inline void check_keyword_name(const Argument& entry, std::string_view what, Problems& problems) {
  if (is_keyword(entry.name)) report_keyword(entry.name_range, what, entry.name, problems);
}

// The operator's namespace, name and overload are names to PyTorch's lexer too (`and.or(...)`
// is a syntax error there).
[[gnu::noinline, gnu::cold]] void report_operator_name_keywords(const OperatorName& op,
                                                                Problems& problems) {
  if (is_keyword(op.ns())) report_keyword(op.range, "namespace", op.ns(), problems);
  if (is_keyword(op.base_name())) report_keyword(op.range, "operator", op.base_name(), problems);
  if (is_keyword(op.overload)) report_keyword(op.range, "overload", op.overload, problems);
}
inline void check_operator_name_keywords(const OperatorName& op, Problems& problems) {
  if (is_keyword(op.base_name()) || is_keyword(op.overload) || is_keyword(op.ns())) [[unlikely]] {
    report_operator_name_keywords(op, problems);
  }
}

// So are alias set names (`Tensor(None!)`): the wildcard `*` and the fresh sets `$N` are not
// names, and are never keywords. Without `->`, the after-sets repeat the before-sets.
[[gnu::noinline, gnu::cold]] void report_alias_set_keywords(const AliasInfo& alias,
                                                            Problems& problems) {
  for (std::string_view set : alias.before) {
    if (is_keyword(set)) report_keyword(alias.range, "alias set", set, problems);
  }
  if (!alias.has_arrow) return;
  for (std::string_view set : alias.after) {
    if (is_keyword(set)) report_keyword(alias.range, "alias set", set, problems);
  }
}
inline bool names_a_keyword(std::span<const std::string_view> sets) {
  for (std::string_view set : sets) {
    if (is_keyword(set)) return true;
  }
  return false;
}
inline void check_alias_set_keywords(const Argument& entry, Problems& problems) {
  const Type* node = &entry.type;
  while (!node->alias && node->is_wrapper()) node = node->elem;
  const AliasInfo* alias = node->alias;
  if (alias && (names_a_keyword(alias->before) || names_a_keyword(alias->after))) [[unlikely]] {
    report_alias_set_keywords(*alias, problems);
  }
}

// The names seen so far among a schema's arguments (or returns). The first kSmallList names are
// told apart by a sketch (one bit per length, first and last letter), which sends only the names
// that might repeat one to a pairwise comparison; past them a hash set takes over, so a schema
// with thousands of arguments costs time linear in their number (the set is made only then).
struct SeenNames {
  static constexpr size_t kSmallList = 32;
  uint64_t sketch = 0;
  std::optional<std::unordered_set<std::string_view>> set;
};

[[gnu::noinline]] bool repeats_earlier(std::span<const Argument> entries, size_t i) {
  return std::any_of(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(i),
                     [&](const Argument& e) { return e.name == entries[i].name; });
}

[[gnu::noinline]] bool repeats_in_set(std::span<const Argument> entries, size_t i,
                                      SeenNames& seen) {
  if (!seen.set) {
    seen.set.emplace();
    for (size_t j = 0; j < i; ++j)
      if (!entries[j].name.empty()) seen.set->insert(entries[j].name);
  }
  return !seen.set->insert(entries[i].name).second;
}

// Reports entries[i] when it repeats an earlier name (entries are visited in order).
inline void check_duplicate_name(std::span<const Argument> entries, size_t i, SeenNames& seen,
                                 std::string_view what, std::string_view rule, Problems& problems) {
  std::string_view name = entries[i].name;
  if (name.empty()) return;
  bool repeated = false;
  if (i < SeenNames::kSmallList) [[likely]] {
    const auto first = static_cast<unsigned char>(name.front());
    const auto last = static_cast<unsigned char>(name.back());
    const uint64_t bit = uint64_t{1} << ((name.size() * 13 + first * 31 + last * 7) & 63);
    repeated = (seen.sketch & bit) != 0 && repeats_earlier(entries, i);
    seen.sketch |= bit;
  } else {
    repeated = repeats_in_set(entries, i, seen);
  }
  if (!repeated) return;
  add_problem(problems, entries[i].name_range, rule,
              fmt::format("{} name '{}' is used twice", what, name));
}

// ---- types ----------------------------------------------------------------------------------

bool is_custom_class(std::string_view name) { return name.starts_with("__torch__."); }

// "; did you mean 'T'?" for an unknown type name, or nothing. The last answer is remembered, so a
// schema that repeats one misspelt type thousands of times measures the distances once.
const std::string& unknown_type_hint(std::string_view name) {
  thread_local std::optional<std::pair<std::string, std::string>> last;  // a name, its hint
  if (last && last->first == name) return last->second;
  std::vector<std::string_view> known;
  for (const BaseTypeName& type : kBaseTypeNames) known.push_back(type.name);
  const std::vector<std::string> best = support::closest_names(name, known, 2);
  last.emplace(name, best.empty() ? "" : fmt::format("; did you mean '{}'?", best.front()));
  return last->second;
}

// A name that is not a known type: lower-case names are type variables (`t`), and
// `__torch__.torch.classes.ns.Name` is a custom class; anything else is a typo or unknown.
void check_type_name(const Type& leaf, Problems& problems) {
  std::string_view name = leaf.name;
  if (is_custom_class(name)) {
    // PyTorch reads exactly `__torch__.torch.classes.<namespace>.<class>`.
    const bool well_formed = name.starts_with("__torch__.torch.classes.") &&
                             std::count(name.begin(), name.end(), '.') == 4;
    if (!well_formed) {
      add_problem(problems, leaf.range, rules::unknown_type,
                  fmt::format("custom class '{}' must be named "
                              "'__torch__.torch.classes.<namespace>.<class>'",
                              name));
    }
    return;
  }
  if (name == "double" || name == "int64_t") {
    add_problem(problems, leaf.range, rules::unknown_type,
                fmt::format("unknown type '{}': write '{}' in a schema", name,
                            name == "double" ? "float" : "int"));
    return;
  }
  const bool is_type_variable = name[0] >= 'a' && name[0] <= 'z' &&
                                name.find('.') == std::string_view::npos && !is_keyword(name);
  if (is_type_variable) return;
  add_problem(problems, leaf.range, rules::unknown_type,
              fmt::format("unknown type '{}'{}", name, unknown_type_hint(name)));
}

// `[N]` is only allowed on the outermost list, as PyTorch reads it at the argument level.
void check_fixed_size_position(const Type& type, Problems& problems) {
  const Type* node = &type;
  if (node->is_optional()) node = &node->element();
  if (node->is_list()) node = &node->element();  // an outermost `[N]` is fine
  for (; node->is_wrapper(); node = &node->element()) {
    if (node->is_list() && node->fixed_size) {
      add_problem(problems, type.range, rules::fixed_size_list_position,
                  fmt::format("a fixed-size list can only be the outermost type (followed at most "
                              "by '?'), not inside '{}'",
                              print_type(type)));
      return;
    }
  }
}

// Alias annotations mean "this value may share memory": they make no sense on plain values.
bool is_value_type(BaseType base) {
  switch (base) {
    case BaseType::Int:
    case BaseType::Float:
    case BaseType::Bool:
    case BaseType::Str:
    case BaseType::Scalar:
    case BaseType::ScalarType:
    case BaseType::Layout:
    case BaseType::Device:
    case BaseType::DeviceIndex:
    case BaseType::MemoryFormat:
    case BaseType::Dimname:
    case BaseType::Complex:
    case BaseType::SymInt:
    case BaseType::SymFloat:
    case BaseType::SymBool:
    case BaseType::QScheme:
    case BaseType::NoneType: return true;
    default: return false;
  }
}

void check_leaf(const Type& node, Problems& problems) {
  if (node.base == BaseType::Named) check_type_name(node, problems);
  if (!node.alias) return;
  if (is_value_type(node.base)) {
    add_problem(problems, node.alias->range, rules::alias_on_value,
                fmt::format("alias annotation {} on '{}' makes no sense: only tensors, lists and "
                            "objects can share memory",
                            print_alias(*node.alias), node.name));
  } else if (is_custom_class(node.name)) {
    add_problem(problems, node.alias->range, rules::schema_syntax,
                "a custom class type takes no alias annotation");
  }
}

// `Union(int)`, `Union(int, int)` and `None?` leave PyTorch with a union of one type, which it
// rejects.
void check_union(const Type& node, Problems& problems) {
  if (node.kind == Type::Kind::Optional) {
    const Type& element = node.element();
    if (element.is_base(BaseType::NoneType)) {
      add_problem(
          problems, node.range, rules::union_members,
          fmt::format("'{}' is an optional of None, which PyTorch cannot build", print_type(node)));
    }
    return;
  }
  std::vector<std::string> members;
  for (const Type& item : node.contained()) {
    std::string text = print_type_without_aliases(item);
    if (std::find(members.begin(), members.end(), text) == members.end()) {
      members.push_back(std::move(text));
    }
  }
  if (members.size() < 2) {
    add_problem(problems, node.range, rules::union_members,
                fmt::format("'{}' has fewer than two different member types", print_type(node)));
  }
}

void check_type_tree(const Type& node, Problems& problems) {
  switch (node.kind) {
    case Type::Kind::Base: check_leaf(node, problems); return;
    case Type::Kind::Optional:
      check_union(node, problems);
      check_type_tree(node.element(), problems);
      return;
    case Type::Kind::List: check_type_tree(node.element(), problems); return;
    case Type::Kind::Union: check_union(node, problems); [[fallthrough]];
    default:
      for (const Type& item : node.contained()) {
        check_fixed_size_position(item, problems);
        check_type_tree(item, problems);
      }
      return;
  }
}

// Whether any check of the types could find something in `type`: a leaf that is a container, an
// unknown name or an annotated value type; an optional of None; a fixed-size list below the top.
// Most types (`Tensor`, `int[]`, `Tensor?`, `SymInt[2]`) are none of these.
bool may_have_type_problems(const Type& type) {
  const Type* node = &type;
  for (; node->is_wrapper(); node = node->elem) {
    if (node->is_optional() && node->elem->is_base(BaseType::NoneType)) return true;
    if (node != &type && node->fixed_size) return true;
  }
  // An annotated leaf matters only on a value type (and on a custom class, which is Named).
  return node->kind != Type::Kind::Base || node->base == BaseType::Named ||
         (node->alias && is_value_type(node->base));
}

inline void check_type(const Type& type, Problems& problems) {
  if (!may_have_type_problems(type)) return;
  check_fixed_size_position(type, problems);
  check_type_tree(type, problems);
}

// ---- alias sets across arguments and returns ---------------------------------------------------

// Every alias set a return names should come from an argument, and a return written to (`!`)
// should alias an argument that is written to. PyTorch checks neither: warnings.
void check_return_aliases(const FunctionSchema& schema, Problems& problems) {
  auto find_set = [&](std::string_view set, bool* written) {
    bool found = false;
    for (const Argument& argument : schema.arguments) {
      const AliasInfo* alias = argument.type.any_alias();
      if (!alias) continue;
      if (contains(alias->before, set) || contains(alias->after, set)) {
        found = true;
        *written = *written || alias->is_write;
      }
    }
    return found;
  };
  for (const Argument& ret : schema.returns) {
    const AliasInfo* alias = ret.type.any_alias();
    if (!alias || alias->is_fresh) continue;
    for (std::string_view set : alias->before) {
      if (set == "*") continue;
      bool written = false;
      if (!find_set(set, &written)) {
        add_problem(problems, alias->range, rules::alias_unknown_set,
                    fmt::format("return '{}' aliases set '{}', but no argument is in that set",
                                print_argument(ret), set));
      } else if (alias->is_write && !written) {
        add_problem(problems, alias->range, rules::alias_write_mismatch,
                    fmt::format("return '{}' writes alias set '{}', but no argument in that set "
                                "is written to (annotate it '({}!)')",
                                print_argument(ret), set, set));
      }
    }
  }
}

// ---- the argument list ------------------------------------------------------------------------

void check_kwarg_markers(const FunctionSchema& schema, Problems& problems) {
  const TextRange marker{schema.kwarg_marker_offset, schema.kwarg_marker_offset + 1};
  if (schema.kwarg_markers > 1) {
    add_problem(problems, marker, rules::kwarg_marker,
                "'*' appears more than once in the arguments");
  }
  if (schema.trailing_kwarg_marker) {
    add_problem(problems, marker, rules::kwarg_marker,
                "'*' is not followed by any keyword-only argument");
  }
}

// The defaults of one argument: its own (check_default), none with '...', and none missing after
// a positional argument that has one. `last_with_default` carries that argument along.
void check_defaults(const FunctionSchema& schema, const Argument& argument,
                    const Argument*& last_with_default, Problems& problems) {
  if (argument.default_value) {
    // The most common defaults, `None` for an optional and `True`/`False` for a bool, are what
    // PyTorch reads and fit: check_default would find nothing.
    const DefaultValue::Kind kind = argument.default_value->kind;
    const bool fits_at_once =
        (kind == DefaultValue::Kind::None && argument.type.is_optional()) ||
        (kind == DefaultValue::Kind::Bool && argument.type.is_base(BaseType::Bool));
    if (!fits_at_once) check_default(argument, problems);
    if (schema.is_vararg) {
      add_problem(problems, argument.default_value->range, rules::vararg_default,
                  fmt::format("argument '{}' has a default, but a schema with '...' cannot have "
                              "defaults",
                              argument.name));
    }
    if (!argument.kwarg_only) last_with_default = &argument;
  } else if (!argument.kwarg_only && last_with_default) {
    // PyTorch asserts on this (FunctionSchema::checkSchema) but for list types, which old
    // serialized schemas wrote so.
    auto message = fmt::format(
        "positional argument '{}' has no default but follows '{}', which "
        "has one (give it a default or move it after '*')",
        argument.name, last_with_default->name);
    add_problem(problems, argument.name_range,
                argument.type.is_list() ? rules::default_order_list : rules::default_order,
                std::move(message));
  }
}

}  // namespace

std::vector<SchemaError> check_schema(const FunctionSchema& schema) {
  Problems problems;
  check_overload_name(schema, problems);
  check_operator_name_keywords(schema.op, problems);
  if (schema.kwarg_markers > 1 || schema.trailing_kwarg_marker) {
    check_kwarg_markers(schema, problems);
  }
  // One pass over the arguments and one over the returns, each check looking at one entry.
  SeenNames argument_names;
  const Argument* last_with_default = nullptr;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& argument = schema.arguments[i];
    check_keyword_name(argument, "argument", problems);
    check_alias_set_keywords(argument, problems);
    check_duplicate_name(schema.arguments, i, argument_names, "argument", rules::duplicate_argument,
                         problems);
    check_type(argument.type, problems);
    check_defaults(schema, argument, last_with_default, problems);
  }
  SeenNames return_names;
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    check_keyword_name(schema.returns[i], "return", problems);
    check_alias_set_keywords(schema.returns[i], problems);
    check_duplicate_name(schema.returns, i, return_names, "return", rules::duplicate_return,
                         problems);
    check_type(schema.returns[i].type, problems);
  }
  check_return_aliases(schema, problems);
  if (problems.size() > 1) {
    std::stable_sort(
        problems.begin(), problems.end(),
        [](const SchemaError& a, const SchemaError& b) { return a.offset < b.offset; });
  }
  return problems;
}

}  // namespace schemac::schema
