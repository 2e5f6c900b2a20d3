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
#include "schema_errors.h"
#include "schema_grammar.h"
#include "schema_storage.h"
#include "schemac/schema/check.h"

namespace schemac::schema {
namespace {

namespace pegtl = tao::pegtl;
namespace g = grammar;

// The leaf type a name spells; anything else is BaseType::Named.
BaseType base_type_of(std::string_view name) {
  if (name == "Tensor") return BaseType::Tensor;  // by far the most common
  for (const BaseTypeName& entry : kBaseTypeNames) {
    if (entry.name.size() == name.size() && entry.name == name) return entry.type;
  }
  return BaseType::Named;
}

// Where the pieces of an alias annotation or a list default gather while they are read, before
// they are copied to the schema's storage. One per thread, so that its capacity carries over from
// one parse to the next and reading them allocates nothing.
struct Scratch {
  std::vector<std::string_view> alias_before;
  std::vector<std::string_view> alias_after;
  std::vector<DefaultValue> default_items;
};
Scratch& scratch() {
  thread_local Scratch per_thread;
  return per_thread;
}

// What the actions build. Each argument and return is built in place: `entry` is the one being
// read (the last of schema.arguments or schema.returns). Element types, aliases and defaults go
// into the schema's storage as they are finished; the names are views into the storage's copy of
// the text, which the grammar runs over. Offsets are taken from the match pointers against `base`.
struct Builder {
  explicit Builder(SchemaStorage& storage) : storage(storage) {}

  SchemaStorage& storage;
  const char* base = nullptr;
  FunctionSchema schema;
  Argument* entry = nullptr;                // the argument or return being read
  AliasInfo alias;                          // the alias annotation being read
  std::vector<std::string_view>& alias_before = scratch().alias_before;
  std::vector<std::string_view>& alias_after = scratch().alias_after;
  std::optional<int64_t> list_size;         // the N of a `[N]` being read
  int type_depth = 0;                       // suffixes on the type being read
  bool in_default_list = false;             // a list default is being read
  TextRange default_list_range;
  std::vector<DefaultValue>& default_items = scratch().default_items;
  bool kwarg_only = false;                  // a `*` was seen
  uint32_t kwarg_marker_offset = 0;
  std::optional<SchemaError> error;         // a problem the grammar cannot express

  template <typename Input>
  std::string_view view_of(const Input& in) const {
    return {in.begin(), in.size()};
  }
  template <typename Input>
  TextRange range_of(const Input& in) const {
    return {static_cast<uint32_t>(in.begin() - base), static_cast<uint32_t>(in.end() - base)};
  }
  void fail(std::string message, TextRange range, std::string rule) {
    if (error) return;
    error = SchemaError{std::move(message), range.begin,
                        std::max<uint32_t>(1, range.end - range.begin), std::move(rule)};
  }
  Type& type() { return entry->type; }
  void attach_alias(const AliasInfo& info) { type().alias = storage.copy(info); }
  // Types nest one level per suffix; walks over the model recurse, so the depth is bounded to keep
  // any input from exhausting the stack.
  static constexpr int kMaxTypeDepth = 32;
  void wrap_type(Type::Kind kind, uint32_t end) {
    Type& inner = type();
    if (++type_depth > kMaxTypeDepth) {
      fail(fmt::format("type nests more than {} '[]' and '?' suffixes", kMaxTypeDepth),
           {end - 1, end}, "schema-syntax");
      return;
    }
    // The type read so far moves to the storage and becomes the element of a new node.
    const Type* element = storage.copy(inner);
    inner = Type{};
    inner.kind = kind;
    inner.range = {element->range.begin, end};
    inner.elem = element;
  }
  void add_default(const DefaultValue& value) {
    if (in_default_list) {
      default_items.push_back(value);
    } else {
      entry->default_value = storage.copy(value);
    }
  }
};

template <typename Rule>
struct action : pegtl::nothing<Rule> {};

// ---- operator name
template <>
struct action<g::qualified_name> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.schema.op.name = b.view_of(in);
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
template <>
struct action<g::expect_alias_before_symbol> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.alias_before.push_back(b.view_of(in));
  }
};
template <>
struct action<g::expect_alias_after_symbol> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.alias_after.push_back(b.view_of(in));
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
    b.alias.after = b.storage.copy(std::span<const std::string_view>(b.alias_after));
    b.attach_alias(b.alias);
  }
};
template <>
struct action<g::alias_bare_write> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    AliasInfo info;
    info.is_write = true;
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
             "schema-syntax");
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

