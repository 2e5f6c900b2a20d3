// `dispatch-inspect table OP`: the computed dispatch table of one operator.
#include <iostream>
#include <memory>

#include "commands.h"
#include "operator_command.h"
#include "runtime.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect {

void add_table_command(CLI::App& app) {
  auto options = std::make_shared<OperatorCommandOptions>();
  auto all_keys = std::make_shared<bool>(false);
  auto wide = std::make_shared<bool>(false);
  CLI::App* sub = add_operator_command(
      app,
      {"table",
       "Print an operator's computed dispatch table: per runtime key, the kernel, its registration "
       "site and why",
       {"text", "torch", "json", "dot", "mermaid"},
       "text (aligned columns), torch (as torch._C._dispatch_dump_table prints), json, or a "
       "picture: dot (Graphviz) "
       "or mermaid",
       "dispatch-inspect table aten::add.Tensor --load libschemac_kernels.so --format torch\n"
       "Reasons: kernel, default backend kernel, nested kernel, math kernel, autograd kernel, "
       "batched kernel,\n"
       "backend fallback, ambiguous autogradother, missing; '(fallthrough)' marks keys dispatch "
       "skips\n(a table narrowed to 100 columns says 'fallthrough' in the kernel column; --wide "
       "keeps every column whole)."},
      options, [options, all_keys, wide] {
        return print_each_operator(
            *options, [&](const std::string& op, bool several, std::string& out) {
              report::Request request = operator_request("table", *options, op);
              request.all_keys = *all_keys;
              const report::Response answer = ask(request);
              if (answer.status != cli::kExitOk) return answer.status;
              if (options->format == "torch") {
                // The torch format names no operator: a section of several starts with its name.
                out = (several ? op + "\n" : "") + report::table_torch(answer.table);
              } else if (options->format == "dot") {
                out = report::table_dot(answer.table);
              } else if (options->format == "mermaid") {
                out = report::table_mermaid(answer.table);
              } else if (options->format == "json") {
                out = report::json_text(report::table_json(answer.table)) + "\n";
              } else {
                out = report::table_text(answer.table, *wide ? 0 : report::kTextColumns);
              }
              return cli::kExitOk;
            });
      });
  sub->add_flag("--all-keys", *all_keys, "also list runtime keys with no entry (text and json)");
  sub->add_flag("--wide", *wide,
                "text: every column at full width (by default the table fits 100 columns)");
}

}  // namespace schemac::inspect
