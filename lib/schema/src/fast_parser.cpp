// The fast path of the parser (fast_parser.h). Each function below reads what one grammar rule of
// schema_grammar.h reads and fills the model as that rule's action in parser.cpp does; where the
// text is not what the function reads, it returns false and the grammar reads the schema instead.
// tests/schema/fast_parser_test.cpp checks that the two build the same model.
#include "fast_parser.h"

#include <charconv>
#include <cstring>
#include <span>

#include "base_type_names.h"
#include "schema_grammar.h"

namespace schemac::schema::detail {
namespace {

namespace chars = grammar::chars;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class FastParser {
 public:
  FastParser(std::string_view text, Builder& b)
      : b_(b), p_(text.data()), end_(text.data() + text.size()) {}

  // schema: name ( arguments ) -> returns, blanks between the tokens.
  bool schema() {
    blanks();
    if (!operator_name()) return false;
    blanks();
    if (*p_ != '(' || !arguments()) return false;
    blanks();
    if (p_[0] != '-' || p_[1] != '>') return false;
    p_ += 2;
    blanks();
    if (!returns()) return false;
    blanks();
    return p_ == end_;  // a comment, trailing text or a NUL byte: the grammar decides
  }

 private:
  Builder& b_;
  const char* p_;
  const char* end_;

  uint32_t offset(const char* at) const { return static_cast<uint32_t>(at - b_.base); }
  static std::string_view view(const char* begin, const char* end) {
    return {begin, static_cast<size_t>(end - begin)};
  }
  void blanks() {
    while (chars::is(*p_, chars::kBlank)) ++p_;
  }
  // The end of the identifier at `at`, or null when none starts there.
  static const char* identifier_end(const char* at) {
    if (!chars::is(*at, chars::kIdentFirst)) return nullptr;
    std::size_t length = 1;
    for (std::size_t run = 16; run == 16; length += run) run = chars::identifier_run(at + length);
    return at + length;
  }

  // [ns::]name[.overload], no blanks inside (qualified_name, expect_operator_name).
  bool operator_name() {
    const char* begin = p_;
    const char* end = identifier_end(p_);
    if (!end) return false;
    if (end[0] == ':') {
      if (end[1] != ':' || !(end = identifier_end(end + 2))) return false;
    }
    b_.schema.op.name = view(begin, end);
    if (*end == '.') {
      const char* overload = end + 1;
      if (!(end = identifier_end(overload))) return false;
      b_.schema.op.overload = view(overload, end);
    }
    b_.schema.op.range = {offset(begin), offset(end)};
    p_ = end;
    return true;
  }

  // `(` then `)` or items separated by `,` (arguments).
  bool arguments() {
    ++p_;
    blanks();
    if (*p_ == ')') {
      ++p_;
      return true;
    }
    for (;;) {
      if (!argument_item()) return false;
      blanks();
      if (*p_ == ')') break;
      if (*p_ != ',') return false;
      ++p_;
      blanks();
    }
    ++p_;
    return true;
  }

  // `*` or Type name [= default] (argument_item; `...` is the grammar's).
  bool argument_item() {
    if (*p_ == '*') {
      FunctionSchema& schema = b_.schema;
      if (schema.kwarg_markers == 0) schema.kwarg_marker_offset = offset(p_);
      if (schema.kwarg_markers < UINT8_MAX) ++schema.kwarg_markers;
      b_.kwarg_only = true;
      ++p_;
      return true;
    }
    const char* begin = p_;
    Argument& entry = b_.schema.arguments.emplace_back();
    entry.kwarg_only = b_.kwarg_only;
    if (!type(entry.type)) return false;
    blanks();
    const char* name_end = identifier_end(p_);
    if (!name_end) return false;
    entry.name = view(p_, name_end);
    entry.name_range = {offset(p_), offset(name_end)};
    p_ = name_end;
    const char* before_default = p_;
    blanks();
    if (*p_ == '=') {
      ++p_;
      blanks();
      if (!default_value(entry)) return false;
    } else {
      p_ = before_default;
    }
    entry.range = {offset(begin), offset(p_)};
    return true;
  }

