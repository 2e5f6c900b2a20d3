// `dispatch-inspect resolve OP --keys K,...`: the winning key, its kernel and reason, and the
// redispatch chain (resolve.h explains the model; the runtime's adapter parses the keys).
#include <iostream>
#include <memory>

#include "commands.h"
#include "operator_command.h"
#include "report/render.h"
#include "runtime.h"

namespace schemac::inspect {
namespace {

struct ResolveOptions {
  std::string keys, include, exclude;
};

int run_resolve(const OperatorCommandOptions& common, const ResolveOptions& o) {
  report::Request request = operator_request("resolve", common);
  request.keys = o.keys;
  request.include = o.include;
  request.exclude = o.exclude;
  const report::Response answer = ask(request);
  if (answer.status != kExitOk) return answer.status;
  if (common.format == "json") {
    std::cout << report::json_text(report::resolution_json(answer.resolution)) << "\n";
  } else {
    std::cout << report::resolution_text(answer.resolution);
  }
  return kExitOk;
}

}  // namespace

void add_resolve_command(CLI::App& app) {
  auto common = std::make_shared<OperatorCommandOptions>();
  auto options = std::make_shared<ResolveOptions>();
  CLI::App* sub = add_operator_command(
      app,
      {"resolve", "Show which key and kernel a call with a given key set reaches, why, and the redispatch chain",
       {"text", "json"}, "text or json",
       "dispatch-inspect resolve aten::add.Tensor --keys CPU,AutogradCPU --load libschemac_kernels.so\n"
       "The chain assumes every kernel that is not a backend or composite kernel redispatches below its own key."},
      common, [common, options] { return run_resolve(*common, *options); });
  sub->add_option("--keys", options->keys,
                  "the call's key set, comma-separated runtime keys (a CPU tensor carries CPU,ADInplaceOrView,AutogradCPU,"
                  "AutocastCPU); empty: no tensor arguments");
  sub->add_option("--include", options->include,
                  "keys added to the thread-local included set (which starts as BackendSelect,ADInplaceOrView); an "
                  "included Autocast key is also taken out of the default excluded set");
  sub->add_option("--exclude", options->exclude,
                  "keys added to the thread-local excluded set (which starts as every Autocast key)");
}

}  // namespace schemac::inspect
