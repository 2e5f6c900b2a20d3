// The fast path of the parser (fast_parser.h). Each function below reads what one grammar rule of
// schema_grammar.h reads and fills the model as that rule's action in parser.cpp does; where the
// text is not what the function reads, it returns false and the grammar reads the schema instead.
// tests/schema/fast_parser_test.cpp checks that the two build the same model.
#include "fast_parser.h"

#include <charconv>
#include <cstring>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base_type_names.h"
#include "schema_grammar.h"

namespace schemac::schema::detail {
namespace {

namespace chars = grammar::chars;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The arguments and returns being read, one per thread so that reading them allocates nothing and
// every field is written once (a value-initialised Argument costs a `rep stos`); the schema gets
// exact-size copies at the end. A schema with more is the grammar's.
constexpr size_t kMaxArguments = 64;
constexpr size_t kMaxReturns = 32;
struct Entries {
  Argument arguments[kMaxArguments];
  Argument returns[kMaxReturns];
};
Entries& entries() {
  thread_local Entries per_thread;
  return per_thread;
}

// A leaf type named `name` at `range`, every field written.
void set_leaf(Type& type, std::string_view name, BaseType base, TextRange range) {
  type.kind = Type::Kind::Base;
  type.base = base;
  type.fixed_size.reset();
  type.name = name;
  type.elem = nullptr;
  type.items = nullptr;
  type.item_count = 0;
  type.alias = nullptr;
  type.range = range;
}
// `type` becomes a `kind` node (List or Optional) over `element`, every field written.
void set_wrapper(Type& type, Type::Kind kind, const Type* element, uint32_t end) {
  type.kind = kind;
  type.base = BaseType::Tensor;
  type.fixed_size.reset();
  type.name = {};
  type.elem = element;
  type.items = nullptr;
  type.item_count = 0;
  type.alias = nullptr;
  type.range = {element->range.begin, end};
}
// An argument or return with no name or default yet.
void start_entry(Argument& entry, bool kwarg_only) {
  entry.name = {};
  entry.default_value = nullptr;
  entry.kwarg_only = kwarg_only;
  entry.name_range = {};
}

// Each reader takes the position to read at and returns the position after what it read, or null
// where it declines. The position travels in a register, not in a member that every store through
// a char pointer would make the compiler reload.
class FastParser {
 public:
  FastParser(std::string_view text, Builder& b)
      : b_(b), end_(text.data() + text.size()), entries_(entries()) {}

  // schema: name ( arguments ) -> returns, blanks between the tokens.
  bool schema(const char* p) {
    p = operator_name(blanks(p));
    if (!p) return false;
    p = blanks(p);
    if (*p != '(' || !(p = arguments(p))) return false;
    p = blanks(p);
    if (p[0] != '-' || p[1] != '>') return false;
    p = returns(blanks(p + 2));
    // A comment, trailing text or a NUL byte: the grammar decides.
    if (!p || blanks(p) != end_) return false;
    b_.schema.arguments.assign(entries_.arguments, entries_.arguments + argument_count_);
    if (return_count_) b_.schema.returns.assign(entries_.returns, entries_.returns + return_count_);
    return true;
  }

 private:
  Builder& b_;
  const char* end_;
  Entries& entries_;
  size_t argument_count_ = 0;
  size_t return_count_ = 0;

  uint32_t offset(const char* at) const { return static_cast<uint32_t>(at - b_.base); }
  static std::string_view view(const char* begin, const char* end) {
    return {begin, static_cast<size_t>(end - begin)};
  }
  // Blanks are tested with branches, not looked up: each call site sees the same answer nearly
  // every time (a blank after ',', none after '('), so the branch is predicted and the position
  // does not wait for the loads (a lookup puts two loads on the path to the next position).
  static bool is_blank(char c) {
    return c == ' ' || static_cast<unsigned char>(c - '\t') <= '\r' - '\t';
  }
  static const char* blanks(const char* p) {
    while (is_blank(*p)) ++p;
    return p;
  }
  // The end of the identifier at `at`, or null when none starts there.
  static const char* identifier_end(const char* at) {
    if (!chars::is(*at, chars::kIdentFirst)) return nullptr;
    std::size_t length = 1;
    for (std::size_t run = 16; run == 16; length += run) run = chars::identifier_run(at + length);
    return at + length;
  }

