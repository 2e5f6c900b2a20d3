// Answering a request with any runtime (answer.h).
#include "schemac/inspect/answer.h"

#include <map>
#include <ostream>

#include "schemac/elf/elf_check.h"
#include "schemac/inspect/names.h"
#include "schemac/inspect/resolve.h"

namespace schemac::inspect {
namespace {

constexpr int kExitProblems = 1;
constexpr int kExitUsage = 2;

// The operators loading registered: new ones, or ones whose keys with kernels or schema changed
// since `before`; every operator when nothing was loaded. Each with its chain for each of
// `key_sets`, under a fresh thread's included and excluded sets, handed to `each` in name order.
// Returns the walk's rules as data (over the first operator's table: every table lists the same
// runtime keys), empty when no operator was handed on.
report::WalkRules library_of(const Runtime& rt, const report::Operators& before, bool loaded,
                             const std::vector<KeySet>& key_sets, const OperatorSink& each) {
  report::WalkRules walk;
  std::map<std::string, const report::OperatorSummary*> old;
  for (const report::OperatorSummary& op : before.operators) old[op.name] = &op;
  for (report::OperatorSummary& summary : rt.operators().operators) {
    const auto was = old.find(summary.name);
    if (loaded && was != old.end() && was->second->keys == summary.keys &&
        was->second->has_schema == summary.has_schema)
      continue;
    report::Table table = rt.table(summary.name, /*all_keys=*/true);
    std::vector<report::Resolution> chains;
    const bool tensors = rt.takes_tensors(summary.name);
    for (KeySet set : key_sets)
      chains.push_back(
          resolve(rt, table, {set, rt.default_included(), rt.default_excluded(), tensors, "cpu"}));
    report::Dump dump = rt.dump(summary.name);
    if (walk.keys.empty()) walk = walk_rules(rt, table);
    each({std::move(summary), std::move(table), std::move(dump), std::move(chains), tensors});
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
      // libtorch's dispatcher in a Python is the python runtime's too.
      if (!built_for.empty() && built_for != name && !(built_for == "torch" && name == "python"))
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

int call_of_request(const Runtime& rt, const report::Request& r, Call& call, std::ostream& err) {
  std::string error;
  KeySet include, exclude;
  for (auto [text, set] :
       {std::pair{&r.keys, &call.keys}, {&r.include, &include}, {&r.exclude, &exclude}}) {
    if (!parse_key_list(rt, *text, *set, error)) {
      err << kErrorPrefix << error << "\n";
      return kExitUsage;
    }
  }
  call.included = rt.default_included() | include;
  call.excluded = rt.default_excluded() | exclude;
  for (const std::string& device : r.autocast) {
    const auto key = rt.parse_key(report::autocast_key_name(device));
    if (!key || !rt.is_runtime_key(*key)) {
      err << kErrorPrefix << "autocast has no key for device '" << device << "' on the "
          << runtime_name(rt.kind()) << " runtime\n";
      return kExitUsage;
    }
    call.excluded = call.excluded - rt.set_of(*key);
  }
  call.device = r.device.empty() ? "cpu" : r.device;
  if (device_key_name(call.device).empty() || !rt.parse_key(device_key_name(call.device))) {
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
  response.runtime = rt.info();
  Call call;
  if (request.kind == "resolve") response.status = call_of_request(rt, request, call, err);
  std::vector<KeySet> key_sets;
  for (const std::string& text : request.key_sets) {
    std::string error;
    if (response.status == 0 && !parse_key_list(rt, text, key_sets.emplace_back(), error)) {
      err << kErrorPrefix << error << "\n";
      response.status = kExitUsage;
    }
  }
  if (response.status != 0) return response;
  const report::Operators before = request.kind == "library" ? rt.operators() : report::Operators{};
  if (!load_all(rt, request.libraries, request.kind == "library" ? &before : nullptr, err)) {
    response.status = kExitProblems;
    return response;
  }
  if (request.kind == "library") {
    response.library.walk = library_of(rt, before, !request.libraries.empty(), key_sets, each);
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
    response.resolution = resolve(rt, rt.table(request.op, /*all_keys=*/true), call);
  }
  return response;
}

}  // namespace schemac::inspect