  // A type name, an optional alias annotation, then any run of `[]`, `[N]` (each maybe with an
  // annotation) and `?` (type; containers are the grammar's).
  bool type(Type& type) {
    const char* begin = p_;
    const char* end = identifier_end(p_);
    if (!end) return false;
    while (end[0] == '.' && chars::is(end[1], chars::kIdentFirst)) end = identifier_end(end + 1);
    const std::string_view name = view(begin, end);
    if (is_container_keyword(name)) return false;
    type.name = name;
    type.base = base_type_of(name);
    type.range = {offset(begin), offset(end)};
    p_ = end;
    if (!maybe_alias(type)) return false;
    int depth = 0;
    for (;;) {
      const char* before_suffix = p_;
      blanks();
      if (*p_ == '[') {
        ++p_;
        blanks();
        std::optional<int64_t> size;
        if (is_digit(*p_)) {
          const char* digits = p_;
          while (is_digit(*p_)) ++p_;
          int64_t value = 0;
          auto [stop, ec] = std::from_chars(digits, p_, value);
          if (ec != std::errc() || stop != p_) return false;
          size = value;
          blanks();
        }
        if (*p_ != ']') return false;
        ++p_;
        if (!wrap(type, Type::Kind::List, ++depth)) return false;
        type.fixed_size = size;
        if (!maybe_alias(type)) return false;
      } else if (*p_ == '?') {
        ++p_;
        if (!wrap(type, Type::Kind::Optional, ++depth)) return false;
      } else {
        p_ = before_suffix;
        return true;
      }
    }
  }
  static bool is_container_keyword(std::string_view name) {
    switch (name[0]) {
      case 'F': return name == "Future";
      case 'R': return name == "RRef";
      case 'A': return name == "Await";
      case 'D': return name == "Dict";
      case 'U': return name == "Union";
      default: return false;
    }
  }
  // The type read so far becomes the element of a new List or Optional node (Builder::wrap_type).
  bool wrap(Type& type, Type::Kind kind, int depth) {
    if (depth > Builder::kMaxTypeDepth) return false;
    const Type* element = b_.storage.copy(type);
    type = Type{};
    type.kind = kind;
    type.range = {element->range.begin, offset(p_)};
    type.elem = element;
    return true;
  }

  // Blanks and an alias annotation `(...)`, or nothing (opt<ws, alias>; a bare `!` is the
  // grammar's).
  bool maybe_alias(Type& type) {
    const char* before = p_;
    blanks();
    if (*p_ == '(') return alias_annotation(type);
    if (*p_ == '!') return false;
    p_ = before;
    return true;
  }
  // (a) (a!) (a|b) (a! -> a|b) (a -> *)  (alias_annotation)
  bool alias_annotation(Type& type) {
    AliasInfo info;
    const char* begin = p_;
    ++p_;
    blanks();
    if (!alias_set(b_.alias_before)) return false;
    blanks();
    if (*p_ == '!') {
      info.is_write = true;
      ++p_;
      blanks();
    }
    if (p_[0] == '-' && p_[1] == '>') {
      info.has_arrow = true;
      p_ += 2;
      blanks();
      if (!alias_set(b_.alias_after)) return false;
      blanks();
    }
    if (*p_ != ')') return false;
    ++p_;
    info.range = {offset(begin), offset(p_)};
    info.before = b_.storage.copy(std::span<const std::string_view>(b_.alias_before));
    info.after = info.has_arrow
                     ? b_.storage.copy(std::span<const std::string_view>(b_.alias_after))
                     : info.before;
    type.alias = b_.storage.copy(info);
    return true;
  }
  // symbol { | symbol } with symbol a name or `*`; after `*` only `*` (add_alias_symbol).
  bool alias_set(std::vector<std::string_view>& set) {
    set.clear();
    for (;;) {
      const char* end = *p_ == '*' ? p_ + 1 : identifier_end(p_);
      if (!end) return false;
      const std::string_view symbol = view(p_, end);
      if (!set.empty() && set.back() == "*" && symbol != "*") return false;
      set.push_back(symbol);
      p_ = end;
      const char* before_bar = p_;
      blanks();
      if (*p_ != '|') {
        p_ = before_bar;
        return true;
      }
      ++p_;
      blanks();
    }
  }

