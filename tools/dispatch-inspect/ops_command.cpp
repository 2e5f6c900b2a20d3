// `dispatch-inspect ops`: the operators known after loading, with their schemas.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "library_loader.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/table_format.h"

namespace schemac::inspect {
namespace {

struct OpsOptions {
  std::vector<std::string> libraries;
  std::string format = "text";
};

int run_ops(const OpsOptions& o) {
  if (!load_libraries(o.libraries, std::cerr)) return 1;
  const auto ops = dispatch::Dispatcher::singleton().operators();
  if (o.format == "json") {
    std::string out = "{\"operators\":[";
    for (size_t i = 0; i < ops.size(); ++i) {
      const auto& def = ops[i]->definition();
      out += fmt::format("{}{{\"name\":{},\"schema\":{},\"site\":{},\"keys\":[", i ? "," : "",
                         dispatch::json_string(ops[i]->full_name()),
                         def ? dispatch::json_string(def->schema_text) : "null",
                         def ? dispatch::json_string(def->site) : "null");
      const auto keys = ops[i]->keys_with_kernels();
      for (size_t k = 0; k < keys.size(); ++k)
        out += fmt::format("{}{}", k ? "," : "", dispatch::json_string(dispatch::to_string(keys[k])));
      out += "]}";
    }
    std::cout << out << "]}\n";
    return 0;
  }
  for (const dispatch::OperatorEntry* op : ops) {
    const auto& def = op->definition();
    std::cout << (def ? def->schema_text : fmt::format("{} (no schema: only kernels are registered)", op->full_name()))
              << "\n";
  }
  return 0;
}

}  // namespace

void add_ops_command(CLI::App& app) {
  auto options = std::make_shared<OpsOptions>();
  CLI::App* sub = app.add_subcommand("ops", "List the operators known after loading, with their schemas");
  sub->add_option("--load", options->libraries, kLoadHelp);
  sub->add_option("--format", options->format, "text (one schema per line) or json")
      ->check(CLI::IsMember({"text", "json"}));
  sub->footer(
      "Example:\n  dispatch-inspect ops --load build/lib/kernels/libschemac_kernels.so\n"
      "Exit status: 0 success, 1 a library failed to load, 2 usage error.");
  sub->callback([options] { exit_code() = run_ops(*options); });
}

}  // namespace schemac::inspect
