// Answering a request with any runtime (answer.h).
#include "schemac/inspect/answer.h"

#include <map>
#include <ostream>
#include <sstream>

#include "schemac/elf/elf_check.h"
#include "schemac/inspect/names.h"
#include "schemac/inspect/resolve.h"

namespace schemac::inspect {
namespace {

constexpr int kExitProblems = 1;
constexpr int kExitUsage = 2;

// The operators loading registered: new ones, or ones whose keys with kernels or schema changed
// since `before`; every operator when nothing was loaded. Each with its chain for each of
// `calls` (as calls_for_operator makes it of the operator), handed to `each` in name order.
// Returns the walk's rules as data (over the first operator's table: every table lists the same
// runtime keys), empty when no operator was handed on.
report::WalkRules library_of(const Runtime& rt, const report::Operators& before, bool loaded,
                             const std::vector<report::CallSpec>& calls, const OperatorSink& each) {
  report::WalkRules walk;
  std::map<std::string, const report::OperatorSummary*> old;
  for (const report::OperatorSummary& op : before.operators) old[op.name] = &op;
  for (report::OperatorSummary& summary : rt.operators().operators) {
    const auto was = old.find(summary.name);
    if (loaded && was != old.end() && was->second->keys == summary.keys &&
        was->second->has_schema == summary.has_schema)
      continue;
    report::Table table = rt.table(summary.name, /*all_keys=*/true);
    report::Dump dump = rt.dump(summary.name);
    const bool tensors = rt.takes_tensors(summary.name);
    const bool device = schema_takes_device(dump.schema);
    std::vector<report::Resolution> chains;
    for (const report::CallSpec& spec : calls) {
      Call call;
      std::ostringstream ignored;  // the presets are valid calls (answer checked them)
      call_of_request(rt, call_for_operator(spec, tensors, device), call, ignored);
      call.takes_tensors = tensors;
      chains.push_back(resolve(rt, table, call));
    }
    if (walk.keys.empty()) walk = walk_rules(rt, table);
    each({std::move(summary), std::move(table), std::move(dump), std::move(chains), tensors,
          device});
  }
  return walk;
}

// Whether the operators' names, schemas and keys with kernels are the same.
bool same_operators(const report::Operators& a, const report::Operators& b) {
  if (a.operators.size() != b.operators.size()) return false;
  for (size_t i = 0; i < a.operators.size(); ++i) {
    const report::OperatorSummary &x = a.operators[i], &y = b.operators[i];
    if (x.name != y.name || x.has_schema != y.has_schema || x.keys != y.keys) return false;
  }
  return true;
}

// Loads each library in order; a library that loads but registers nothing with this runtime is
// an error naming the runtime it seems built for. `before`: the operators now, when known.
bool load_all(Runtime& rt, const std::vector<std::string>& libraries,
              const report::Operators* before, std::ostream& err) {
  report::Operators now =
      libraries.empty() || before != nullptr ? report::Operators{} : rt.operators();
  if (before != nullptr) now = *before;
  for (const std::string& path : libraries) {
    const Runtime::Loaded loaded = rt.load(path, err);
    if (loaded == Runtime::Loaded::Failed) return false;
    if (loaded == Runtime::Loaded::Before) continue;
    report::Operators after = rt.operators();
    if (same_operators(now, after)) {
      const std::string_view name = runtime_name(rt.kind());
      const std::string built_for = elf::runtime_built_for(path);
      err << kErrorPrefix << "'" << path << "' registered nothing with the " << name << " runtime";
      if (!built_for.empty() && built_for != name)
        err << ": it seems built for the " << built_for << " runtime (try --runtime " << built_for
            << ")";
      err << "\n";
      return false;
    }
    now = std::move(after);
  }
  return true;
}

}  // namespace

report::CallSpec call_for_operator(const report::CallSpec& spec, bool takes_tensors,
                                   bool takes_device) {
  if (takes_tensors) return spec;
  report::CallSpec out = spec;
  out.keys.clear();
  out.tensors.clear();
  out.inference_tensors.clear();
  const std::vector<std::string>& devices =
      spec.tensors.empty() ? spec.inference_tensors : spec.tensors;
  if (takes_device && out.device.empty() && !devices.empty()) out.device = devices.front();
  if (!takes_device) out.device.clear();
  return out;
}

int call_of_request(const Runtime& rt, const report::CallSpec& r, Call& call, std::ostream& err) {
  std::string error;
  KeySet include, exclude;
  std::string keys = r.keys;
  for (const std::string& device : r.tensors) keys += "," + report::tensor_keys(device);
  KeySet inference_tensors;
  for (const std::string& device : r.inference_tensors) {
    KeySet tensor;
    if (!parse_key_list(rt, report::tensor_keys(device), tensor, error)) break;
    inference_tensors = inference_tensors | tensor;
  }
  for (auto [text, set] : {std::pair<const std::string*, KeySet*>{&keys, &call.keys},
                           {&r.include, &include},
                           {&r.exclude, &exclude}}) {
    if (!error.empty() || !parse_key_list(rt, *text, *set, error)) {
      err << kErrorPrefix << error << "\n";
      return kExitUsage;
    }
  }
  const InferenceMode inference = inference_mode(rt);
  call.keys = call.keys | (inference_tensors - inference.tensor_lacks());
  call.included = rt.default_included();
  call.excluded = rt.default_excluded();
  if (r.inference_mode) {
    call.included = call.included - inference.not_included;
    call.excluded = call.excluded | inference.excluded;
  }
  call.included = call.included | include;
  call.excluded = call.excluded | exclude;
  for (const std::string& device : r.autocast) {
    const auto key = rt.parse_key(report::autocast_key_name(device));
    if (!key || !rt.is_runtime_key(*key)) {
      err << kErrorPrefix << "autocast has no key for device '" << device << "' on the "
          << runtime_name(rt.kind()) << " runtime\n";
      return kExitUsage;
    }
    call.excluded = call.excluded - rt.set_of(*key);
  }
  call.device = r.device;
  if (!call.device.empty() &&
      (device_key_name(call.device).empty() || !rt.parse_key(device_key_name(call.device)))) {
    err << kErrorPrefix << "unknown device '" << call.device << "'\n";
    return kExitUsage;
  }
  return 0;
}

report::Response answer(Runtime& rt, const report::Request& request, std::ostream& err) {
  std::vector<report::OperatorState> operators;
  report::Response response = answer(rt, request, err, [&operators](report::OperatorState&& op) {
    operators.push_back(std::move(op));
  });
  response.library.operators = std::move(operators);
  return response;
}

report::Response answer(Runtime& rt, const report::Request& request, std::ostream& err,
                        const OperatorSink& each) {
  report::Response response;
  Call call;
  if (request.kind == "resolve") response.status = call_of_request(rt, request.call, call, err);
  for (const report::CallSpec& spec : request.calls) {
    Call preset;
    if (response.status == 0) response.status = call_of_request(rt, spec, preset, err);
  }
  const report::Operators before = request.kind == "library" ? rt.operators() : report::Operators{};
  if (!load_all(rt, request.libraries, request.kind == "library" ? &before : nullptr, err)) {
    response.status = kExitProblems;
    return response;
  }
  if (request.kind == "library") {
    response.library.walk = library_of(rt, before, !request.libraries.empty(), request.calls, each);
  } else if (request.kind == "operators") {
    response.operators = rt.operators();
  } else if (!rt.has_operator(request.op)) {
    err << report::unknown_operator_error(request.op, report::operator_names(rt.operators()));
    err << rt.unknown_operator_hint(request.libraries);
    response.status = kExitProblems;
  } else if (request.kind == "table") {
    response.table = rt.table(request.op, request.all_keys);
  } else if (request.kind == "dump") {
    response.dump = rt.dump(request.op);
  } else {
    call.takes_tensors = rt.takes_tensors(request.op);
    const report::CallSpec& spec = request.call;
    const std::string refusal =
        call_refusal(request.op, call.takes_tensors, rt.takes_device(request.op),
                     !call.keys.empty(), !spec.device.empty());
    if (!refusal.empty() && request.several) {
      response.refused = refusal;
    } else if (!refusal.empty()) {
      err << kErrorPrefix << refusal << "\n";
      response.status = kExitUsage;
    } else {
      response.resolution = resolve(rt, rt.table(request.op, /*all_keys=*/true), call);
    }
  }
  return response;
}

}  // namespace schemac::inspect
