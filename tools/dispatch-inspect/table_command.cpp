// `dispatch-inspect table OP`: the computed dispatch table of one operator.
#include <iostream>
#include <memory>

#include "commands.h"
#include "operator_command.h"
#include "table_format.h"

namespace schemac::inspect {

void add_table_command(CLI::App& app) {
  auto options = std::make_shared<OperatorCommandOptions>();
  auto all_keys = std::make_shared<bool>(false);
  CLI::App* sub = add_operator_command(
      app,
      {"table",
       "Print an operator's computed dispatch table: per runtime key, the kernel, its registration site and why",
       {"text", "torch", "json"},
       "text (aligned columns), torch (as torch._C._dispatch_dump_table prints) or json",
       "dispatch-inspect table aten::add.Tensor --load libschemac_kernels.so --format torch\n"
       "Reasons: kernel, default backend kernel, nested kernel, math kernel, autograd kernel, batched kernel,\n"
       "backend fallback, ambiguous autogradother, missing; '(fallthrough)' marks keys dispatch skips."},
      options, [options, all_keys](const dispatch::OperatorEntry& op) {
        dispatch::TableOptions table;
        table.all_keys = *all_keys;
        std::cout << dispatch::format_table(op, *dispatch::parse_table_format(options->format), table);
        return kExitOk;
      });
  sub->add_flag("--all-keys", *all_keys, "also list runtime keys with no entry (text and json)");
}

}  // namespace schemac::inspect
