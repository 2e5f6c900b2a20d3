// `dispatch-inspect simulate`: options, checks and the run function.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "input.h"
#include "runtime.h"
#include "simulate.h"

namespace schemac::inspect {
namespace {

struct SimulateCommandOptions {
  std::vector<std::string> keys;
  bool registrations = false;
  bool all_keys = false;
  std::string format = "text";
  std::string script;
};

constexpr std::string_view kCommand = "dispatch-inspect";

int run_simulate(const SimulateCommandOptions& o) {
  if (const int code = require_our_runtime("simulate"); code != cli::kExitOk) return code;
  const auto format = inspect::parse_table_format(o.format);
  if (!o.script.empty()) {
    if (!o.keys.empty()) {
      cli::error(kCommand, "give either KEY... or --script FILE, not both");
      return cli::kExitUsage;
    }
    std::optional<std::string> text = cli::read_input(kCommand, o.script, "script");
    if (!text) return cli::kExitUsage;
    return simulate_script(*text, o.script, *format, std::cout, std::cerr);
  }
  SimulateOptions options;
  options.keys = o.keys;
  options.registrations = o.registrations;
  options.all_keys = o.all_keys;
  options.format = *format;
  return simulate_keys(options, std::cout, std::cerr);
}

}  // namespace

std::function<int()> bind_simulate_command(CLI::App* sub) {
  auto options = std::make_shared<SimulateCommandOptions>();
  sub->add_option("KEY", options->keys,
                  "dispatch keys to register a kernel for (CPU, AutogradCPU, FPGA, ...)");
  sub->add_flag("--registrations", options->registrations,
                "print the registered kernels instead of the computed table");
  sub->add_flag("--all-keys", options->all_keys,
                "show every runtime key with an entry, not only PythonDispatcher's");
  cli::add_format_option(sub, options->format, {"text", "torch", "json"},
                         "text (PythonDispatcher's), torch (raw dumps) or json");
  sub->add_option("--script", options->script,
                  "run a what-if session: lines 'def SCHEMA', 'impl LIB OP KEY KERNEL', 'fallback "
                  "LIB KEY KERNEL', "
                  "'drop LIB', 'table OP', 'dump OP'");
  add_runtime_option(sub, /*hidden=*/true);  // to refuse another runtime with why
  return [options] { return run_simulate(*options); };
}

}  // namespace schemac::inspect
