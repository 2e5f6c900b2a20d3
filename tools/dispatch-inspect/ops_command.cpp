// `dispatch-inspect ops`: the operators known after loading, with their schemas.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "library_loader.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/support/json.h"

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
    Json operators = Json::array();
    for (const dispatch::OperatorEntry* op : ops) {
      const auto& def = op->definition();
      Json keys = Json::array();
      for (dispatch::DispatchKey key : op->keys_with_kernels()) keys.push_back(dispatch::to_string(key));
      operators.push_back(Json{{"name", op->full_name()},
                               {"schema", def ? Json(def->schema_text) : Json()},
                               {"site", def ? Json(def->site) : Json()},
                               {"keys", std::move(keys)}});
    }
    std::cout << to_json_text(Json{{"operators", std::move(operators)}}) << "\n";
    return kExitOk;
  }
  for (const dispatch::OperatorEntry* op : ops) {
    const auto& def = op->definition();
    std::cout << (def ? def->schema_text : fmt::format("{} (no schema: only kernels are registered)", op->full_name()))
              << "\n";
  }
  return 0;
}

}  // namespace

std::function<int()> bind_ops_command(CLI::App* sub) {
  auto options = std::make_shared<OpsOptions>();
  // One value per --load: `--load LIB OP` leaves OP to the positional (a vector option would take it).
  sub->add_option("--load", options->libraries, kLoadHelp)->allow_extra_args(false);
  cli::add_format_option(sub, options->format, {"text", "json"}, "text (one schema per line) or json");
  return [options] { return run_ops(*options); };
}

}  // namespace schemac::inspect
