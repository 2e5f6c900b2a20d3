#include "python_hints.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace schemac::custom_op_inference {

using tokens::Token, tokens::TokenKind, tokens::TokenRange, tokens::TokenStream, tokens::is_punct,
    tokens::matching_close;

namespace {

using Kind = Hint::Kind;

constexpr int kMaxDepth = 32;  // nested brackets, aliases and string annotations

// Dotted paths (after the imports are applied) of the types infer_schema's tables name. A bare
// name that the file never imports counts too: PyTorch's own examples lean on star imports.
constexpr auto kBaseTypes = std::to_array<std::pair<std::string_view, std::string_view>>({
    {"torch.Tensor", "Tensor"},
    {"torch._tensor.Tensor", "Tensor"},
    {"Tensor", "Tensor"},
    {"int", "int"},
    {"builtins.int", "int"},
    {"float", "float"},
    {"builtins.float", "float"},
    {"bool", "bool"},
    {"builtins.bool", "bool"},
    {"str", "str"},
    {"builtins.str", "str"},
    {"torch.dtype", "dtype"},
    {"dtype", "dtype"},
    {"torch.device", "device"},
    {"device", "device"},
    {"torch.types.Number", "Number"},
    {"Number", "Number"},
    {"torch.distributed.distributed_c10d.GroupName", "GroupName"},
    {"torch.distributed.GroupName", "GroupName"},
    {"GroupName", "GroupName"},
});

constexpr auto kGenerics = std::to_array<std::pair<std::string_view, std::string_view>>({
    {"typing.Optional", "Optional"},
    {"Optional", "Optional"},
    {"typing.Union", "Union"},
    {"Union", "Union"},
    {"typing.List", "list"},
    {"List", "list"},
    {"list", "list"},
    {"builtins.list", "list"},
    {"typing.Sequence", "sequence"},
    {"Sequence", "sequence"},
    {"collections.abc.Sequence", "sequence"},
    {"typing.Tuple", "Tuple"},
    {"Tuple", "Tuple"},
    {"tuple", "tuple"},
    {"builtins.tuple", "tuple"},
});

// Modules whose names PyTorch's table would see as the real thing: a name from them that is not
// in the table is a type infer_schema rejects, not one defined elsewhere.
constexpr auto kKnownModules = std::to_array<std::string_view>(
    {"torch.", "typing.", "collections.", "builtins.", "numbers.", "types.", "enum."});
constexpr auto kOtherBuiltins = std::to_array<std::string_view>(
    {"dict", "set", "frozenset", "object", "complex", "bytes", "bytearray", "type", "Any", "Dict",
     "Set", "Callable", "Literal", "Annotated", "Iterable", "Mapping", "Any"});

template <size_t N>
std::optional<std::string_view> lookup(
    const std::array<std::pair<std::string_view, std::string_view>, N>& table,
    std::string_view key) {
  for (const auto& [path, value] : table) {
    if (path == key) return value;
  }
  return std::nullopt;
}

Hint make(Kind kind, std::string name = "", std::string written = "", std::vector<Hint> args = {}) {
  return Hint{kind, std::move(name), std::move(written), std::move(args)};
}

// The identity of a hint, for Union's flattening and comparisons.
std::string key(const Hint& hint) {
  switch (hint.kind) {
    case Kind::base: return hint.name;
    case Kind::none: return "None";
    case Kind::ellipsis: return "...";
    case Kind::other: return "?" + hint.written;
    case Kind::unknown: return "!" + hint.written;
    case Kind::list:
    case Kind::tuple:
    case Kind::union_of: break;
  }
  std::vector<std::string> parts;
  for (const Hint& arg : hint.args) parts.push_back(key(arg));
  if (hint.kind == Kind::union_of) std::sort(parts.begin(), parts.end());
  std::string out = hint.kind == Kind::union_of ? "U["
                    : hint.kind == Kind::tuple  ? "T["
                                                : hint.name + "[";
  for (const std::string& part : parts) out += part + ",";
  return out + "]";
}

// torch.types.Number is Union[int, float, bool]; Python compares unions as sets.
Hint number() {
  return make(Kind::union_of, "", "",
              {make(Kind::base, "int"), make(Kind::base, "float"), make(Kind::base, "bool")});
}

Hint make_union(const std::vector<Hint>& members) {
  std::vector<Hint> flat;
  std::vector<std::string> seen;
  auto add = [&](const Hint& h) {
    std::string k = key(h);
    if (std::find(seen.begin(), seen.end(), k) == seen.end()) {
      seen.push_back(k);
      flat.push_back(h);
    }
  };
  for (const Hint& member : members) {
    if (member.kind == Kind::union_of) {
      for (const Hint& inner : member.args) add(inner);
    } else {
      add(member);
    }
  }
  if (flat.size() == 1) return flat[0];
  return make(Kind::union_of, "", "", std::move(flat));
}

bool is_base(const Hint& hint, std::string_view name) {
  return hint.kind == Kind::base && hint.name == name;
}
bool is_number(const Hint& hint) { return key(hint) == key(number()); }

std::string written_text(const std::vector<Token>& tokens, TokenRange range) {
  std::string out;
  for (size_t i = range.begin; i < range.end && out.size() < 200; ++i) {
    if (tokens[i].kind == TokenKind::string) {
      out += "'...'";
    } else {
      out += tokens[i].text;
    }
  }
  return out;
}

// The members of a Union, without None: "Scalar" for Number; a single member; or none.
std::optional<Hint> without_none(const Hint& hint, bool* had_none) {
  *had_none = false;
  if (hint.kind != Kind::union_of) return hint;
  std::vector<Hint> rest;
  for (const Hint& member : hint.args) {
    if (member.kind == Kind::none) {
      *had_none = true;
    } else {
      rest.push_back(member);
    }
  }
  if (rest.size() == 1) return rest[0];
  Hint joined = make_union(rest);
  if (is_number(joined)) return joined;
  return std::nullopt;
}

std::optional<std::string> plain_type(const Hint& hint) {
  if (is_number(hint)) return "Scalar";
  if (hint.kind != Kind::base) return std::nullopt;
  if (hint.name == "Tensor") return "Tensor";
  if (hint.name == "int") return "SymInt";
  if (hint.name == "float" || hint.name == "bool" || hint.name == "str") return hint.name;
  if (hint.name == "dtype") return "ScalarType";
  if (hint.name == "device") return "Device";
  if (hint.name == "GroupName") return "str";
  return std::nullopt;
}

// The element types that have a list form, and the list forms that have an optional form.
bool has_list_form(const Hint& element) {
  return is_base(element, "Tensor") || is_base(element, "int") || is_base(element, "float") ||
         is_base(element, "bool") || is_number(element);
}
bool has_optional_list_form(const Hint& element) {
  return is_base(element, "int") || is_base(element, "float") || is_base(element, "bool");
}

std::optional<std::string> list_type(const Hint& hint) {
  if (hint.kind != Kind::list || hint.args.size() != 1) return std::nullopt;
  const Hint& element = hint.args[0];
  if (has_list_form(element)) return *plain_type(element) + "[]";
  bool had_none = false;
  std::optional<Hint> inner = without_none(element, &had_none);
  if (had_none && inner && is_base(*inner, "Tensor")) return "Tensor?[]";
  return std::nullopt;
}

}  // namespace

