// Running an operator under a recorder (call_recorder.h).
#include "call_recorder.h"

#include <fmt/format.h>

#include <cctype>
#include <optional>

#include "schemac/schema/printer.h"
#include "schemac/value_specs/value_spec.h"

namespace schemac::inspect {

using value_specs::ValueSpecResult, value_specs::parse_value_spec, value_specs::fit_to_type,
    value_specs::value_of_default;

namespace {

// Where NAME ends in `NAME=SPEC` (an identifier, then '='), or npos for a positional SPEC.
size_t argument_name_end(std::string_view spec) {
  size_t i = 0;
  while (i < spec.size() && (std::isalnum(static_cast<unsigned char>(spec[i])) || spec[i] == '_'))
    ++i;
  return i > 0 && i < spec.size() && spec[i] == '=' ? i : std::string_view::npos;
}

}  // namespace

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

void RecordingTracer::on_enter(const dispatch::OperatorHandle& op, keys::DispatchKeySet ks,
                               const dispatch::TableEntry& entry) {
  steps.push_back({depth_++, op.full_name(), ks.highest_priority_key(),
                   entry.kernel.is_valid() ? entry.debug : "(missing)", entry.reason, ks});
}

bool call_recorded(const dispatch::OperatorHandle& op, const std::vector<BuiltArgument>& args,
                   dispatch::Stack& results, std::vector<TracedStep>& steps, std::string& error) {
  results.clear();
  for (const BuiltArgument& a : args) results.push_back(a.value);
  RecordingTracer tracer;
  bool ok = true;
  try {
    TracerScope scope(&tracer);
    op.call_boxed(&results);
  } catch (const std::exception& e) {
    ok = false;
    error = e.what();
  }
  steps = std::move(tracer.steps);
  return ok;
}

}  // namespace schemac::inspect
