// What the composite operators of a report call (callees.h), by tracing each once.
#include "callees.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "schemac/dispatch/dispatcher.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"
#include "schemac/value_specs/traced_call.h"

namespace schemac::inspect {
namespace {

bool has_composite_kernel(const report::OperatorState& op) {
  return std::any_of(op.table.rows.begin(), op.table.rows.end(), [](const report::TableRow& r) {
    return r.has_kernel &&
           (report::is_composite(r.reason) || r.reason == report::Reason::DefaultBackendKernel);
  });
}

// A step that ran a composite kernel (its reason as the runtime prints it).
bool composite(const value_specs::TracedStep& step) {
  const std::optional<report::Reason> reason = report::parse_reason(step.reason);
  return reason &&
         (report::is_composite(*reason) || *reason == report::Reason::DefaultBackendKernel);
}

// The operators `op`'s composite kernel called (the calls made from inside its own frames),
// or why they are unknown.
report_page::OperatorCalls callees_of(const dispatch::OperatorEntry& entry) {
  report_page::OperatorCalls out{entry.full_name(), {}, ""};
  const schema::ParseResult parsed = schema::parse_schema(entry.definition()->schema_text);
  if (!parsed.ok()) {
    out.unknown = "its schema does not parse";
    return out;
  }
  std::vector<std::string> specs;
  for (const schema::Argument& a : parsed.schema->arguments) {
    if (a.default_value) continue;
    const std::optional<std::string> spec = value_specs::spec_from_type(a.type);
    if (!spec) {
      out.unknown = fmt::format("no value of '{}' ({}) can be made from the schema alone", a.name,
                                schema::print_type(a.type));
      return out;
    }
    specs.push_back(fmt::format("{}={}", a.name, *spec));
  }
  std::vector<value_specs::BuiltArgument> args;
  std::string error;
  if (!value_specs::build_arguments(*parsed.schema, specs, args, error)) {
    out.unknown = error;
    return out;
  }
  std::vector<core::IValue> results;
  std::vector<value_specs::TracedStep> steps;
  if (!value_specs::call_recorded(out.op, args, results, steps, error)) {
    out.unknown = fmt::format("a call on cpu float [2,2] tensors failed: {}", error);
    return out;
  }
  // The frames of the operator itself (its redispatches too); a call made from one of them is
  // a callee.
  std::vector<bool> own;
  bool reached = false;
  for (const value_specs::TracedStep& s : steps) {
    own.resize(static_cast<size_t>(s.depth) + 1);
    own[s.depth] = s.op == out.op;
    reached = reached || (s.op == out.op && composite(s));
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

std::vector<report_page::OperatorCalls> composite_callees(const report::Library& library) {
  std::vector<report_page::OperatorCalls> out;
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
