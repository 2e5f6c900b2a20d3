// Parsing one schema string: runs the PEGTL grammar (schema_grammar.h) with the actions below,
// which fill a FunctionSchema piece by piece, then the semantic checks (check.cpp).
#include "schemac/schema/parser.h"

#include <algorithm>
#include <charconv>
#include <exception>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tao/pegtl.hpp>

#include "base_type_names.h"
#include "fast_parser.h"
#include "schema_builder.h"
#include "schema_errors.h"
#include "schema_grammar.h"
#include "schema_storage.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/check.h"

namespace schemac::schema {
namespace {

namespace pegtl = tao::pegtl;
namespace g = grammar;
using detail::Builder;

template <typename Rule>
struct action : pegtl::nothing<Rule> {};

// ---- operator name
bool is_blank(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

template <>
struct action<g::qualified_name> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    std::string_view name = b.view_of(in);
    if (std::any_of(name.begin(), name.end(), is_blank)) {
      // `aten :: add`: PyTorch's lexer skips the blanks between the tokens; the name has none.
      size_t size = static_cast<size_t>(
          std::count_if(name.begin(), name.end(), [](char c) { return !is_blank(c); }));
      char* text = b.storage.allocate_chars(size);
      std::copy_if(name.begin(), name.end(), text, [](char c) { return !is_blank(c); });
      name = std::string_view(text, size);
    }
    b.schema.op.name = name;
  }
};
template <>
struct action<g::expect_overload_name> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.schema.op.overload = b.view_of(in);
  }
};
template <>
struct action<g::expect_operator_name> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.schema.op.range = b.range_of(in);
  }
};

// ---- alias annotations
template <>
struct action<g::alias_open> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.alias = AliasInfo{};
    b.alias_before.clear();
    b.alias_after.clear();
  }
};
// PyTorch ignores what follows the wildcard in a set but cannot read a name there: after `*`
// only `*` may follow (`(a|*)` is fine, `(*|a)` is not).
template <typename Input>
void add_alias_symbol(const Input& in, Builder& b, std::vector<std::string_view>& set) {
  std::string_view symbol = b.view_of(in);
  if (!set.empty() && set.back() == "*" && symbol != "*") {
    b.fail(fmt::format("alias set '{}' cannot follow the wildcard '*' in one annotation", symbol),
           b.range_of(in), rules::schema_syntax);
  }
  set.push_back(symbol);
}
template <>
struct action<g::expect_alias_before_symbol> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    add_alias_symbol(in, b, b.alias_before);
  }
};
template <>
struct action<g::expect_alias_after_symbol> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    add_alias_symbol(in, b, b.alias_after);
  }
};
template <>
struct action<g::alias_write> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.alias.is_write = true;
  }
};
template <>
struct action<g::alias_arrow> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.alias.has_arrow = true;
  }
};
template <>
struct action<g::alias_annotation> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.alias.range = b.range_of(in);
    b.alias.before = b.storage.copy(std::span<const std::string_view>(b.alias_before));
    // Without `->`, the sets after the call are the sets before it (PyTorch's model).
    b.alias.after = b.alias.has_arrow
                        ? b.storage.copy(std::span<const std::string_view>(b.alias_after))
                        : b.alias.before;
    b.attach_alias(b.alias);
  }
};
template <>
struct action<g::alias_bare_write> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    // A bare `!` is a fresh alias set of its own, `$0`, `$1`, ... in order of appearance.
    char digits[16];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, b.fresh_sets++);
    size_t size = 1 + static_cast<size_t>(end - digits);
    char* text = b.storage.allocate_chars(size);
    text[0] = '$';
    std::copy(digits, end, text + 1);
    const std::string_view name(text, size);
    AliasInfo info;
    info.is_write = true;
    info.is_fresh = true;
    info.before = b.storage.copy(std::span<const std::string_view>(&name, 1));
    info.range = b.range_of(in);
    b.attach_alias(info);
  }
};

// ---- types
template <>
struct action<g::type_name> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    Type& type = b.type();
    b.type_depth = 0;
    type.name = b.view_of(in);
    type.base = base_type_of(type.name);
    type.range = b.range_of(in);
  }
};
template <>
struct action<g::list_size> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    int64_t size = 0;
    auto [end, ec] = std::from_chars(in.begin(), in.end(), size);
    if (ec != std::errc() || end != in.end()) {
      b.fail(fmt::format("list size {} is too large", in.string_view()), b.range_of(in),
             rules::schema_syntax);
    }
    b.list_size = size;
  }
};
template <>
struct action<g::list_suffix> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    auto size = std::exchange(b.list_size, std::nullopt);
    b.wrap_type(Type::Kind::List, b.range_of(in).end);
    if (b.type().is_list()) b.type().fixed_size = size;
  }
};
template <>
struct action<g::optional_suffix> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.wrap_type(Type::Kind::Optional, b.range_of(in).end);
  }
};

