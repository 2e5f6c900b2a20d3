// An operator called under a recorder (traced_call.h).
#include "schemac/value_specs/traced_call.h"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <optional>

#include "schemac/dispatch/call_trace.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/schema/printer.h"
#include "schemac/value_specs/value_spec.h"

namespace schemac::value_specs {
namespace {

constexpr std::string_view kTensor = "cpu:float32[2,2]";

// Records each call in order, with its nesting depth.
class RecordingTracer : public dispatch::CallTracer {
 public:
  void on_enter(const dispatch::OperatorHandle& op, keys::DispatchKeySet ks,
                const dispatch::TableEntry& entry) override {
    steps.push_back({depth_++, op.full_name(),
                     std::string(dispatch::to_string(ks.highest_priority_key())),
                     entry.kernel.is_valid() ? entry.debug : "(missing)",
                     std::string(dispatch::to_string(entry.reason)), dispatch::to_string(ks)});
  }
  void on_leave() override { --depth_; }
  std::vector<TracedStep> steps;

 private:
  int depth_ = 0;
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

std::optional<std::string> spec_from_type(const schema::Type& type) {
  using schema::BaseType;
  if (type.is_optional()) return "None";
  if (type.is_list()) {
    const schema::Type& e = type.element();
    if (e.is_base(BaseType::Tensor)) return fmt::format("[{}]", kTensor);
    if (e.is_base(BaseType::Int) || e.is_base(BaseType::SymInt)) return "[2,2]";
    return std::nullopt;
  }
  static const std::map<BaseType, std::string_view> kSpecs = {
      {BaseType::Tensor, kTensor}, {BaseType::Int, "1"},         {BaseType::SymInt, "1"},
      {BaseType::Scalar, "1"},     {BaseType::Float, "1.0"},     {BaseType::SymFloat, "1.0"},
      {BaseType::Bool, "False"},   {BaseType::SymBool, "False"}, {BaseType::ScalarType, "float32"}};
  const auto found = kSpecs.find(type.base);
  if (type.kind != schema::Type::Kind::Base || found == kSpecs.end()) return std::nullopt;
  return std::string(found->second);
}

bool call_recorded(const std::string& op, const std::vector<BuiltArgument>& args,
                   std::vector<core::IValue>& results, std::vector<TracedStep>& steps,
                   std::string& error) {
  dispatch::OperatorEntry* entry = dispatch::Dispatcher::singleton().find(op);
  if (entry == nullptr) {
    error = fmt::format("no operator '{}'", op);
    return false;
  }
  const dispatch::OperatorHandle handle(entry);
  results.clear();
  for (const BuiltArgument& a : args) results.push_back(a.value);
  RecordingTracer tracer;
  bool ok = true;
  try {
    TracerScope scope(&tracer);
    handle.call_boxed(&results);
  } catch (const std::exception& e) {
    ok = false;
    error = e.what();
  }
  steps = std::move(tracer.steps);
  return ok;
}

}  // namespace schemac::value_specs