Hint HintReader::read(const TokenStream& stream, TokenRange range, int depth) const {
  const std::vector<Token>& tokens = stream.tokens;
  if (depth > kMaxDepth) return make(Kind::unknown, "", "the hint nests too deeply to read");
  // X | Y | None: split at top-level '|'.
  std::vector<Hint> members;
  size_t start = range.begin;
  for (size_t i = range.begin; i <= range.end; ++i) {
    if (i < range.end) {
      size_t close = matching_close(tokens, i);
      if (close < range.end) {
        i = close;
        continue;
      }
    }
    if (i == range.end || is_punct(tokens[i], "|")) {
      members.push_back(read_primary(stream, {start, i}, depth + 1));
      start = i + 1;
    }
  }
  return members.size() == 1 ? members[0] : make_union(members);
}

Hint HintReader::read_primary(const TokenStream& stream, TokenRange range, int depth) const {
  const std::vector<Token>& tokens = stream.tokens;
  if (range.empty()) return make(Kind::other, "", "(nothing)");
  const Token& first = tokens[range.begin];
  if (range.end - range.begin == 1 && first.kind == TokenKind::string) {
    const tokens::StringLiteral& literal = stream.literals[first.literal];
    if (!literal.is_static) return make(Kind::unknown, "", "an f-string annotation");
    TokenStream inner = tokens::lex_python(literal.value.text());
    return read(inner, {0, inner.tokens.size()}, depth + 1);
  }
  if (range.end - range.begin == 3 && is_punct(first, ".") &&
      is_punct(tokens[range.begin + 1], ".") && is_punct(tokens[range.begin + 2], ".")) {
    return make(Kind::ellipsis);
  }
  if (is_punct(first, "(") && matching_close(tokens, range.begin) == range.end - 1) {
    if (range.end - range.begin == 2) return make(Kind::tuple);  // the () of tuple[()]
    return read(stream, {range.begin + 1, range.end - 1}, depth + 1);
  }
  // A dotted name, maybe subscripted.
  size_t i = range.begin;
  std::string dotted;
  while (i < range.end && (tokens[i].kind == TokenKind::identifier || is_punct(tokens[i], "."))) {
    dotted += tokens[i].text;
    ++i;
  }
  if (dotted.empty() || dotted.front() == '.' || dotted.back() == '.') {
    return make(Kind::other, "", written_text(tokens, range));
  }
  if (i == range.end) {
    Hint named = read_name(dotted, depth);
    if (named.kind == Kind::list && named.args.empty())
      return make(Kind::other, "", dotted);  // List alone
    if (named.kind == Kind::other && named.name == "Tuple") return make(Kind::tuple, "bare");
    return named;
  }
  if (!is_punct(tokens[i], "[") || matching_close(tokens, i) != range.end - 1) {
    return make(Kind::other, "", written_text(tokens, range));
  }
  Hint origin = read_name(dotted, depth);
  std::vector<Hint> args;
  for (const tokens::CallArgument& argument : tokens::call_arguments(tokens, i, false)) {
    args.push_back(read(stream, argument.range, depth + 1));
  }
  std::string written = written_text(tokens, range);
  if (origin.kind == Kind::unknown) return origin;
  if (origin.name == "Optional" && args.size() == 1) return make_union({args[0], make(Kind::none)});
  if (origin.name == "Union" && !args.empty()) return make_union(args);
  if ((origin.name == "list" || origin.name == "sequence") && args.size() == 1) {
    return make(Kind::list, origin.name, written, std::move(args));
  }
  if (origin.name == "Tuple" || origin.name == "tuple") {
    // tuple[()] is the empty tuple.
    if (args.size() == 1 && args[0].kind == Kind::tuple && args[0].args.empty()) args.clear();
    return make(Kind::tuple, "", written, std::move(args));
  }
  return make(Kind::other, "", written);
}