// ---- container types
template <Type::Kind kind>
struct open_container_action {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.open_container(in, kind);
  }
};
template <>
struct action<g::tuple_open> : open_container_action<Type::Kind::Tuple> {};
template <>
struct action<g::future_open> : open_container_action<Type::Kind::Future> {};
template <>
struct action<g::rref_open> : open_container_action<Type::Kind::RRef> {};
template <>
struct action<g::await_open> : open_container_action<Type::Kind::Await> {};
template <>
struct action<g::dict_open> : open_container_action<Type::Kind::Dict> {};
template <>
struct action<g::union_open> : open_container_action<Type::Kind::Union> {};
template <>
struct action<g::contained_begin> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.contained.emplace_back();
    b.type_depth = 0;
  }
};
template <>
struct action<g::expect_contained_close> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.close_container(in);
  }
};

// ---- default values
template <>
struct action<g::default_number> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    DefaultValue value;
    value.text = b.view_of(in);
    std::string_view t = value.text;
    if (t.size() > 1 && t[0] == '-' && is_blank(t[1])) {
      // `- 1`: the lexer reads '-' and the number as two tokens; the default is "-1".
      std::string_view digits = t.substr(1);
      while (is_blank(digits.front())) digits.remove_prefix(1);
      char* text = b.storage.allocate_chars(digits.size() + 1);
      text[0] = '-';
      std::copy(digits.begin(), digits.end(), text + 1);
      value.text = std::string_view(text, digits.size() + 1);
      t = value.text;
    }
    const bool hex = t.find_first_of("xX") != std::string_view::npos;
    if (t.back() == 'j') {
      value.kind = DefaultValue::Kind::Complex;
    } else if (t.find_first_of(hex ? ".pP" : ".eE") != std::string_view::npos) {
      value.kind = DefaultValue::Kind::Float;
    } else {
      value.kind = DefaultValue::Kind::Int;
    }
    value.range = b.range_of(in);
    b.add_default(value);
  }
};
template <>
struct action<g::default_string> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    DefaultValue value;
    value.kind = DefaultValue::Kind::String;
    value.text = b.view_of(in);
    value.range = b.range_of(in);
    b.add_default(value);
  }
};
template <>
struct action<g::default_identifier> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    DefaultValue value;
    value.text = b.view_of(in);
    std::string_view t = value.text;
    if (t == "True" || t == "False") {
      value.kind = DefaultValue::Kind::Bool;
    } else if (t == "None") {
      value.kind = DefaultValue::Kind::None;
    } else {
      value.kind = DefaultValue::Kind::Identifier;
    }
    value.range = b.range_of(in);
    b.add_default(value);
  }
};
template <>
struct action<g::default_list_open> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.in_default_list = true;
    b.default_items.clear();
    b.default_list_range = b.range_of(in);
  }
};
template <>
struct action<g::expect_default_list_close> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.in_default_list = false;
    b.entry->default_value = b.store_list_default({b.default_list_range.begin, b.range_of(in).end});
  }
};

// ---- arguments
template <>
struct action<g::argument_begin> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.entry = &b.schema.arguments.emplace_back();
    b.entry->kwarg_only = b.kwarg_only;
  }
};
template <>
struct action<g::expect_argument_name> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.entry->name = b.view_of(in);
    b.entry->name_range = b.range_of(in);
  }
};
template <>
struct action<g::argument> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.entry->range = b.range_of(in);
  }
};
template <>
struct action<g::kwarg_marker> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    // A second `*` is a warning of the checks (PyTorch takes it); the first one's place is kept.
    if (b.schema.kwarg_markers == 0) b.schema.kwarg_marker_offset = b.range_of(in).begin;
    if (b.schema.kwarg_markers < UINT8_MAX) ++b.schema.kwarg_markers;
    b.kwarg_only = true;
  }
};
template <>
struct action<g::varargs> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.schema.is_vararg = true;
  }
};

