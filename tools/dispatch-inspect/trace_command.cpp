// `dispatch-inspect trace OP --arg SPEC...`: runs the operator on values built from specs and
// prints every kernel that ran, nested calls indented, with the key set it was dispatched on.
#include <fmt/format.h>

#include <cctype>
#include <iostream>
#include <memory>

#include "commands.h"
#include "library_loader.h"
#include "operator_command.h"
#include "runtime.h"
#include "schemac/dispatch/call_trace.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/inspect/answer.h"
#include "schemac/inspect/names.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"
#include "schemac/support/json.h"
#include "schemac/value_specs/value_spec.h"
#include "schemac_adapter.h"

namespace schemac::inspect {

using value_specs::ValueSpecResult, value_specs::parse_value_spec, value_specs::fit_to_type,
    value_specs::value_of_default, value_specs::describe_value;

using cli::kExitProblems, support::Json;

namespace {

struct TraceOptions : OperatorCommandOptions {
  std::vector<std::string> args;
  ThreadLocalOptions thread_local_state;
};

struct TracedStep {
  int depth;
  std::string op;
  keys::DispatchKey key;
  std::string kernel;
  dispatch::EntryReason reason;
  keys::DispatchKeySet keys;
};

// Records each call in order, with its nesting depth.
class RecordingTracer : public dispatch::CallTracer {
 public:
  void on_enter(const dispatch::OperatorHandle& op, keys::DispatchKeySet ks,
                const dispatch::TableEntry& entry) override {
    steps.push_back({depth_++, op.full_name(), ks.highest_priority_key(),
                     entry.kernel.is_valid() ? entry.debug : "(missing)", entry.reason, ks});
  }
  void on_leave() override { --depth_; }
  std::vector<TracedStep> steps;

 private:
  int depth_ = 0;
};

// Makes the thread's included and excluded sets those of `call` for its scope: the sets resolve
// computes from the same options (call_of_request), so that both model one call alike.
class ThreadLocalScope {
 public:
  explicit ThreadLocalScope(const Call& call) : previous_(dispatch::tls_local_dispatch_key_set()) {
    dispatch::set_tls_local_dispatch_key_set({keys::DispatchKeySet::from_raw(call.included.bits),
                                              keys::DispatchKeySet::from_raw(call.excluded.bits)});
  }
  ~ThreadLocalScope() { dispatch::set_tls_local_dispatch_key_set(previous_); }
  ThreadLocalScope(const ThreadLocalScope&) = delete;
  ThreadLocalScope& operator=(const ThreadLocalScope&) = delete;

 private:
  dispatch::LocalDispatchKeySet previous_;
};

// Installs a tracer for its scope.
class TracerScope {
 public:
  explicit TracerScope(dispatch::CallTracer* tracer)
      : previous_(dispatch::set_call_tracer(tracer)) {}
  ~TracerScope() { dispatch::set_call_tracer(previous_); }
  TracerScope(const TracerScope&) = delete;
  TracerScope& operator=(const TracerScope&) = delete;

