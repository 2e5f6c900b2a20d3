// An operator called on values from specs, under a recorder: what `dispatch-inspect trace` runs
// (arguments from --arg specs) and what `report` runs to see what a composite kernel calls
// (arguments made from the schema alone). The arguments are built from value specs
// (value_spec.h) and schema defaults; every dispatcher call that follows is recorded in order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "schemac/core/ivalue.h"
#include "schemac/schema/model.h"

namespace schemac::value_specs {

// One kernel that ran, as the runtime prints its parts.
struct TracedStep {
  int depth;            // 0: the call itself; 1: a call made from its kernel...
  std::string op;       // "aten::mm"
  std::string key;      // the key whose entry ran
  std::string kernel;   // its debug text, or "(missing)"
  std::string reason;   // the entry's reason ("math kernel")
  std::string key_set;  // "DispatchKeySet(CPU, AutogradCPU)"
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

// A spec for an argument of `type` made from the type alone: a cpu:float32[2,2] tensor, 1 for a
// number or Scalar, None for an optional, [2,2] for sizes; nullopt where the type says nothing
// usable (a string, a device, a generator...).
std::optional<std::string> spec_from_type(const schema::Type& type);

// Calls operator `op` (registered with our dispatcher, with a schema) with `args` under a
// recorder: `steps` every kernel that ran; `results` its results, or false with the exception's
// message in `error`.
bool call_recorded(const std::string& op, const std::vector<BuiltArgument>& args,
                   std::vector<core::IValue>& results, std::vector<TracedStep>& steps,
                   std::string& error);

}  // namespace schemac::value_specs
