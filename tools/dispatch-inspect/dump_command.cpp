// `dispatch-inspect dump OP`: the registration state of one operator, as torch._C._dispatch_dump.
#include <iostream>
#include <memory>

#include "commands.h"
#include "library_loader.h"
#include "operator_lookup.h"
#include "schemac/dispatch/table_format.h"

namespace schemac::inspect {
namespace {

struct DumpOptions {
  std::string op;
  std::vector<std::string> libraries;
  std::string format = "text";
};

int run_dump(const DumpOptions& o) {
  if (!load_libraries(o.libraries, std::cerr)) return 1;
  const dispatch::OperatorEntry* op = find_operator_or_explain(o.op, std::cerr);
  if (op == nullptr) return 1;
  std::cout << dispatch::format_dump(*op, *dispatch::parse_table_format(o.format));
  return 0;
}

}  // namespace

void add_dump_command(CLI::App& app) {
  auto options = std::make_shared<DumpOptions>();
  CLI::App* sub = app.add_subcommand(
      "dump", "Print an operator's schema, where it was defined, and every registered kernel per key (inactive ones too)");
  sub->add_option("OP", options->op, "the operator, ns::name or ns::name.overload")->required();
  sub->add_option("--load", options->libraries, kLoadHelp);
  sub->add_option("--format", options->format, "text or torch (both as torch._C._dispatch_dump prints), or json")
      ->check(CLI::IsMember({"text", "torch", "json"}));
  sub->footer(
      "Example:\n  dispatch-inspect dump example_plugin::scale --load libschemac_example_plugin.so\n"
      "Exit status: 0 success, 1 a library failed to load or the operator is unknown, 2 usage error.");
  sub->callback([options] { exit_code() = run_dump(*options); });
}

}  // namespace schemac::inspect