  // A list `[a, b]` or one value (expect_default_value, expect_default_list_close).
  bool default_value(Argument& entry) {
    if (*p_ != '[') {
      DefaultValue value;
      if (!default_scalar(value)) return false;
      entry.default_value = b_.storage.copy(value);
      return true;
    }
    const char* begin = p_;
    std::vector<DefaultValue>& items = b_.default_items;
    items.clear();
    ++p_;
    blanks();
    if (*p_ != ']') {
      for (;;) {
        if (!default_scalar(items.emplace_back())) return false;
        blanks();
        if (*p_ != ',') break;
        ++p_;
        blanks();
      }
      if (*p_ != ']') return false;
    }
    ++p_;
    DefaultValue list;
    list.kind = DefaultValue::Kind::List;
    list.items = b_.storage.copy(std::span<const DefaultValue>(items));
    // The canonical text, "[0,1]" for `[0, 1]`.
    size_t size = 2 + (items.empty() ? 0 : items.size() - 1);
    for (const DefaultValue& item : items) size += item.text.size();
    char* text = b_.storage.allocate_chars(size);
    char* out = text;
    *out++ = '[';
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) *out++ = ',';
      std::memcpy(out, items[i].text.data(), items[i].text.size());
      out += items[i].text.size();
    }
    *out = ']';
    list.text = std::string_view(text, size);
    list.range = {offset(begin), offset(p_)};
    entry.default_value = b_.storage.copy(list);
    return true;
  }
  // A decimal number, a quoted string without escapes, or a name (default_scalar).
  bool default_scalar(DefaultValue& value) {
    const char* begin = p_;
    const char c = *p_;
    if (c == '-' || is_digit(c)) {
      if (!decimal_number()) return false;
      value.text = view(begin, p_);
      value.kind = value.text.find_first_of(".eE") != std::string_view::npos
                       ? DefaultValue::Kind::Float
                       : DefaultValue::Kind::Int;
    } else if (c == '\'' || c == '"') {
      if (p_[1] == c && p_[2] == c) return false;  // a triple quote
      const char* q = p_ + 1;
      for (; *q != c; ++q) {
        if (*q == '\\' || *q == '\n' || *q == '\0') return false;
      }
      p_ = q + 1;
      value.kind = DefaultValue::Kind::String;
      value.text = view(begin, p_);
    } else {
      const char* end = identifier_end(p_);
      if (!end) return false;
      p_ = end;
      value.text = view(begin, end);
      if (value.text == "True" || value.text == "False") {
        value.kind = DefaultValue::Kind::Bool;
      } else if (value.text == "None") {
        value.kind = DefaultValue::Kind::None;
      } else {
        value.kind = DefaultValue::Kind::Identifier;
      }
    }
    value.range = {offset(begin), offset(p_)};
    return true;
  }
  // -?digits[.digits*][(e|E)[+|-]digits], not followed by a name character (default_number
  // without its blanks after '-', hexadecimal and complex forms).
  bool decimal_number() {
    if (*p_ == '-') ++p_;
    if (!is_digit(*p_)) return false;
    while (is_digit(*p_)) ++p_;
    if (*p_ == '.') {
      ++p_;
      while (is_digit(*p_)) ++p_;
    }
    if (*p_ == 'e' || *p_ == 'E') {
      const char* q = p_ + 1;
      if (*q == '+' || *q == '-') ++q;
      if (!is_digit(*q)) return false;
      while (is_digit(*q)) ++q;
      p_ = q;
    }
    return !chars::is(*p_, chars::kIdentOther);
  }

  // `(` items `)` or one item (expect_returns; `...` is the grammar's).
  bool returns() {
    const char* begin = p_;
    if (*p_ != '(') {
      if (!return_item()) return false;
    } else {
      b_.schema.returns_parenthesized = true;
      ++p_;
      blanks();
      if (*p_ != ')') {
        for (;;) {
          if (!return_item()) return false;
          blanks();
          if (*p_ == ')') break;
          if (*p_ != ',') return false;
          ++p_;
          blanks();
        }
      }
      ++p_;
    }
    b_.schema.returns_range = {offset(begin), offset(p_)};
    return true;
  }
  // Type [name]  (return_item)
  bool return_item() {
    const char* begin = p_;
    Argument& entry = b_.schema.returns.emplace_back();
    if (!type(entry.type)) return false;
    const char* before_name = p_;
    blanks();
    if (const char* name_end = identifier_end(p_)) {
      entry.name = view(p_, name_end);
      entry.name_range = {offset(p_), offset(name_end)};
      p_ = name_end;
    } else {
      p_ = before_name;
    }
    entry.range = {offset(begin), offset(p_)};
    return true;
  }
};

}  // namespace

bool fast_parse(std::string_view text, Builder& builder) {
  return FastParser(text, builder).schema();
}

}  // namespace schemac::schema::detail
