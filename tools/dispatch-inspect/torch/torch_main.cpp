// dispatch-inspect-torch: `dispatch-inspect --runtime torch`. The reports of ops, table, dump
// and resolve, read from libtorch's own dispatcher after loading PyTorch extension libraries.
// dispatch-inspect runs this program (from beside itself) when given --runtime torch, so that
// the core tools do not link libtorch.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "torch_registry.h"
#include "torch_resolve.h"

namespace schemac::inspect::torch_runtime {
namespace {

int exit_status = 0;

constexpr const char* kLoadHelp =
    "load a PyTorch extension library (dlopen) before running; repeatable. WARNING: loading a library runs "
    "its code (its TORCH_LIBRARY blocks and static constructors)";

struct Options {
  std::string op;
  std::vector<std::string> libraries;
  std::string format = "text";
  bool all_keys = false;
  std::string keys, include, exclude;
};

void print_table(const c10::OperatorHandle& op, const Options& o) {
  if (o.format == "torch") {
    std::cout << op.dumpComputedTable();
    return;
  }
  const std::vector<TableRow> rows = computed_table(op, o.all_keys);
  if (o.format == "json") {
    nlohmann::json entries = nlohmann::json::array();
    for (const TableRow& r : rows) {
      entries.push_back({{"key", r.key},
                         {"kernel", r.present ? nlohmann::json(r.debug) : nlohmann::json(nullptr)},
                         {"reason", r.reason},
                         {"fallthrough", r.fallthrough},
                         {"site", r.site().empty() ? nlohmann::json(nullptr) : nlohmann::json(r.site())}});
    }
    std::cout << nlohmann::json{{"operator", full_name(op.operator_name())}, {"entries", entries}}.dump() << "\n";
    return;
  }
  // Text: key, reason, and where the kernel was registered (libtorch keeps no kernel names).
  size_t key_width = 3, reason_width = 6;
  for (const TableRow& r : rows) {
    key_width = std::max(key_width, r.key.size());
    reason_width = std::max(reason_width, r.reason.size() + (r.fallthrough ? 14 : 0));
  }
  std::cout << full_name(op.operator_name()) << "\n";
  std::cout << fmt::format("{:<{}}  {:<{}}  {}\n", "key", key_width, "reason", reason_width, "registered");
  for (const TableRow& r : rows) {
    std::cout << fmt::format("{:<{}}  {:<{}}  {}\n", r.key, key_width, r.reason + (r.fallthrough ? " (fallthrough)" : ""),
                             reason_width, r.present ? (r.site().empty() ? r.debug : r.site()) : "-");
  }
}

// dumpState(): "name: ", "schema: ", "debug: ", "alias analysis kind: ", then one line per
// kernel: `Key[alias][ (inactive)]: <debug> :: <inferred schema> [ boxed unboxed ]`.
nlohmann::json dump_json(const c10::OperatorHandle& op) {
  nlohmann::json out = {{"name", full_name(op.operator_name())}, {"schema", nullptr}, {"debug", nullptr},
                        {"alias_analysis", nullptr}, {"kernels", nlohmann::json::array()}};
  std::istringstream lines(op.dumpState());
  for (std::string line; std::getline(lines, line);) {
    for (const auto& [prefix, field] : {std::pair{"schema: ", "schema"}, {"debug: ", "debug"},
                                        {"alias analysis kind: ", "alias_analysis"}}) {
      if (line.rfind(prefix, 0) == 0) out[field] = line.substr(std::string_view(prefix).size());
    }
    const size_t colon = line.find(": ");
    const size_t inferred = line.find(" :: ");
    if (line.rfind("name: ", 0) == 0 || colon == std::string::npos || inferred == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    const bool inactive = key.size() > 11 && key.ends_with(" (inactive)");
    if (inactive) key.resize(key.size() - 11);
    const bool alias = key.ends_with("[alias]");
    if (alias) key.resize(key.size() - 7);
    const size_t kinds = line.rfind(" [");
    std::string inferred_text = line.substr(inferred + 4, kinds - inferred - 4);
    out["kernels"].push_back({{"key", key},
                              {"alias", alias},
                              {"active", !inactive},
                              {"debug", line.substr(colon + 2, inferred - colon - 2)},
                              {"inferred", inferred_text == "(none)" ? nlohmann::json(nullptr)
                                                                     : nlohmann::json(inferred_text)}});
  }
  return out;
}

int run_ops(const Options& o) {
  if (!load_libraries(o.libraries, std::cerr)) return 1;
  std::vector<c10::OperatorName> names = c10::Dispatcher::singleton().getAllOpNames();
  std::sort(names.begin(), names.end(),
            [](const c10::OperatorName& a, const c10::OperatorName& b) { return full_name(a) < full_name(b); });
  nlohmann::json ops = nlohmann::json::array();
  for (const c10::OperatorName& name : names) {
    auto op = c10::Dispatcher::singleton().findOp(name);
    if (!op) continue;
    std::string schema = op->hasSchema() ? c10::toString(op->schema()) : "";
    if (o.format != "json") {
      std::cout << (op->hasSchema() ? schema : full_name(name) + " (no schema: only kernels are registered)")
                << "\n";
      continue;
    }
    nlohmann::json keys = nlohmann::json::array();
    for (c10::DispatchKey k : keys_with_kernels(*op)) keys.push_back(c10::toString(k));
    ops.push_back({{"name", full_name(name)},
                   {"schema", op->hasSchema() ? nlohmann::json(schema) : nlohmann::json(nullptr)},
                   {"keys", keys}});
  }
  if (o.format == "json") std::cout << nlohmann::json{{"operators", ops}}.dump() << "\n";
  return 0;
}

int run_table(const Options& o) {
  if (!load_libraries(o.libraries, std::cerr)) return 1;
  auto op = find_operator(o.op, std::cerr);
  if (!op) return 1;
  print_table(*op, o);
  return 0;
}

int run_dump(const Options& o) {
  if (!load_libraries(o.libraries, std::cerr)) return 1;
  auto op = find_operator(o.op, std::cerr);
  if (!op) return 1;
  if (o.format == "json") {
    std::cout << dump_json(*op).dump() << "\n";
  } else {
    std::cout << op->dumpState();
  }
  return 0;
}

std::string set_text(c10::DispatchKeySet ks) {
  std::ostringstream out;
  out << ks;
  return out.str();
}

int run_resolve(const Options& o) {
  c10::DispatchKeySet keys, include, exclude;
  std::string error;
  for (auto [text, set] : {std::pair{&o.keys, &keys}, {&o.include, &include}, {&o.exclude, &exclude}}) {
    if (!parse_key_list(*text, *set, error)) {
      std::cerr << "dispatch-inspect resolve: error: " << error << "\n";
      return 2;
    }
  }
  if (!load_libraries(o.libraries, std::cerr)) return 1;
  auto op = find_operator(o.op, std::cerr);
  if (!op) return 1;
  const Resolution r = resolve(*op, keys, c10::default_included_set | include,
                               (c10::default_excluded_set - include) | exclude);
  const ResolveStep& win = r.chain.front();
  auto kernel = [](const ResolveStep& s) { return s.entry.present ? s.entry.debug : std::string("(missing)"); };
  if (o.format == "json") {
    nlohmann::json skipped = nlohmann::json::array(), chain = nlohmann::json::array();
    for (c10::DispatchKey k : r.skipped) skipped.push_back(c10::toString(k));
    for (const ResolveStep& s : r.chain) {
      chain.push_back({{"key", c10::toString(s.key)},
                       {"kernel", s.entry.present ? nlohmann::json(s.entry.debug) : nlohmann::json(nullptr)},
                       {"reason", s.entry.reason},
                       {"site", s.entry.site().empty() ? nlohmann::json(nullptr) : nlohmann::json(s.entry.site())},
                       {"key_set", set_text(s.keys)}});
    }
    std::cout << nlohmann::json{{"operator", full_name(op->operator_name())}, {"key_set", set_text(r.after_tls)},
                                {"skipped", skipped}, {"winner", c10::toString(win.key)},
                                {"kernel", chain[0]["kernel"]}, {"reason", win.entry.reason}, {"chain", chain},
                                {"end", r.end}}
                     .dump()
              << "\n";
    return 0;
  }
  std::cout << "operator: " << full_name(op->operator_name()) << "\n";
  std::cout << "key set: " << set_text(r.after_tls) << "\n";
  if (!r.skipped.empty()) {
    std::vector<std::string> names;
    for (c10::DispatchKey k : r.skipped) names.push_back(c10::toString(k));
    std::cout << fmt::format("skipped (fallthrough): {}\n", fmt::join(names, ", "));
  }
  std::cout << fmt::format("winner: {}\nkernel: {}\nreason: {}\nsite: {}\n", c10::toString(win.key), kernel(win),
                           win.entry.reason, win.entry.site().empty() ? "-" : win.entry.site());
  std::vector<std::string> names;
  for (const ResolveStep& s : r.chain) names.push_back(c10::toString(s.key));
  std::cout << fmt::format("chain: {}\n", fmt::join(names, " -> "));
  for (size_t i = 0; i < r.chain.size(); ++i) {
    const ResolveStep& s = r.chain[i];
    std::cout << fmt::format("  {}. {}: {} [{}] with {}\n", i + 1, c10::toString(s.key), kernel(s), s.entry.reason,
                             set_text(s.keys));
  }
  std::cout << "end: " << r.end << "\n";
  return 0;
}

CLI::App* add_command(CLI::App& app, const char* name, const char* help, int (*run)(const Options&),
                      std::shared_ptr<Options> options) {
  CLI::App* sub = app.add_subcommand(name, help);
  sub->add_option("--load", options->libraries, kLoadHelp);
  sub->callback([run, options] { exit_status = run(*options); });
  return sub;
}

}  // namespace
}  // namespace schemac::inspect::torch_runtime

int main(int argc, char** argv) {
  using namespace schemac::inspect::torch_runtime;
  CLI::App app{"dispatch-inspect --runtime torch: libtorch's own dispatch tables, after loading PyTorch extensions"};
  app.require_subcommand(1);
  auto options = std::make_shared<Options>();
  add_command(app, "ops", "List libtorch's operators after loading, with their schemas", run_ops, options)
      ->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  CLI::App* table = add_command(app, "table", "Print libtorch's computed dispatch table of an operator", run_table,
                                options);
  table->add_option("OP", options->op, "the operator, ns::name or ns::name.overload")->required();
  table->add_flag("--all-keys", options->all_keys, "also list runtime keys with no entry (text and json)");
  table->add_option("--format", options->format,
                    "text, torch (byte for byte torch._C._dispatch_dump_table(OP)) or json")
      ->check(CLI::IsMember({"text", "torch", "json"}));
  CLI::App* dump = add_command(app, "dump", "Print libtorch's registration state of an operator", run_dump, options);
  dump->add_option("OP", options->op, "the operator")->required();
  dump->add_option("--format", options->format, "text or torch (torch._C._dispatch_dump(OP)), or json")
      ->check(CLI::IsMember({"text", "torch", "json"}));
  CLI::App* resolve = add_command(app, "resolve", "Which key and kernel a call with a key set reaches, by libtorch's "
                                  "rules", run_resolve, options);
  resolve->add_option("OP", options->op, "the operator")->required();
  resolve->add_option("--keys", options->keys, "the call's key set, comma-separated runtime keys");
  resolve->add_option("--include", options->include, "keys added to the thread-local included set");
  resolve->add_option("--exclude", options->exclude, "keys added to the thread-local excluded set");
  resolve->add_option("--format", options->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return exit_status;
}
