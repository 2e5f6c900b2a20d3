// `dispatch-inspect resolve OP --keys K,...`: the winning key, its kernel and reason, and the
// redispatch chain (resolve.h explains the model).
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "operator_command.h"
#include "resolve.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/support/json.h"

namespace schemac::inspect {
namespace {

struct ResolveOptions {
  std::string keys, include, exclude;
  dispatch::DispatchKeySet key_set, included, excluded;  // parsed from the three above
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

// A JSON string, or null for an empty text.
Json string_or_null(const std::string& text) { return text.empty() ? Json() : Json(text); }

Json step_kernel_json(const ResolveStep& s) { return s.entry->kernel.is_valid() ? Json(s.entry->debug) : Json(); }

void print_json(const dispatch::OperatorEntry& op, const Resolution& r) {
  Json skipped = Json::array();
  for (dispatch::DispatchKey k : r.skipped) skipped.push_back(dispatch::to_string(k));
  Json steps = Json::array();
  for (const ResolveStep& s : r.chain) {
    steps.push_back(Json{{"key", dispatch::to_string(s.key)},
                         {"kernel", step_kernel_json(s)},
                         {"reason", dispatch::to_string(s.entry->reason)},
                         {"site", string_or_null(s.entry->site)},
                         {"key_set", dispatch::to_string(s.keys)}});
  }
  const ResolveStep& win = r.chain.front();
  std::cout << to_json_text(Json{{"operator", op.full_name()},
                                 {"key_set", dispatch::to_string(r.after_tls)},
                                 {"skipped", std::move(skipped)},
                                 {"winner", dispatch::to_string(win.key)},
                                 {"kernel", step_kernel_json(win)},
                                 {"reason", dispatch::to_string(win.entry->reason)},
                                 {"chain", std::move(steps)},
                                 {"end", r.end}})
            << "\n";
}

// The three key lists, parsed; exit 2 on a name that is no runtime key.
int parse_keys(ResolveOptions& o) {
  std::string error;
  for (auto [text, set] : {std::pair{&o.keys, &o.key_set}, {&o.include, &o.included}, {&o.exclude, &o.excluded}}) {
    if (!parse_key_list(*text, *set, error)) {
      cli::error("dispatch-inspect resolve", "{}", error);
      return kExitUsage;
    }
  }
  return kExitOk;
}

int run_resolve(const ResolveOptions& o, const dispatch::OperatorEntry& op, const std::string& format) {
  // A fresh thread's sets plus the requested keys.
  const Resolution r = resolve(op, o.key_set, dispatch::kDefaultIncludedSet | o.included,
                               (dispatch::kDefaultExcludedSet - o.included) | o.excluded);
  if (format == "json") {
    print_json(op, r);
  } else {
    print_text(op, r);
  }
  return kExitOk;
}

}  // namespace

void add_resolve_command(CLI::App& app) {
  auto common = std::make_shared<OperatorCommandOptions>();
  auto options = std::make_shared<ResolveOptions>();
  CLI::App* sub = add_operator_command(
      app,
      {"resolve", "Show which key and kernel a call with a given key set reaches, why, and the redispatch chain",
       {"text", "json"}, "text or json",
       "dispatch-inspect resolve aten::add.Tensor --keys CPU,AutogradCPU --load libschemac_kernels.so\n"
       "The chain assumes every kernel that is not a backend or composite kernel redispatches below its own key."},
      common,
      [common, options](const dispatch::OperatorEntry& op) { return run_resolve(*options, op, common->format); },
      [options] { return parse_keys(*options); });
  sub->add_option("--keys", options->keys,
                  "the call's key set, comma-separated runtime keys (a CPU tensor carries CPU,ADInplaceOrView,AutogradCPU,"
                  "AutocastCPU); empty: no tensor arguments");
  sub->add_option("--include", options->include,
                  "keys added to the thread-local included set (which starts as BackendSelect,ADInplaceOrView); an "
                  "included Autocast key is also taken out of the default excluded set");
  sub->add_option("--exclude", options->exclude,
                  "keys added to the thread-local excluded set (which starts as every Autocast key)");
}

}  // namespace schemac::inspect
