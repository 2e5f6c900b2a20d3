// `dispatch-inspect resolve OP --keys K,...`: the winning key, its kernel and reason, and the
// redispatch chain (resolve.h explains the model).
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "library_loader.h"
#include "operator_lookup.h"
#include "resolve.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/table_format.h"

namespace schemac::inspect {
namespace {

using dispatch::json_string;

struct ResolveOptions {
  std::string op;
  std::vector<std::string> libraries;
  std::string keys, include, exclude;
  std::string format = "text";
};

std::string key_names(const std::vector<dispatch::DispatchKey>& keys) {
  std::vector<std::string_view> names;
  for (dispatch::DispatchKey k : keys) names.push_back(dispatch::to_string(k));
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string step_kernel(const ResolveStep& s) {
  if (!s.entry->kernel.is_valid()) return "(missing)";
  return s.entry->debug;
}

void print_text(const dispatch::OperatorEntry& op, const Resolution& r) {
  std::cout << fmt::format("operator: {}\n", op.full_name());
  std::cout << fmt::format("key set: {}\n", dispatch::to_string(r.after_tls));
  if (!r.skipped.empty()) std::cout << fmt::format("skipped (fallthrough): {}\n", key_names(r.skipped));
  const ResolveStep& win = r.chain.front();
  std::cout << fmt::format("winner: {}\nkernel: {}\nreason: {}\nsite: {}\n", dispatch::to_string(win.key),
                           step_kernel(win), dispatch::to_string(win.entry->reason),
                           win.entry->site.empty() ? "-" : win.entry->site);
  std::vector<dispatch::DispatchKey> keys;
  for (const ResolveStep& s : r.chain) keys.push_back(s.key);
  std::vector<std::string_view> names;
  for (dispatch::DispatchKey k : keys) names.push_back(dispatch::to_string(k));
  std::cout << fmt::format("chain: {}\n", fmt::join(names, " -> "));
  for (size_t i = 0; i < r.chain.size(); ++i) {
    const ResolveStep& s = r.chain[i];
    std::cout << fmt::format("  {}. {}: {} [{}] with {}\n", i + 1, dispatch::to_string(s.key), step_kernel(s),
                             dispatch::to_string(s.entry->reason), dispatch::to_string(s.keys));
  }
  std::cout << fmt::format("end: {}\n", r.end);
}

void print_json(const dispatch::OperatorEntry& op, const Resolution& r) {
  std::vector<std::string> skipped;
  for (dispatch::DispatchKey k : r.skipped) skipped.push_back(json_string(dispatch::to_string(k)));
  std::vector<std::string> steps;
  for (const ResolveStep& s : r.chain)
    steps.push_back(fmt::format("{{\"key\":{},\"kernel\":{},\"reason\":{},\"site\":{},\"key_set\":{}}}",
                                json_string(dispatch::to_string(s.key)),
                                s.entry->kernel.is_valid() ? json_string(s.entry->debug) : "null",
                                json_string(dispatch::to_string(s.entry->reason)),
                                s.entry->site.empty() ? "null" : json_string(s.entry->site),
                                json_string(dispatch::to_string(s.keys))));
  const ResolveStep& win = r.chain.front();
  std::cout << fmt::format(
      "{{\"operator\":{},\"key_set\":{},\"skipped\":[{}],\"winner\":{},\"kernel\":{},\"reason\":{},\"chain\":[{}],"
      "\"end\":{}}}\n",
      json_string(op.full_name()), json_string(dispatch::to_string(r.after_tls)), fmt::join(skipped, ","),
      json_string(dispatch::to_string(win.key)), win.entry->kernel.is_valid() ? json_string(win.entry->debug) : "null",
      json_string(dispatch::to_string(win.entry->reason)), fmt::join(steps, ","), json_string(r.end));
}

int run_resolve(const ResolveOptions& o) {
  dispatch::DispatchKeySet keys, include, exclude;
  std::string error;
  for (auto [text, set] : {std::pair{&o.keys, &keys}, {&o.include, &include}, {&o.exclude, &exclude}}) {
    if (!parse_key_list(*text, *set, error)) {
      std::cerr << fmt::format("dispatch-inspect resolve: error: {}\n", error);
      return 2;
    }
  }
  if (!load_libraries(o.libraries, std::cerr)) return 1;
  const dispatch::OperatorEntry* op = find_operator_or_explain(o.op, std::cerr);
  if (op == nullptr) return 1;
  // A fresh thread's sets plus the requested keys.
  const Resolution r = resolve(*op, keys, dispatch::kDefaultIncludedSet | include,
                               (dispatch::kDefaultExcludedSet - include) | exclude);
  if (o.format == "json") {
    print_json(*op, r);
  } else {
    print_text(*op, r);
  }
  return 0;
}

}  // namespace

void add_resolve_command(CLI::App& app) {
  auto options = std::make_shared<ResolveOptions>();
  CLI::App* sub = app.add_subcommand(
      "resolve", "Show which key and kernel a call with a given key set reaches, why, and the redispatch chain");
  sub->add_option("OP", options->op, "the operator, ns::name or ns::name.overload")->required();
  sub->add_option("--keys", options->keys,
                  "the call's key set, comma-separated runtime keys (a CPU tensor carries CPU,ADInplaceOrView,AutogradCPU,"
                  "AutocastCPU); empty: no tensor arguments");
  sub->add_option("--include", options->include,
                  "keys added to the thread-local included set (which starts as BackendSelect,ADInplaceOrView); an "
                  "included Autocast key is also taken out of the default excluded set");
  sub->add_option("--exclude", options->exclude,
                  "keys added to the thread-local excluded set (which starts as every Autocast key)");
  sub->add_option("--load", options->libraries, kLoadHelp);
  sub->add_option("--format", options->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->footer(
      "Example:\n  dispatch-inspect resolve aten::add.Tensor --keys CPU,AutogradCPU --load libschemac_kernels.so\n"
      "The chain assumes every kernel that is not a backend or composite kernel redispatches below its own key.\n"
      "Exit status: 0 success, 1 a library failed to load or the operator is unknown, 2 usage error.");
  sub->callback([options] { exit_code() = run_resolve(*options); });
}

}  // namespace schemac::inspect