Hint HintReader::read_name(const std::string& dotted, int depth) const {
  std::string root = dotted.substr(0, dotted.find('.'));
  std::string rest = dotted.substr(root.size());
  auto imported = module_.imports.find(root);
  std::string path = imported != module_.imports.end() ? imported->second + rest : dotted;
  if (path.rfind("typing_extensions.", 0) == 0) path = "typing." + path.substr(18);
  if (path == "None") return make(Kind::none);
  if (std::optional<std::string_view> base = lookup(kBaseTypes, path)) {
    return *base == "Number" ? number() : make(Kind::base, std::string(*base));
  }
  if (std::optional<std::string_view> generic = lookup(kGenerics, path)) {
    std::string name(*generic);
    if (name == "list" || name == "sequence") return make(Kind::list, name, dotted);
    return make(Kind::other, name, dotted);
  }
  if (imported == module_.imports.end() && rest.empty()) {
    auto alias = module_.assignments.find(root);
    if (alias != module_.assignments.end() && depth < kMaxDepth) {
      return read(*module_.stream, alias->second, depth + 1);
    }
    if (module_.classes.count(root)) return make(Kind::other, "", dotted);
  }
  for (std::string_view known : kKnownModules) {
    if (path.rfind(known, 0) == 0) return make(Kind::other, "", dotted);
  }
  for (std::string_view builtin : kOtherBuiltins) {
    if (path == builtin) return make(Kind::other, "", dotted);
  }
  if (imported != module_.imports.end()) {
    return make(
        Kind::unknown, "",
        "'" + dotted + "' is imported from '" + imported->second + "', which is not read here");
  }
  return make(Kind::unknown, "", "'" + dotted + "' is not defined in this file");
}

