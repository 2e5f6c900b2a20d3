// Running an operator under a recorder, shared by `trace` (arguments from --arg specs) and
// `report` (arguments made from the schema alone, to see what a composite kernel calls): the
// arguments built from value specs and schema defaults, and every dispatcher call in order.
#pragma once

#include <string>
#include <vector>

#include "schemac/dispatch/call_trace.h"
#include "schemac/dispatch/operator_handle.h"
#include "schemac/schema/model.h"

namespace schemac::inspect {

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
                const dispatch::TableEntry& entry) override;
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

struct BuiltArgument {
  std::string name;
  core::IValue value;
  bool from_default = false;
};

// The arguments in schema order: `specs` first (positional SPEC, or NAME=SPEC, as trace's --arg
// takes them), then defaults. False with `error` saying which argument did not work and why.
bool build_arguments(const schema::FunctionSchema& s, const std::vector<std::string>& specs,
                     std::vector<BuiltArgument>& out, std::string& error);

// Calls `op` with `args` (boxed) under a recorder: `steps` every kernel that ran; the results,
// or false with the exception's message in `error`.
bool call_recorded(const dispatch::OperatorHandle& op, const std::vector<BuiltArgument>& args,
                   dispatch::Stack& results, std::vector<TracedStep>& steps, std::string& error);

}  // namespace schemac::inspect
