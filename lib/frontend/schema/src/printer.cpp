// The canonical printing of a schema: one space after each ',', one space around '->', nothing
// else between tokens; names, numbers and strings exactly as they were written.
#include "schemac/schema/printer.h"

#include <span>
#include <string_view>

namespace schemac::schema {
namespace {

void append_set(std::string& out, std::span<const std::string_view> set) {
  for (size_t i = 0; i < set.size(); ++i) {
    if (i) out += '|';
    out += set[i];
  }
}

void append_alias(std::string& out, const AliasInfo& alias) {
  if (alias.is_fresh || (alias.before.empty() && alias.is_write && !alias.has_arrow)) {
    out += '!';  // the bare form
    return;
  }
  out += '(';
  append_set(out, alias.before);
  if (alias.is_write) out += '!';
  if (alias.has_arrow) {
    out += " -> ";
    append_set(out, alias.after);
  }
  out += ')';
}

std::string_view container_keyword(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::Dict: return "Dict";
    case Type::Kind::Union: return "Union";
    case Type::Kind::Future: return "Future";
    case Type::Kind::RRef: return "RRef";
    case Type::Kind::Await: return "Await";
    default: return "";  // a tuple is just the parentheses
  }
}

void append_type(std::string& out, const Type& type, bool with_aliases = true) {
  switch (type.kind) {
    case Type::Kind::Base: out += type.name; break;
    case Type::Kind::Optional:
      append_type(out, type.element(), with_aliases);
      out += '?';
      break;
    case Type::Kind::List:
      append_type(out, type.element(), with_aliases);
      out += '[';
      if (type.fixed_size) out += std::to_string(*type.fixed_size);
      out += ']';
      break;
    case Type::Kind::Tuple:
    case Type::Kind::Dict:
    case Type::Kind::Union:
    case Type::Kind::Future:
    case Type::Kind::RRef:
    case Type::Kind::Await:
      out += container_keyword(type.kind);
      out += '(';
      for (size_t i = 0; i < type.item_count; ++i) {
        if (i) out += ", ";
        append_type(out, type.items[i], with_aliases);
      }
      out += ')';
      break;
  }
  if (type.alias && with_aliases) append_alias(out, *type.alias);
}

void append_argument(std::string& out, const Argument& argument) {
  append_type(out, argument.type);
  if (!argument.name.empty()) {
    out += ' ';
    out += argument.name;
  }
  if (argument.default_value) {
    out += '=';
    out += argument.default_value->text;
  }
}

}  // namespace

namespace {
// What `append` writes into an empty string.
template <typename Append>
std::string printed(Append append) {
  std::string out;
  append(out);
  return out;
}
}  // namespace

std::string print_alias(const AliasInfo& alias) {
  return printed([&](std::string& out) { append_alias(out, alias); });
}

std::string print_type(const Type& type) {
  return printed([&](std::string& out) { append_type(out, type); });
}

std::string print_type_without_aliases(const Type& type) {
  return printed([&](std::string& out) { append_type(out, type, /*with_aliases=*/false); });
}

std::string print_argument(const Argument& argument) {
  return printed([&](std::string& out) { append_argument(out, argument); });
}

std::string print_schema(const FunctionSchema& schema) {
  std::string out;
  out.reserve(128);
  out += schema.op.name;
  if (!schema.op.overload.empty()) {
    out += '.';
    out += schema.op.overload;
  }
  out += '(';
  bool first = true;
  bool in_kwargs = false;
  for (const Argument& argument : schema.arguments) {
    if (!first) out += ", ";
    first = false;
    if (argument.kwarg_only && !in_kwargs) {
      out += "*, ";
      in_kwargs = true;
    }
    append_argument(out, argument);
  }
  if (schema.trailing_kwarg_marker && !in_kwargs) {
    out += first ? "*" : ", *";
    first = false;
  }
  if (schema.is_vararg) out += first ? "..." : ", ...";
  out += ") -> ";

  // One tuple-typed return needs the parentheses: `-> (int, int)` is two returns.
  bool parenthesize = schema.returns_parenthesized || schema.returns.size() != 1 ||
                      (schema.is_varret && !schema.returns.empty()) ||
                      schema.returns.front().type.kind == Type::Kind::Tuple;
  if (schema.is_varret && schema.returns.empty() && !schema.returns_parenthesized) {
    out += "...";
    return out;
  }
  if (parenthesize) out += '(';
  first = true;
  for (const Argument& ret : schema.returns) {
    if (!first) out += ", ";
    first = false;
    append_argument(out, ret);
  }
  if (schema.is_varret) out += first ? "..." : ", ...";
  if (parenthesize) out += ')';
  return out;
}

}  // namespace schemac::schema
