// `dispatch-inspect ops`: the operators known after loading, with their schemas.
#include <iostream>
#include <memory>

#include "commands.h"
#include "library_loader.h"
#include "runtime.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect {
namespace {

struct OpsOptions {
  std::vector<std::string> libraries;
  std::string format = "text";
};

int run_ops(const OpsOptions& o) {
  report::Request request;
  request.kind = "operators";
  request.libraries = o.libraries;
  const report::Response answer = ask(request);
  if (answer.status != cli::kExitOk) return answer.status;
  std::cout << with_answerer(
      o.format == "json" ? report::json_text(report::operators_json(answer.operators)) + "\n"
                         : report::operators_text(answer.operators),
      o.format);
  return cli::kExitOk;
}

}  // namespace

std::function<int()> bind_ops_command(CLI::App* sub) {
  auto options = std::make_shared<OpsOptions>();
  // One value per --load: `--load LIB OP` leaves OP to the positional (a vector option would take
  // it).
  sub->add_option("--load", options->libraries, kLoadHelp)->allow_extra_args(false);
  cli::add_format_option(sub, options->format, {"text", "json"},
                         "text (one schema per line) or json");
  add_runtime_option(sub);
  return [options] { return run_ops(*options); };
}

}  // namespace schemac::inspect
