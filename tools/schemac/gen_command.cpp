// `schemac gen FILE... -o DIR`: the registration code, kernel declarations and operator handles
// of native-functions files for the `--target` (lib/frontend/codegen's registry: our runtime, or
// PyTorch), made by lib/frontend/generate (gen's gate, the files in memory, written only where
// their bytes change, stale shards removed). This file binds the options, reads the inputs, prints
// the errors (warnings only counted) and lists or writes the files, each replaced atomically
// (tools/cli's replace_file). Exit 0 success, 1 input errors, 2 usage or I/O errors.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.h"
#include "commands.h"
#include "file_output.h"
#include "input.h"
#include "schemac/codegen/target.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/engine/documents.h"
#include "schemac/generate/generate.h"
#include "schemac/support/json.h"
#include "shared_options.h"

namespace schemac::tool {

using cli::error, cli::kExitOk, cli::kExitUsage, support::Json;

namespace {

constexpr std::string_view kCommand = "schemac gen";

struct GenCommandOptions {
  std::vector<std::string> files;
  std::string output_dir;
  generate::Request request;     // its shards, namespace and source root are bound as they are
  generate::WriteOptions write;  // --depfile, --stamp
  bool list_outputs = false;
  std::string target = "schemac";  // a name in the target registry (schemac/codegen/target.h)
  std::string profile;  // "": the target's (Target::lint_profile), else the config's, else by ns
  std::string format = "text";  // json: errors and --list-outputs as JSON on stdout
  torch_releases::TorchVersion torch_version = torch_releases::kNewestTorchVersion;
  bool torch_version_given = false;  // else each input's .schemac.yaml may name one
};

int run_gen(GenCommandOptions& options) {
  // 1. Read and check every input, and make the files in memory; any problem and nothing is
  // written.
  generate::Request& request = options.request;
  diagnostics::SourceFiles sources;
  for (const std::string& file : options.files) {
    std::optional<std::string> text = cli::read_input(kCommand, file);
    if (!text) return kExitUsage;
    sources.add(file, *text);
    request.inputs.push_back({file, std::move(*text)});
  }
  config::ConfigProvider configs = engine::config_provider();
  request.target = codegen::find_target(options.target);
  request.profile = lint::parse_profile(options.profile);
  if (options.torch_version_given) request.torch_version = options.torch_version;
  request.configs = &configs;
  generate::Result result = generate::generate(request);
  const diagnostics::DiagnosticCounts& counts = result.counts;
  // Errors in full; warnings only counted, to keep build logs short (`schemac lint` shows them).
  std::erase_if(result.diagnostics, [](const diagnostics::Diagnostic& d) {
    return d.severity != diagnostics::Severity::error;
  });
  if (options.format == "json" && counts.errors > 0) {
    fmt::print("{}", diagnostics::render_json(result.diagnostics));
  } else if (!result.diagnostics.empty()) {
    fmt::print(stderr, "{}",
               diagnostics::render_text(result.diagnostics, sources, {cli::stderr_color()}));
  }
  if (counts.errors == 0 && counts.warnings > 0) {
    fmt::print(stderr, "schemac gen: {} lint warning{} (run 'schemac lint' to see them)\n",
               counts.warnings, counts.warnings == 1 ? "" : "s");
  }
  if (counts.errors > 0) {
    fmt::print(stderr, "{}schemac gen: error: input has errors; nothing was written\n",
               diagnostics::render_summary(counts));
    return cli::kExitProblems;
  }
  if (options.list_outputs) {
    std::vector<std::string> paths = generate::output_paths(options.output_dir, result.files);
    if (options.format == "json") {
      fmt::print("{}\n", support::to_json_text(Json(paths)));
      return kExitOk;
    }
    for (const std::string& path : paths) fmt::print("{}\n", path);
    return kExitOk;
  }
  // 2. Only now touch the disk.
  options.write.inputs = options.files;
  options.write.write = [](const std::filesystem::path& path, std::string_view content) {
    return cli::replace_file(path, content);
  };
  std::optional<std::string> why =
      generate::write_outputs(options.output_dir, result.files, options.write);
  if (why) {
    error(kCommand, "{}", *why);
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

std::function<int()> bind_gen_command(CLI::App* cmd) {
  auto options = std::make_shared<GenCommandOptions>();
  cmd->add_option("files", options->files, "native_functions.yaml-style files")->required();
  cmd->add_option("-o,--output-dir", options->output_dir, "directory the files are written to")
      ->required();
  cmd->add_option("--shards", options->request.gen.shards,
                  "split the registrations into N files by a stable hash of the operator name")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--depfile", options->write.depfile,
                  "also write a Make/Ninja depfile: every output depends on every input");
  cmd->add_option("--stamp", options->write.stamp,
                  "a file touched after every successful run (for build systems); with --depfile, "
                  "the depfile names it as the target");
  cmd->add_option("--target", options->target, codegen::targets_help())
      ->check(CLI::IsMember(codegen::target_names()));
  cmd->add_option("--profile", options->profile,
                  "the lint rules checked before writing: in-tree (torchgen's) or extension (what "
                  "TORCH_LIBRARY enforces); default: extension for --target torch, else chosen "
                  "per operator by its namespace")
      ->check(CLI::IsMember({"in-tree", "extension"}));
  cli::add_format_option(
      cmd, options->format, {"text", "json"},
      "text (the default) or json: the errors (a JSON array, as lint's) and --list-outputs (an "
      "array of paths) on stdout");
  cmd->add_flag("--list-outputs", options->list_outputs,
                "print the paths of the files that would be written, one per line, and exit");
  cmd->add_option("--source-root", options->request.source_root,
                  "banners name inputs relative to this directory (default: the current one)");
  add_torch_version_option(cmd, options->torch_version, &options->torch_version_given);
  options->request.gen.umbrella_namespace = "aten";
  CLI::Option* ns =
      cmd->add_option("--namespace", options->request.gen.umbrella_namespace,
                      "namespace of operators written without one (the torch target requires it "
                      "for them), and of register_operators()")
          ->check(generate::namespace_problem);
  // Read after parsing: whether --namespace was written.
  return [options, ns] {
    options->request.gen.namespace_given = ns->count() > 0;
    return run_gen(*options);
  };
}

}  // namespace schemac::tool