  // [ns::]name[.overload], no blanks inside (qualified_name, expect_operator_name).
  const char* operator_name(const char* begin) {
    const char* end = identifier_end(begin);
    if (!end) return nullptr;
    if (end[0] == ':') {
      if (end[1] != ':' || !(end = identifier_end(end + 2))) return nullptr;
    }
    b_.schema.op.name = view(begin, end);
    if (*end == '.') {
      const char* overload = end + 1;
      if (!(end = identifier_end(overload))) return nullptr;
      b_.schema.op.overload = view(overload, end);
    }
    b_.schema.op.range = {offset(begin), offset(end)};
    return end;
  }

  // `(` then `)` or items separated by `,` (arguments).
  const char* arguments(const char* p) {
    p = blanks(p + 1);
    if (*p == ')') return p + 1;
    for (;;) {
      if (!(p = argument_item(p))) return nullptr;
      p = blanks(p);
      if (*p == ')') return p + 1;
      if (*p != ',') return nullptr;
      p = blanks(p + 1);
    }
  }

  // `*` or Type name [= default] (argument_item; `...` is the grammar's).
  const char* argument_item(const char* begin) {
    if (*begin == '*') {
      FunctionSchema& schema = b_.schema;
      if (schema.kwarg_markers == 0) schema.kwarg_marker_offset = offset(begin);
      if (schema.kwarg_markers < UINT8_MAX) ++schema.kwarg_markers;
      b_.kwarg_only = true;
      return begin + 1;
    }
    if (argument_count_ == kMaxArguments) return nullptr;
    Argument& entry = entries_.arguments[argument_count_++];
    start_entry(entry, b_.kwarg_only);
    const char* p = type(begin, entry.type);
    if (!p) return nullptr;
    p = blanks(p);
    const char* name_end = identifier_end(p);
    if (!name_end) return nullptr;
    entry.name = view(p, name_end);
    entry.name_range = {offset(p), offset(name_end)};
    p = blanks(name_end);
    if (*p == '=') {
      p = default_value(blanks(p + 1), entry);
      if (!p) return nullptr;
    } else {
      p = name_end;
    }
    entry.range = {offset(begin), offset(p)};
    return p;
  }

