// `dispatch-inspect resolve OP --keys K,...`: the winning key, its kernel and reason, and the
// redispatch chain (resolve.h explains the model; the runtime's adapter parses the keys).
#include <iostream>
#include <memory>

#include "commands.h"
#include "operator_command.h"
#include "runtime.h"
#include "schemac/inspect/names.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect {
namespace {

struct ResolveOptions {
  std::string keys;
  std::vector<std::string> tensors, inference_tensors;
  ThreadLocalOptions thread_local_state;
  std::string device;
  bool allow_missing = false;
};

// One operator's resolution, rendered into `out`. One of several that cannot take the call is
// skipped with a note (counted in `refused`).
int resolve_one(const OperatorCommandOptions& common, const ResolveOptions& o,
                const std::string& op, bool several, int& refused, std::string& out) {
  report::Request request = operator_request("resolve", common, op);
  request.several = several;
  request.call.keys = o.keys;
  request.call.tensors = o.tensors;
  request.call.inference_tensors = o.inference_tensors;
  o.thread_local_state.into(request.call);
  request.call.device = o.device;
  const report::Response answer = ask(request);
  if (answer.status != cli::kExitOk) return answer.status;
  if (!answer.refused.empty()) {
    std::cerr << "note: skipped " << op << ": " << answer.refused << "\n";
    ++refused;
    return cli::kExitOk;
  }
  if (common.format == "dot") {
    out = report::resolution_dot(answer.resolution);
  } else if (common.format == "mermaid") {
    out = report::resolution_mermaid(answer.resolution);
  } else if (common.format == "json") {
    out = report::json_text(report::resolution_json(answer.resolution)) + "\n";
  } else {
    out = report::resolution_text(answer.resolution);
  }
  return answer.resolution.fails && !o.allow_missing ? cli::kExitProblems : cli::kExitOk;
}

int run_resolve(const OperatorCommandOptions& common, const ResolveOptions& o) {
  int refused = 0, asked = 0;
  const int status =
      print_each_operator(common, [&](const std::string& op, bool several, std::string& out) {
        ++asked;
        return resolve_one(common, o, op, several, refused, out);
      });
  if (asked > 0 && refused == asked) {
    std::cerr << "dispatch-inspect: error: none of the operators '" << common.op_text()
              << "' names can take this call\n";
    return cli::kExitUsage;
  }
  return status;
}

}  // namespace

void add_resolve_command(CLI::App& app) {
  auto common = std::make_shared<OperatorCommandOptions>();
  auto options = std::make_shared<ResolveOptions>();
  CLI::App* sub =
      add_operator_command(app,
                           {"resolve",
                            "Show which key and kernel a call with a given key set reaches, why, "
                            "and the redispatch chain",
                            {"text", "json", "dot", "mermaid"},
                            "text, json, or the chain as a picture: dot (Graphviz) or mermaid",
                            "dispatch-inspect resolve aten::add.Tensor --keys CPU,AutogradCPU "
                            "--load libschemac_kernels.so\n"
                            "dispatch-inspect resolve aten::mm --tensor cpu --autocast cpu --load "
                            "libschemac_kernels.so\n"
                            "dispatch-inspect resolve aten::empty.memory_format --device meta\n"
                            "Each kernel leaves the chain as PyTorch's kernels of its kind do "
                            "(docs/dispatch-semantics.md).",
                            "a library failed to load, the operator is unknown, or the call would "
                            "fail (no kernel; --allow-missing: 0)"},
                           common, [common, options] { return run_resolve(*common, *options); });
  add_list_option(sub, "--keys", options->keys,
                  "the call's key set, comma-separated runtime keys (a CPU tensor carries "
                  "CPU,ADInplaceOrView,AutogradCPU,"
                  "AutocastCPU); empty: no tensor arguments");
  sub->add_option(
         "--tensor", options->tensors,
         "a tensor argument on DEVICE (cpu, cuda, meta): adds the keys such a tensor carries (cpu: "
         "CPU,ADInplaceOrView,AutogradCPU,AutocastCPU); repeatable")
      ->check(CLI::IsMember({"cpu", "cuda", "meta"}))
      ->allow_extra_args(false);
  sub->add_option("--inference-tensor", options->inference_tensors,
                  "a tensor argument made under inference mode on DEVICE (cpu, cuda, meta): its "
                  "keys lack ADInplaceOrView and the autograd keys (cpu: CPU,AutocastCPU); "
                  "repeatable")
      ->check(CLI::IsMember({"cpu", "cuda", "meta"}))
      ->allow_extra_args(false);
  add_thread_local_options(sub, options->thread_local_state);
  sub->add_option("--device", options->device,
                  "the device of the call's options (cpu, cuda, meta), for an operator with a "
                  "Device argument: a BackendSelect kernel sends the call to its backend (with "
                  "the tensors' keys, for .to and _to_copy), as torch.empty(device=) does")
      ->check(CLI::IsMember({"cpu", "cuda", "meta"}));
  sub->add_flag("--allow-missing", options->allow_missing, "exit 0 even when the call would fail");
}

}  // namespace schemac::inspect
