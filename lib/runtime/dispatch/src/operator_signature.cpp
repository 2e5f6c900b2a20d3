// The runtime's view of a schema (operator_signature.h), made with lib/frontend/schema, which is
// linked into the runtime privately: none of its types or symbols leave this library.
#include "schemac/dispatch/operator_signature.h"

#include <cstdint>
#include <memory>
#include <span>

#include <fmt/format.h>

// The standard headers come first, so that only the front end's own inline code (destructors of
// its types) compiled here is hidden, and stays inside this library.
#pragma GCC visibility push(hidden)
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"
#pragma GCC visibility pop

namespace schemac::dispatch {
namespace {

bool is_tensor_type(const schema::Type& t) { return t.is_base(schema::BaseType::Tensor); }

// Tensor, Tensor?, Tensor[] and Tensor?[] arguments carry the keys a call dispatches on.
bool dispatches(const schema::Type& t) {
  if (is_tensor_type(t)) return true;
  if (t.is_optional()) return is_tensor_type(t.element());
  if (t.is_list()) {
    const schema::Type& e = t.element();
    return is_tensor_type(e) || (e.is_optional() && is_tensor_type(e.element()));
  }
  return false;
}

ArgumentSignature argument_signature(const schema::Argument& a) {
  ArgumentSignature out;
  out.name = std::string(a.name);
  out.type = schema::print_type(a.type);
  if (a.default_value) out.default_value = std::string(a.default_value->text);
  out.kwarg_only = a.kwarg_only;
  out.dispatches = dispatches(a.type);
  out.is_mutable = a.type.is_mutable();
  out.optional = a.type.is_optional();
  const schema::Type& t = out.optional ? a.type.element() : a.type;
  if (t.kind == schema::Type::Kind::Base) out.leaf = std::string(t.name);
  return out;
}

}  // namespace

std::optional<OperatorSignature> parse_signature(std::string_view schema_text, std::string* error) {
  schema::ParseResult parsed = schema::parse_schema(schema_text);
  if (!parsed.ok()) {
    if (error)
      *error = fmt::format("{} at column {}", parsed.error->message, parsed.error->offset + 1);
    return std::nullopt;
  }
  const schema::FunctionSchema& s = *parsed.schema;
  OperatorSignature out;
  out.name = std::string(s.op.name);
  out.overload = std::string(s.op.overload);
  out.arguments.reserve(s.arguments.size());
  for (const schema::Argument& a : s.arguments) out.arguments.push_back(argument_signature(a));
  out.returns.reserve(s.returns.size());
  for (const schema::Argument& a : s.returns) out.returns.push_back(argument_signature(a));
  out.is_vararg = s.is_vararg;
  out.is_varret = s.is_varret;
  out.text = schema::print_schema(s);
  return out;
}

std::string operator_full_name(std::string_view name, std::string_view overload) {
  return schema::operator_full_name(name, overload);
}

}  // namespace schemac::dispatch