const Hint* find_unknown(const Hint& hint) {
  if (hint.kind == Kind::unknown) return &hint;
  for (const Hint& arg : hint.args) {
    if (const Hint* found = find_unknown(arg)) return found;
  }
  return nullptr;
}

std::optional<std::string> parameter_schema_type(const Hint& hint) {
  if (std::optional<std::string> plain = plain_type(hint)) return plain;
  if (std::optional<std::string> list = list_type(hint)) return list;
  bool had_none = false;
  std::optional<Hint> inner = without_none(hint, &had_none);
  if (!had_none || !inner) return std::nullopt;
  if (std::optional<std::string> plain = plain_type(*inner)) return *plain + "?";
  if (inner->kind == Kind::list && inner->args.size() == 1 &&
      has_optional_list_form(inner->args[0])) {
    return *plain_type(inner->args[0]) + "[]?";
  }
  return std::nullopt;
}

namespace {

std::optional<std::string> single_return_type(const Hint& hint) {
  if (is_base(hint, "Tensor")) return "Tensor";
  if (hint.kind == Kind::list && hint.name == "list" && hint.args.size() == 1 &&
      is_base(hint.args[0], "Tensor")) {
    return "Tensor[]";
  }
  if (is_base(hint, "int")) return "SymInt";
  if (is_base(hint, "float") || is_base(hint, "bool")) return hint.name;
  if (is_number(hint)) return "Scalar";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> return_schema_type(const Hint& hint) {
  if (hint.kind == Kind::none) return "()";
  if (hint.kind != Kind::tuple) return single_return_type(hint);
  std::string joined;
  for (const Hint& element : hint.args) {
    std::optional<std::string> type = single_return_type(element);
    if (!type) return std::nullopt;
    joined += (joined.empty() ? "" : ", ") + *type;
  }
  if (hint.args.size() == 1) joined = "(" + joined + ")";
  return "(" + joined + ")";
}

std::string describe(const Hint& hint) {
  switch (hint.kind) {
    case Kind::base: return hint.name;
    case Kind::none: return "None";
    case Kind::ellipsis: return "...";
    case Kind::other:
    case Kind::unknown: return hint.written;
    case Kind::list:
    case Kind::tuple:
    case Kind::union_of: break;
  }
  if (is_number(hint)) return "Number";
  std::string out = hint.kind == Kind::list    ? (hint.name == "list" ? "list[" : "Sequence[")
                    : hint.kind == Kind::tuple ? "tuple["
                                               : "";
  for (size_t i = 0; i < hint.args.size(); ++i) {
    if (i > 0) out += hint.kind == Kind::union_of ? " | " : ", ";
    out += describe(hint.args[i]);
  }
  return hint.kind == Kind::union_of ? out : out + "]";
}

}  // namespace schemac::custom_op_inference