// ---- returns
template <>
struct action<g::return_begin> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.entry = &b.schema.returns.emplace_back();
  }
};
template <>
struct action<g::return_name> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.entry->name = b.view_of(in);
    b.entry->name_range = b.range_of(in);
  }
};
template <>
struct action<g::return_item> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.entry->range = b.range_of(in);
  }
};
template <>
struct action<g::varret> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.schema.is_varret = true;
  }
};
template <>
struct action<g::return_list_open> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    b.schema.returns_parenthesized = true;
  }
};
template <>
struct action<g::expect_returns> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.schema.returns_range = b.range_of(in);
  }
};

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// "found 'foo'", "found end of input": what stands at the error, for the message.
std::string describe_found(std::string_view text, uint32_t offset, uint32_t* length) {
  *length = 1;
  if (offset >= text.size()) return "found end of input";
  char c = text[offset];
  if (is_identifier_char(c)) {
    size_t end = offset;
    while (end < text.size() && end - offset < 40 && is_identifier_char(text[end])) ++end;
    *length = static_cast<uint32_t>(end - offset);
    return fmt::format("found '{}'", text.substr(offset, end - offset));
  }
  auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte >= 0x7f) return fmt::format("found byte 0x{:02x}", byte);
  return fmt::format("found '{}'", c);
}

// Whether a `*` is followed by no keyword-only argument (`f(Tensor x, *)`): PyTorch takes it, the
// checks warn, and the printer writes it back.
void note_trailing_kwarg_marker(Builder& b) {
  if (!b.kwarg_only) return;
  for (const Argument& arg : b.schema.arguments) {
    if (arg.kwarg_only) return;
  }
  b.schema.trailing_kwarg_marker = true;
}

// The end of a parse, by either path: the schema, or the error an action found.
void finish(Builder& b, std::string_view own_text, std::shared_ptr<SchemaStorage> storage,
            ParseResult& result) {
  note_trailing_kwarg_marker(b);
  if (b.error) {
    result.error = std::move(b.error);
    return;
  }
  b.schema.text = own_text;
  b.schema.storage = std::move(storage);
  result.schema = std::move(b.schema);
}

}  // namespace

namespace detail {

ParseResult parse_schema_syntax(std::string_view text, ParserPath path) {
  ParseResult result;
  if (text.size() > UINT32_MAX / 2) {
    result.error = SchemaError{"schema text is too long", 0, 1, rules::schema_syntax};
    return result;
  }
  // The schema keeps its own copy of the text in its storage, and the names in it are views into
  // that copy: the parser runs over the copy, which is padded as the grammar needs.
  auto storage = std::make_shared<SchemaStorage>();
  const std::string_view own_text = storage->copy_padded(text, g::kInputPadding);
  // Room for one argument per 16 characters, which most schemas do not outgrow (a declaration of
  // PyTorch's takes 20 or so); the vector grows past it if it must.
  const size_t arguments_guess = std::min<size_t>(text.size() / 16 + 1, 32);
  Builder fast(*storage);
  fast.base = own_text.data();
  if (path != ParserPath::Grammar && fast_parse(own_text, fast)) {
    finish(fast, own_text, std::move(storage), result);
    return result;
  }
  if (path == ParserPath::FastOnly) {
    result.error =
        SchemaError{"the fast path does not read this schema", 0, 1, "fast-path-declined"};
    return result;
  }
  // What the fast path declines, and every error: the grammar reads the schema from the start.
  Builder builder(*storage);
  builder.base = own_text.data();
  builder.contained.clear();
  builder.containers.clear();
  builder.schema.arguments.reserve(arguments_guess);
  try {
    pegtl::memory_input<pegtl::tracking_mode::lazy> in(builder.base, builder.base + text.size(),
                                                       "schema");
    pegtl::parse<g::schema, action, pegtl::must_if<g::errors>::control>(in, builder);
  } catch (const pegtl::parse_error& e) {
    auto offset = static_cast<uint32_t>(e.positions().front().byte);
    uint32_t length = 1;
    std::string found = describe_found(text, offset, &length);
    result.error = SchemaError{fmt::format("{}, {}", e.message(), found), offset, length,
                               rules::schema_syntax};
    return result;
  } catch (const std::exception& e) {
    result.error = SchemaError{fmt::format("internal error while parsing: {}", e.what()), 0, 1,
                               rules::schema_syntax};
    return result;
  }
  finish(builder, own_text, std::move(storage), result);
  return result;
}

}  // namespace detail

ParseResult parse_schema_syntax(std::string_view text) {
  return detail::parse_schema_syntax(text, detail::ParserPath::Fast);
}

ParseResult parse_schema(std::string_view text) {
  ParseResult result = parse_schema_syntax(text);
  if (!result.ok()) return result;
  std::vector<SchemaError> problems = check_schema(*result.schema);
  for (SchemaError& problem : problems) {
    if (problem.severity == SchemaSeverity::Warning) {
      result.warnings.push_back(std::move(problem));
    } else if (!result.error) {
      result.error = std::move(problem);
    }
  }
  if (result.error) result.schema.reset();
  return result;
}

}  // namespace schemac::schema