// ---- default values
template <>
struct action<g::default_number> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    DefaultValue value;
    value.text = b.view_of(in);
    bool is_float = std::any_of(value.text.begin(), value.text.end(),
                                [](char c) { return c == '.' || c == 'e' || c == 'E'; });
    value.kind = is_float ? DefaultValue::Kind::Float : DefaultValue::Kind::Int;
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
    } else if (t == "inf" || t == "-inf" || t == "nan") {
      value.kind = DefaultValue::Kind::Float;
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
    DefaultValue list;
    list.kind = DefaultValue::Kind::List;
    list.items = b.storage.copy(std::span<const DefaultValue>(b.default_items));
    // The canonical text, "[0,1]" for `[0, 1]`, is written into the storage beside the source.
    size_t size = 2 + (list.items.empty() ? 0 : list.items.size() - 1);
    for (const DefaultValue& item : list.items) size += item.text.size();
    char* text = b.storage.allocate_chars(size);
    char* out = text;
    *out++ = '[';
    for (size_t i = 0; i < list.items.size(); ++i) {
      if (i) *out++ = ',';
      out = std::copy(list.items[i].text.begin(), list.items[i].text.end(), out);
    }
    *out = ']';
    list.text = std::string_view(text, size);
    list.range = {b.default_list_range.begin, b.range_of(in).end};
    b.entry->default_value = b.storage.copy(list);
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
    if (b.kwarg_only) {
      b.fail("'*' appears twice in the arguments", b.range_of(in), "kwarg-marker");
    }
    b.kwarg_only = true;
    b.kwarg_marker_offset = b.range_of(in).begin;
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

// Checks what the grammar alone cannot: a `*` must be followed by a keyword-only argument (so that
// printing gives the same schema back).
void check_kwarg_marker(Builder& b) {
  if (!b.kwarg_only) return;
  for (const Argument& arg : b.schema.arguments) {
    if (arg.kwarg_only) return;
  }
  b.fail("'*' must be followed by at least one keyword-only argument",
         {b.kwarg_marker_offset, b.kwarg_marker_offset + 1}, "kwarg-marker");
}

}  // namespace

ParseResult parse_schema_syntax(std::string_view text) {
  ParseResult result;
  if (text.size() > UINT32_MAX / 2) {
    result.error = SchemaError{"schema text is too long", 0, 1, "schema-syntax"};
    return result;
  }
  // The schema keeps its own copy of the text in its storage, and the names in it are views into
  // that copy: the grammar runs over the copy, which is padded as the grammar needs.
  auto storage = std::make_shared<SchemaStorage>();
  const std::string_view own_text = storage->copy_padded(text, g::kInputPadding);
  Builder builder(*storage);
  builder.base = own_text.data();
  // Room for one argument per 16 characters, which most schemas do not outgrow (a declaration of
  // PyTorch's takes 20 or so); the vector grows past it if it must.
  builder.schema.arguments.reserve(std::min<size_t>(text.size() / 16 + 1, 32));
  try {
    pegtl::memory_input<pegtl::tracking_mode::lazy> in(builder.base, builder.base + text.size(),
                                                        "schema");
    pegtl::parse<g::schema, action, pegtl::must_if<g::errors>::control>(in, builder);
  } catch (const pegtl::parse_error& e) {
    auto offset = static_cast<uint32_t>(e.positions().front().byte);
    uint32_t length = 1;
    std::string found = describe_found(text, offset, &length);
    result.error = SchemaError{fmt::format("{}, {}", e.message(), found), offset, length,
                               "schema-syntax"};
    return result;
  } catch (const std::exception& e) {
    result.error = SchemaError{fmt::format("internal error while parsing: {}", e.what()), 0, 1,
                               "schema-syntax"};
    return result;
  }
  check_kwarg_marker(builder);
  if (builder.error) {
    result.error = std::move(builder.error);
    return result;
  }
  builder.schema.text = own_text;
  builder.schema.storage = std::move(storage);
  result.schema = std::move(builder.schema);
  return result;
}

ParseResult parse_schema(std::string_view text) {
  ParseResult result = parse_schema_syntax(text);
  if (!result.ok()) return result;
  std::vector<SchemaError> errors = check_schema(*result.schema);
  if (!errors.empty()) {
    result.error = std::move(errors.front());
    result.schema.reset();
  }
  return result;
}

}  // namespace schemac::schema
