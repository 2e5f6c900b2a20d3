// `dispatch-inspect dump OP`: the registration state of one operator, as torch._C._dispatch_dump.
#include <iostream>
#include <memory>

#include "commands.h"
#include "operator_command.h"
#include "runtime.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect {

void add_dump_command(CLI::App& app) {
  auto options = std::make_shared<OperatorCommandOptions>();
  options->text_is_torch = true;
  add_operator_command(
      app,
      {"dump",
       "Print an operator's schema, where it was defined, and every registered kernel per key "
       "(inactive ones too)",
       {"text", "torch", "json"},
       "text or torch (both as torch._C._dispatch_dump prints), or json",
       "dispatch-inspect dump example_plugin::scale --load libschemac_example_plugin.so"},
      options, [options] {
        return print_each_operator(*options, [&](const std::string& op, bool, std::string& out) {
          const report::Response answer = ask(operator_request("dump", *options, op));
          if (answer.status != cli::kExitOk) return answer.status;
          out = options->format == "json" ? report::json_text(report::dump_json(answer.dump)) + "\n"
                                          : report::dump_torch(answer.dump);
          return cli::kExitOk;
        });
      });
}

}  // namespace schemac::inspect
