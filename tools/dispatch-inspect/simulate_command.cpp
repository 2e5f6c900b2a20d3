// `dispatch-inspect simulate`: options, checks and the run function.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.h"
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

int run_simulate(const SimulateCommandOptions& o) {
  const auto format = dispatch::parse_table_format(o.format);
  if (!format) {
    std::cerr << fmt::format("dispatch-inspect simulate: unknown format '{}'; expected text, torch or json\n", o.format);
    return 2;
  }
  if (!o.script.empty()) {
    if (!o.keys.empty()) {
      std::cerr << "dispatch-inspect simulate: give either KEY... or --script FILE, not both\n";
      return 2;
    }
    std::ifstream in(o.script, std::ios::binary);
    if (!in) {
      std::cerr << fmt::format("dispatch-inspect simulate: cannot read script '{}'\n", o.script);
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return simulate_script(text.str(), o.script, *format, std::cout, std::cerr);
  }
  SimulateOptions options;
  options.keys = o.keys;
  options.registrations = o.registrations;
  options.all_keys = o.all_keys;
  options.format = *format;
  return simulate_keys(options, std::cout, std::cerr);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto options = std::make_shared<SimulateCommandOptions>();
  CLI::App* sub = app.add_subcommand(
      "simulate", "Register fn_KEY for each KEY on a fresh operator and print its dispatch table, as PythonDispatcher does");
  sub->add_option("KEY", options->keys, "dispatch keys to register a kernel for (CPU, AutogradCPU, FPGA, ...)");
  sub->add_flag("--registrations", options->registrations, "print the registered kernels instead of the computed table");
  sub->add_flag("--all-keys", options->all_keys, "show every runtime key with an entry, not only PythonDispatcher's");
  sub->add_option("--format", options->format, "text (PythonDispatcher's), torch (raw dumps) or json")
      ->check(CLI::IsMember({"text", "torch", "json"}));
  sub->add_option("--script", options->script,
                  "run a what-if session: lines 'def SCHEMA', 'impl LIB OP KEY KERNEL', 'fallback LIB KEY KERNEL', "
                  "'drop LIB', 'table OP', 'dump OP'");
  sub->footer(
      "Examples:\n"
      "  dispatch-inspect simulate CPU AutogradCPU CompositeImplicitAutograd\n"
      "  dispatch-inspect simulate --registrations CPU Autograd\n"
      "  dispatch-inspect simulate --all-keys --format json CompositeExplicitAutograd\n"
      "  dispatch-inspect simulate --script what-if.txt\n"
      "Exit status: 0 success, 1 a rejected registration or failed step, 2 usage or I/O error.");
  sub->callback([options] { exit_code() = run_simulate(*options); });
}

}  // namespace schemac::inspect
