// `dispatch-inspect trace OP --arg SPEC...`: runs the operator on values built from specs and
// prints every kernel that ran, nested calls indented, with the key set it was dispatched on.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "library_loader.h"
#include "operator_command.h"
#include "runtime.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/inspect/answer.h"
#include "schemac/inspect/names.h"
#include "schemac/schema/parser.h"
#include "schemac/support/json.h"
#include "schemac/value_specs/traced_call.h"
#include "schemac/value_specs/value_spec.h"
#include "schemac_adapter.h"

namespace schemac::inspect {

using value_specs::describe_value, value_specs::BuiltArgument, value_specs::TracedStep;

using cli::kExitProblems, support::Json;

namespace {

struct TraceOptions : OperatorCommandOptions {
  std::vector<std::string> args;
  ThreadLocalOptions thread_local_state;
};

std::string trace_text(const std::string& schema_text, const std::vector<BuiltArgument>& args,
                       const std::vector<TracedStep>& steps, const dispatch::Stack* results,
                       const std::string& error) {
  std::string out = fmt::format("trace: {}\n", schema_text);
  for (const BuiltArgument& a : args)
    out += fmt::format("  {} = {}{}\n", a.name, describe_value(a.value),
                       a.from_default ? " (default)" : "");
  out += "kernels that ran:\n";
  for (const TracedStep& s : steps)
    out += fmt::format("{:{}}{} {}: {} [{}] with {}\n", "", 2 + 2 * s.depth, s.op, s.key, s.kernel,
                       s.reason, s.key_set);
  if (results) {
    for (const core::IValue& v : *results) out += fmt::format("result: {}\n", describe_value(v));
  } else {
    out += fmt::format("error: {}\n", error);
  }
  return out;
}

std::string trace_json(const std::string& op_name, const std::vector<BuiltArgument>& args,
                       const std::vector<TracedStep>& steps, const dispatch::Stack* results,
                       const std::string& error) {
  Json arguments = Json::array(), calls = Json::array(), values = Json::array();
  for (const BuiltArgument& a : args)
    arguments.push_back(
        Json{{"name", a.name}, {"value", describe_value(a.value)}, {"default", a.from_default}});
  for (const TracedStep& s : steps)
    calls.push_back(Json{{"depth", s.depth},
                         {"operator", s.op},
                         {"key", s.key},
                         {"kernel", s.kernel},
                         {"reason", s.reason},
                         {"key_set", s.key_set}});
  if (results)
    for (const core::IValue& v : *results) values.push_back(describe_value(v));
  return support::to_json_text(Json{{"operator", op_name},
                                    {"arguments", std::move(arguments)},
                                    {"calls", std::move(calls)},
                                    {"results", std::move(values)},
                                    {"error", results ? Json() : Json(error)}}) +
         "\n";
}

// Runs operator `name` (its libraries loaded) and renders the trace into `out`.
int trace_one(const TraceOptions& o, const Call& call, const std::string& name, std::string& out) {
  const dispatch::OperatorEntry* entry = dispatch::Dispatcher::singleton().find(name);
  if (entry == nullptr) {
    std::cerr << report::unknown_operator_error(
        name, report::operator_names(schemac_runtime().operators()));
    return kExitProblems;
  }
  if (!entry->has_schema()) {
    cli::error("dispatch-inspect",
               "operator '{}' has kernels but no schema, so its arguments are unknown",
               entry->full_name());
    return kExitProblems;
  }
  std::vector<BuiltArgument> args;
  std::string error;
  // The runtime keeps its own view of the schema; the argument builder needs the front end's
  // model (types, defaults), parsed again from the canonical text.
  const schema::ParseResult parsed = schema::parse_schema(entry->definition()->schema_text);
  if (!parsed.ok() || !value_specs::build_arguments(*parsed.schema, o.args, args, error)) {
    cli::error("dispatch-inspect", "{}", error);
    return cli::kExitUsage;
  }
  dispatch::Stack stack;
  std::vector<TracedStep> steps;
  bool ok = false;
  {
    // The thread's sets are those resolve computes from the same options (call_of_request), so
    // that both model one call alike.
    const dispatch::ForceDispatchKeyGuard sets(
        {keys::DispatchKeySet::from_raw(call.included.bits),
         keys::DispatchKeySet::from_raw(call.excluded.bits)});
    ok = value_specs::call_recorded(entry->full_name(), args, stack, steps, error);
  }
  const std::string schema_text = entry->definition()->schema_text;
  out = o.format == "json"
            ? trace_json(entry->full_name(), args, steps, ok ? &stack : nullptr, error)
            : trace_text(schema_text, args, steps, ok ? &stack : nullptr, error);
  return ok ? cli::kExitOk : kExitProblems;
}

int run_trace(const TraceOptions& o) {
  if (const int code = require_our_runtime("trace"); code != cli::kExitOk) return code;
  report::CallSpec thread_local_state;
  o.thread_local_state.into(thread_local_state);
  Call call;
  if (const int code = call_of_request(schemac_runtime(), thread_local_state, call, std::cerr);
      code != cli::kExitOk)
    return code;
  if (!load_libraries(o.libraries, std::cerr)) return kExitProblems;
  return print_each_operator(o, [&](const std::string& op, bool, std::string& out) {
    return trace_one(o, call, op, out);
  });
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto options = std::make_shared<TraceOptions>();
  CLI::App* sub =
      add_operator_command(app,
                           {"trace",
                            "Run an operator on small values and print each kernel that ran, with "
                            "the key set at that step",
                            {"text", "json"},
                            "text or json",
                            "dispatch-inspect trace aten::add.Tensor --load libschemac_kernels.so "
                            "--arg cpu:float32[2,3] "
                            "--arg cpu:float32[2,3]",
                            "a library failed to load, the operator is unknown or the call failed",
                            /*any_runtime=*/false},
                           options, [options] { return run_trace(*options); });
  sub->add_option("--arg", options->args,
                  "an argument, in schema order or as NAME=SPEC; repeatable. SPEC: "
                  "cpu:float32[2,3] (a tensor holding "
                  "1, 2, 3, ...), 3, 2.5, True, False, None, 'text', [0,1], (1, 2), {'a': 1}, "
                  "float16; values nest. "
                  "Missing arguments take their defaults")
      // One SPEC per --arg: the operator name is never taken for one, and a SPEC that is a list
      // ([0,1], [('a','b')]) stays whole (CLI11 2.3 and later split a bracketed value of an option
      // that may take several values).
      ->allow_extra_args(false)
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_thread_local_options(sub, options->thread_local_state);
}

}  // namespace schemac::inspect
