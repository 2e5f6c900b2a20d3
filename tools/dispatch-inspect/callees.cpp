// What the composite operators of a report call (callees.h), by tracing each once.
#include "callees.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "call_recorder.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

namespace schemac::inspect {
namespace {

constexpr std::string_view kTensor = "cpu:float32[2,2]";

bool composite(dispatch::EntryReason reason) {
  return reason == dispatch::EntryReason::MathKernel ||
         reason == dispatch::EntryReason::NestedKernel ||
         reason == dispatch::EntryReason::DefaultBackendKernel;
}

bool has_composite_kernel(const report::OperatorState& op) {
  return std::any_of(op.table.rows.begin(), op.table.rows.end(), [](const report::TableRow& r) {
    return r.has_kernel &&
           (report::is_composite(r.reason) || r.reason == report::Reason::DefaultBackendKernel);
  });
}

// A value spec for an argument of `type` without a default, or nullopt when its type alone
// says nothing usable (a string, a device, a generator...).
std::optional<std::string> spec_for(const schema::Type& type) {
  using schema::BaseType;
  if (type.is_optional()) return "None";
  if (type.is_list()) {
    const schema::Type& e = type.element();
    if (e.is_base(BaseType::Tensor)) return fmt::format("[{}]", kTensor);
    if (e.is_base(BaseType::Int) || e.is_base(BaseType::SymInt)) return "[2,2]";
    return std::nullopt;
  }
  if (type.kind != schema::Type::Kind::Base) return std::nullopt;
  switch (type.base) {
    case BaseType::Tensor: return std::string(kTensor);
    case BaseType::Int:
    case BaseType::SymInt:
    case BaseType::Scalar: return "1";
    case BaseType::Float:
    case BaseType::SymFloat: return "1.0";
    case BaseType::Bool:
    case BaseType::SymBool: return "False";
    case BaseType::ScalarType: return "float32";
    default: return std::nullopt;
  }
}

// The operators `op`'s composite kernel called (the calls made from inside its own frames),
// or why they are unknown.
report::OperatorCalls callees_of(const dispatch::OperatorEntry& entry) {
  report::OperatorCalls out{entry.full_name(), {}, ""};
  const schema::ParseResult parsed = schema::parse_schema(entry.definition()->schema_text);
  if (!parsed.ok()) {
    out.unknown = "its schema does not parse";
    return out;
  }
  std::vector<std::string> specs;
  for (const schema::Argument& a : parsed.schema->arguments) {
    if (a.default_value) continue;
    const std::optional<std::string> spec = spec_for(a.type);
    if (!spec) {
      out.unknown = fmt::format("no value of '{}' ({}) can be made from the schema alone", a.name,
                                schema::print_type(a.type));
      return out;
    }
    specs.push_back(fmt::format("{}={}", a.name, *spec));
  }
  std::vector<BuiltArgument> args;
  std::string error;
  if (!build_arguments(*parsed.schema, specs, args, error)) {
    out.unknown = error;
    return out;
  }
  const dispatch::OperatorHandle handle(const_cast<dispatch::OperatorEntry*>(&entry));
  dispatch::Stack results;
  std::vector<TracedStep> steps;
  if (!call_recorded(handle, args, results, steps, error)) {
    out.unknown = fmt::format("a call on cpu float [2,2] tensors failed: {}", error);
    return out;
  }
  // The frames of the operator itself (its redispatches too); a call made from one of them is
  // a callee.
  std::vector<bool> own;
  bool reached = false;
  for (const TracedStep& s : steps) {
    own.resize(static_cast<size_t>(s.depth) + 1);
    own[s.depth] = s.op == out.op;
    reached = reached || (s.op == out.op && composite(s.reason));
    if (s.depth > 0 && own[s.depth - 1] && s.op != out.op &&
        std::find(out.calls.begin(), out.calls.end(), s.op) == out.calls.end())
      out.calls.push_back(s.op);
  }
  if (!reached) {
    out.calls.clear();
    out.unknown = "a call on cpu tensors does not reach its composite kernel";
  }
  return out;
}

}  // namespace

std::vector<report::OperatorCalls> composite_callees(const report::Library& library) {
  std::vector<report::OperatorCalls> out;
  for (const report::OperatorState& op : library.operators) {
    if (!has_composite_kernel(op)) continue;
    const dispatch::OperatorEntry* entry = dispatch::Dispatcher::singleton().find(op.summary.name);
    if (entry == nullptr || !entry->has_schema()) {
      out.push_back({op.summary.name, {}, "it has no schema, so its arguments are unknown"});
      continue;
    }
    out.push_back(callees_of(*entry));
  }
  return out;
}

}  // namespace schemac::inspect