  // A type name, an optional alias annotation, then any run of `[]`, `[N]` (each maybe with an
  // annotation) and `?` (type; containers are the grammar's).
  const char* type(const char* begin, Type& type) {
    const char* p = identifier_end(begin);
    if (!p) return nullptr;
    while (p[0] == '.' && chars::is(p[1], chars::kIdentFirst)) p = identifier_end(p + 1);
    const std::string_view name = view(begin, p);
    const TypeNameSlot& slot =
        kTypeNameSlots[type_name_slot(name.front(), name.back(), name.size())];
    const bool known = slot.size == name.size() && same_name(name, slot.name);
    if (known && slot.container) return nullptr;
    set_leaf(type, name, known ? slot.type : BaseType::Named, {offset(begin), offset(p)});
    if (!(p = maybe_alias(p, type))) return nullptr;
    int depth = 0;
    for (;;) {
      const char* suffix = blanks(p);
      if (*suffix == '[') {
        p = blanks(suffix + 1);
        std::optional<int64_t> size;
        if (is_digit(*p)) {
          const char* digits = p;
          while (is_digit(*p)) ++p;
          int64_t value = 0;
          auto [stop, ec] = std::from_chars(digits, p, value);
          if (ec != std::errc() || stop != p) return nullptr;
          size = value;
          p = blanks(p);
        }
        if (*p != ']') return nullptr;
        ++p;
        if (!wrap(type, Type::Kind::List, ++depth, p)) return nullptr;
        type.fixed_size = size;
        if (!(p = maybe_alias(p, type))) return nullptr;
      } else if (*suffix == '?') {
        p = suffix + 1;
        if (!wrap(type, Type::Kind::Optional, ++depth, p)) return nullptr;
      } else {
        return p;
      }
    }
  }
  // Whether `name`, which is followed by at least 16 readable bytes (the padding), spells
  // `table_name` (NUL-padded to 24 bytes) up to name.size(): one 16-byte comparison.
  static bool same_name(std::string_view name, const char* table_name) {
#if defined(__SSE2__)
    if (name.size() > 16) return std::memcmp(name.data(), table_name, name.size()) == 0;
    const __m128i text = _mm_loadu_si128(reinterpret_cast<const __m128i*>(name.data()));
    const __m128i known = _mm_loadu_si128(reinterpret_cast<const __m128i*>(table_name));
    const unsigned equal = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(text, known)));
    const unsigned wanted = (1u << name.size()) - 1;
    return (equal & wanted) == wanted;
#else
    return std::memcmp(name.data(), table_name, name.size()) == 0;
#endif
  }
  // The type read so far becomes the element of a new List or Optional node ending at `end`
  // (Builder::wrap_type).
  bool wrap(Type& type, Type::Kind kind, int depth, const char* end) {
    if (depth > Builder::kMaxTypeDepth) return false;
    set_wrapper(type, kind, b_.storage.copy(type), offset(end));
    return true;
  }

  // Blanks and an alias annotation `(...)`, or nothing (opt<ws, alias>; a bare `!` is the
  // grammar's).
  const char* maybe_alias(const char* p, Type& type) {
    const char* q = blanks(p);
    if (*q == '(') return alias_annotation(q, type);
    if (*q == '!') return nullptr;
    return p;
  }
  // (a) (a!) (a|b) (a! -> a|b) (a -> *)  (alias_annotation)
  const char* alias_annotation(const char* begin, Type& type) {
    AliasInfo info;
    const char* p = alias_set(blanks(begin + 1), b_.alias_before);
    if (!p) return nullptr;
    p = blanks(p);
    if (*p == '!') {
      info.is_write = true;
      p = blanks(p + 1);
    }
    if (p[0] == '-' && p[1] == '>') {
      info.has_arrow = true;
      p = alias_set(blanks(p + 2), b_.alias_after);
      if (!p) return nullptr;
      p = blanks(p);
    }
    if (*p != ')') return nullptr;
    ++p;
    info.range = {offset(begin), offset(p)};
    info.before = b_.storage.copy(std::span<const std::string_view>(b_.alias_before));
    info.after = info.has_arrow ? b_.storage.copy(std::span<const std::string_view>(b_.alias_after))
                                : info.before;
    type.alias = b_.storage.copy(info);
    return p;
  }
  // symbol { | symbol } with symbol a name or `*`; after `*` only `*` (add_alias_symbol).
  static const char* alias_set(const char* p, std::vector<std::string_view>& set) {
    set.clear();
    for (;;) {
      const char* end = *p == '*' ? p + 1 : identifier_end(p);
      if (!end) return nullptr;
      const std::string_view symbol = view(p, end);
      if (!set.empty() && set.back() == "*" && symbol != "*") return nullptr;
      set.push_back(symbol);
      p = blanks(end);
      if (*p != '|') return end;
      p = blanks(p + 1);
    }
  }

