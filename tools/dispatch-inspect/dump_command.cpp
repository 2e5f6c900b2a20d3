// `dispatch-inspect dump OP`: the registration state of one operator, as torch._C._dispatch_dump.
#include <iostream>
#include <memory>

#include "commands.h"
#include "operator_command.h"
#include "table_format.h"

namespace schemac::inspect {

void add_dump_command(CLI::App& app) {
  auto options = std::make_shared<OperatorCommandOptions>();
  add_operator_command(
      app,
      {"dump",
       "Print an operator's schema, where it was defined, and every registered kernel per key (inactive ones too)",
       {"text", "torch", "json"}, "text or torch (both as torch._C._dispatch_dump prints), or json",
       "dispatch-inspect dump example_plugin::scale --load libschemac_example_plugin.so"},
      options, [options](const dispatch::OperatorEntry& op) {
        std::cout << dispatch::format_dump(op, *dispatch::parse_table_format(options->format));
        return kExitOk;
      });
}

}  // namespace schemac::inspect
