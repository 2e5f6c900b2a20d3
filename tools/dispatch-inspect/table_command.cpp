// `dispatch-inspect table OP`: the computed dispatch table of one operator.
#include <iostream>
#include <memory>

#include "commands.h"
#include "library_loader.h"
#include "operator_lookup.h"
#include "schemac/dispatch/table_format.h"

namespace schemac::inspect {
namespace {

struct TableCommandOptions {
  std::string op;
  std::vector<std::string> libraries;
  bool all_keys = false;
  std::string format = "text";
};

int run_table(const TableCommandOptions& o) {
  if (!load_libraries(o.libraries, std::cerr)) return 1;
  const dispatch::OperatorEntry* op = find_operator_or_explain(o.op, std::cerr);
  if (op == nullptr) return 1;
  dispatch::TableOptions options;
  options.all_keys = o.all_keys;
  std::cout << dispatch::format_table(*op, *dispatch::parse_table_format(o.format), options);
  return 0;
}

}  // namespace

void add_table_command(CLI::App& app) {
  auto options = std::make_shared<TableCommandOptions>();
  CLI::App* sub = app.add_subcommand(
      "table", "Print an operator's computed dispatch table: per runtime key, the kernel, its registration site and why");
  sub->add_option("OP", options->op, "the operator, ns::name or ns::name.overload")->required();
  sub->add_option("--load", options->libraries, kLoadHelp);
  sub->add_flag("--all-keys", options->all_keys, "also list runtime keys with no entry (text and json)");
  sub->add_option("--format", options->format,
                  "text (aligned columns), torch (as torch._C._dispatch_dump_table prints) or json")
      ->check(CLI::IsMember({"text", "torch", "json"}));
  sub->footer(
      "Example:\n  dispatch-inspect table aten::add.Tensor --load libschemac_kernels.so --format torch\n"
      "Reasons: kernel, default backend kernel, nested kernel, math kernel, autograd kernel, batched kernel,\n"
      "backend fallback, ambiguous autogradother, missing; '(fallthrough)' marks keys dispatch skips.\n"
      "Exit status: 0 success, 1 a library failed to load or the operator is unknown, 2 usage error.");
  sub->callback([options] { exit_code() = run_table(*options); });
}

}  // namespace schemac::inspect