  // A list `[a, b]` or one value (expect_default_value, expect_default_list_close).
  const char* default_value(const char* begin, Argument& entry) {
    if (*begin != '[') {
      DefaultValue value;
      const char* p = default_scalar(begin, value);
      if (p) entry.default_value = b_.storage.copy(value);
      return p;
    }
    std::vector<DefaultValue>& items = b_.default_items;
    items.clear();
    const char* p = blanks(begin + 1);
    if (*p != ']') {
      for (;;) {
        if (!(p = default_scalar(p, items.emplace_back()))) return nullptr;
        p = blanks(p);
        if (*p != ',') break;
        p = blanks(p + 1);
      }
      if (*p != ']') return nullptr;
    }
    ++p;
    entry.default_value = b_.store_list_default({offset(begin), offset(p)});
    return p;
  }
  // A decimal number, a quoted string without escapes, or a name (default_scalar).
  const char* default_scalar(const char* begin, DefaultValue& value) {
    const char c = *begin;
    const char* p;
    if (c == '-' || is_digit(c)) {
      bool fraction_or_exponent = false;
      if (!(p = decimal_number(begin, fraction_or_exponent))) return nullptr;
      value.text = view(begin, p);
      value.kind = fraction_or_exponent ? DefaultValue::Kind::Float : DefaultValue::Kind::Int;
    } else if (c == '\'' || c == '"') {
      if (begin[1] == c && begin[2] == c) return nullptr;  // a triple quote
      for (p = begin + 1; *p != c; ++p) {
        if (*p == '\\' || *p == '\n' || *p == '\0') return nullptr;
      }
      ++p;
      value.kind = DefaultValue::Kind::String;
      value.text = view(begin, p);
    } else {
      if (!(p = identifier_end(begin))) return nullptr;
      value.text = view(begin, p);
      if (value.text == "True" || value.text == "False") {
        value.kind = DefaultValue::Kind::Bool;
      } else if (value.text == "None") {
        value.kind = DefaultValue::Kind::None;
      } else {
        value.kind = DefaultValue::Kind::Identifier;
      }
    }
    value.range = {offset(begin), offset(p)};
    return p;
  }
  // -?digits[.digits*][(e|E)[+|-]digits], not followed by a name character (default_number
  // without its blanks after '-', hexadecimal and complex forms).
  // `float_form` tells whether it has a '.' or an exponent (a float, not an int).
  static const char* decimal_number(const char* p, bool& float_form) {
    if (*p == '-') ++p;
    if (!is_digit(*p)) return nullptr;
    while (is_digit(*p)) ++p;
    if (*p == '.') {
      float_form = true;
      ++p;
      while (is_digit(*p)) ++p;
    }
    if (*p == 'e' || *p == 'E') {
      float_form = true;
      ++p;
      if (*p == '+' || *p == '-') ++p;
      if (!is_digit(*p)) return nullptr;
      while (is_digit(*p)) ++p;
    }
    return chars::is(*p, chars::kIdentOther) ? nullptr : p;
  }

  // `(` items `)` or one item (expect_returns; `...` is the grammar's).
  const char* returns(const char* begin) {
    const char* p;
    if (*begin != '(') {
      if (!(p = return_item(begin))) return nullptr;
    } else {
      b_.schema.returns_parenthesized = true;
      p = blanks(begin + 1);
      if (*p != ')') {
        for (;;) {
          if (!(p = return_item(p))) return nullptr;
          p = blanks(p);
          if (*p == ')') break;
          if (*p != ',') return nullptr;
          p = blanks(p + 1);
        }
      }
      ++p;
    }
    b_.schema.returns_range = {offset(begin), offset(p)};
    return p;
  }
  // Type [name]  (return_item)
  const char* return_item(const char* begin) {
    if (return_count_ == kMaxReturns) return nullptr;
    Argument& entry = entries_.returns[return_count_++];
    start_entry(entry, false);
    const char* p = type(begin, entry.type);
    if (!p) return nullptr;
    const char* name = blanks(p);
    if (const char* name_end = identifier_end(name)) {
      entry.name = view(name, name_end);
      entry.name_range = {offset(name), offset(name_end)};
      p = name_end;
    }
    entry.range = {offset(begin), offset(p)};
    return p;
  }
};

}  // namespace

bool fast_parse(std::string_view text, Builder& builder) {
  return FastParser(text, builder).schema(text.data());
}

}  // namespace schemac::schema::detail