 private:
  dispatch::CallTracer* previous_;
};

struct BuiltArgument {
  std::string name;
  core::IValue value;
  bool from_default = false;
};

// Where NAME ends in `NAME=SPEC` (an identifier, then '='), or npos for a positional SPEC.
size_t argument_name_end(std::string_view spec) {
  size_t i = 0;
  while (i < spec.size() && (std::isalnum(static_cast<unsigned char>(spec[i])) || spec[i] == '_'))
    ++i;
  return i > 0 && i < spec.size() && spec[i] == '=' ? i : std::string_view::npos;
}

// The arguments in schema order: --arg values first (positional, or NAME=SPEC), then defaults.
bool build_arguments(const schema::FunctionSchema& s, const std::vector<std::string>& specs,
                     std::vector<BuiltArgument>& out, std::string& error) {
  std::vector<std::optional<core::IValue>> values(s.arguments.size());
  size_t next = 0;
  for (const std::string& spec : specs) {
    size_t index = next;
    std::string_view text = spec;
    if (const size_t eq = argument_name_end(spec); eq != std::string::npos) {
      const std::string name = spec.substr(0, eq);
      index = s.arguments.size();
      for (size_t i = 0; i < s.arguments.size(); ++i)
        if (s.arguments[i].name == name) index = i;
      if (index == s.arguments.size()) {
        error = fmt::format("'{}' has no argument named '{}'", s.op.name, name);
        return false;
      }
      text = std::string_view(spec).substr(eq + 1);
    } else {
      next = index + 1;
    }
    if (index >= s.arguments.size()) {
      error = fmt::format("too many arguments: '{}' takes {}", s.op.name, s.arguments.size());
      return false;
    }
    ValueSpecResult v = parse_value_spec(text);
    if (!v.ok()) {
      error = fmt::format("argument '{}': {}", s.arguments[index].name, v.error);
      return false;
    }
    ValueSpecResult fitted = fit_to_type(*v.value, s.arguments[index].type);
    if (!fitted.ok()) {
      error = fmt::format("argument '{}': {}", s.arguments[index].name, fitted.error);
      return false;
    }
    values[index] = std::move(*fitted.value);
  }
  for (size_t i = 0; i < s.arguments.size(); ++i) {
    const schema::Argument& a = s.arguments[i];
    if (values[i]) {
      out.push_back({std::string(a.name), std::move(*values[i]), false});
      continue;
    }
    if (!a.default_value) {
      error = fmt::format("argument '{}' ({}) has no value and no default; give it with --arg",
                          a.name, schema::print_type(a.type));
      return false;
    }
    ValueSpecResult v = value_of_default(*a.default_value);
    if (!v.ok()) {
      error = fmt::format("argument '{}': {}", a.name, v.error);
      return false;
    }
    out.push_back({std::string(a.name), std::move(*v.value), true});
  }
  return true;
}

std::string trace_text(const std::string& schema_text, const std::vector<BuiltArgument>& args,
                       const std::vector<TracedStep>& steps, const dispatch::Stack* results,
                       const std::string& error) {
  std::string out = fmt::format("trace: {}\n", schema_text);
  for (const BuiltArgument& a : args)
    out += fmt::format("  {} = {}{}\n", a.name, describe_value(a.value),
                       a.from_default ? " (default)" : "");
  out += "kernels that ran:\n";
  for (const TracedStep& s : steps)
    out += fmt::format("{:{}}{} {}: {} [{}] with {}\n", "", 2 + 2 * s.depth, s.op,
                       dispatch::to_string(s.key), s.kernel, dispatch::to_string(s.reason),
                       dispatch::to_string(s.keys));
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
                         {"key", dispatch::to_string(s.key)},
                         {"kernel", s.kernel},
                         {"reason", dispatch::to_string(s.reason)},
                         {"key_set", dispatch::to_string(s.keys)}});
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
  if (!parsed.ok() || !build_arguments(*parsed.schema, o.args, args, error)) {
    cli::error("dispatch-inspect", "{}", error);
    return cli::kExitUsage;
  }
  const dispatch::OperatorHandle op(const_cast<dispatch::OperatorEntry*>(entry));
  dispatch::Stack stack;
  for (const BuiltArgument& a : args) stack.push_back(a.value);
  RecordingTracer tracer;
  bool ok = true;
  try {
    ThreadLocalScope thread_local_state(call);
    TracerScope scope(&tracer);
    op.call_boxed(&stack);
  } catch (const std::exception& e) {
    ok = false;
    error = e.what();
  }
  const std::string schema_text = entry->definition()->schema_text;
  out = o.format == "json"
            ? trace_json(entry->full_name(), args, tracer.steps, ok ? &stack : nullptr, error)
            : trace_text(schema_text, args, tracer.steps, ok ? &stack : nullptr, error);
  return ok ? cli::kExitOk : kExitProblems;
}

int run_trace(const TraceOptions& o) {
  if (const int code = require_our_runtime("trace"); code != cli::kExitOk) return code;
  report::Request thread_local_request;
  thread_local_request.include = o.thread_local_state.include;
  thread_local_request.exclude = o.thread_local_state.exclude;
  thread_local_request.autocast = o.thread_local_state.autocast;
  Call call;
  if (const int code = call_of_request(schemac_runtime(), thread_local_request, call, std::cerr);
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
      ->allow_extra_args(false);  // one SPEC per --arg: the operator name is never taken for one
  add_thread_local_options(sub, options->thread_local_state);
}

}  // namespace schemac::inspect
