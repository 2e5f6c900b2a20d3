// `schemac gen FILE... -o DIR [--target schemac|torch] [--shards N] [--depfile PATH]
//  [--list-outputs] [--source-root DIR] [--namespace NS] [--profile in-tree|extension]
//  [--torch-version X.Y]`:
// generates the registration code, kernel declarations and operator handles of native-functions
// files, for the target `--target` names (schemac/codegen/target.h: our runtime, or PyTorch), laid
// out by schemac/codegen/output_files.h.
// Lint runs first (the lint engine, as `schemac lint` runs it, with each input's .schemac.yaml;
// in the profile the target implies, extension for torch, unless --profile says otherwise), then
// the target's own checks: any error, and nothing is written at all. A .schemac.yaml's namespace:
// is --namespace's default. Files are computed in memory and
// each is replaced atomically (temp file + rename) only when its bytes change, so builds that
// depend on them do not rerun; then shard files of an earlier run that this one did not write are
// removed. Exit 0 success, 1 input errors, 2 usage or I/O errors.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.h"
#include "commands.h"
#include "file_output.h"
#include "input.h"
#include "lint_inputs.h"
#include "schemac/codegen/checked_model.h"
#include "schemac/codegen/output_files.h"
#include "schemac/codegen/target.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/support/json.h"
#include "torch_version_option.h"

namespace schemac::tool {

using cli::error, cli::kExitOk, cli::kExitUsage, cli::read_file, support::Json;

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCommand = "schemac gen";

struct GenCommandOptions {
  std::vector<std::string> files;
  std::string output_dir;
  int shards = 0;  // 0: one registration file per dispatch key; N: N shards
  std::string depfile;
  std::string stamp;  // touched after every successful run; the depfile's target when given
  bool list_outputs = false;
  std::string source_root = ".";
  std::string ns = "aten";
  bool ns_given = false;           // whether --namespace was written
  std::string target = "schemac";  // a name in the target registry (schemac/codegen/target.h)
  std::string profile;  // the lint profile; "" for the target's (Target::lint_profile), else the
                        // config's, else by namespace
  std::string format = "text";  // json: errors and --list-outputs as JSON on stdout
  torch_releases::TorchVersion torch_version = torch_releases::kNewestTorchVersion;
  bool torch_version_given = false;  // else each input's .schemac.yaml may name one
};

// The path banners show: relative to the source root, '/'-separated; the file name alone when
// the input is outside the root (never an absolute path).
std::string display_path(const std::string& input, const std::string& source_root) {
  std::error_code ec;
  fs::path absolute = fs::weakly_canonical(fs::absolute(input, ec), ec);
  fs::path root = fs::weakly_canonical(fs::absolute(source_root, ec), ec);
  fs::path relative = absolute.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..")
    return fs::path(input).filename().generic_string();
  return relative.generic_string();
}

// Replaces `path` with `content` unless it already holds exactly those bytes. Returns false
// (after saying why) on an I/O error.
bool write_if_changed(const fs::path& path, const std::string& content) {
  if (std::optional<std::string> old = read_file(path); old && *old == content) return true;
  if (std::optional<std::string> why = cli::replace_file(path, content)) {
    error(kCommand, "{}", *why);
    return false;
  }
  return true;
}

// Removes the shard files (Register_<i>of<N>.cpp) in `output_dir` that this run did not write:
// those an earlier run with another --shards count (or with shards when this one has none) left
// behind, whose stale registrations a build that globs the directory would otherwise compile.
// Only plain files whose name is a shard name are considered; nothing else in the directory is
// touched. Returns false (after saying why) on an I/O error.
bool remove_stale_shards(const std::string& output_dir,
                         const std::vector<codegen::GeneratedFile>& files) {
  std::set<std::string> written;
  for (const codegen::GeneratedFile& file : files) written.insert(file.name);
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(output_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!codegen::is_shard_file_name(name) || written.count(name) != 0) continue;
    std::error_code status_ec;
    if (fs::is_regular_file(it->symlink_status(status_ec))) stale.push_back(it->path());
  }
  if (ec) {
    error(kCommand, "cannot list output directory '{}': {}", output_dir, ec.message());
    return false;
  }
  std::sort(stale.begin(), stale.end());
  for (const fs::path& path : stale) {
    if (!fs::remove(path, ec) && ec) {
      error(kCommand, "cannot remove stale shard '{}': {}", path.generic_string(), ec.message());
      return false;
    }
  }
  return true;
}

// Make syntax: spaces, '#' and '$' escaped.
std::string make_escape(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

std::string depfile_text(const std::vector<std::string>& outputs,
                         const std::vector<std::string>& inputs) {
  std::string out;
  for (size_t i = 0; i < outputs.size(); ++i) {
    out += (i == 0 ? "" : " \\\n ") + make_escape(outputs[i]);
  }
  out += ":";
  for (const std::string& input : inputs) out += " \\\n  " + make_escape(input);
  return out + "\n";
}

int run_gen(const GenCommandOptions& options) {
  // 1. Read and check every input; any problem and nothing is written.
  std::vector<native_functions::NativeFunctionsLoad> loads;
  loads.reserve(options.files.size());
  std::vector<diagnostics::Diagnostic> diagnostics;
  diagnostics::SourceFiles sources;
  for (const std::string& file : options.files) {
    std::optional<std::string> text = cli::read_input(kCommand, file);
    if (!text) return kExitUsage;
    sources.add(file, *text);
    loads.push_back(native_functions::load_native_functions(file, std::move(*text)));
  }
  std::vector<codegen::GenInput> inputs;
  for (size_t i = 0; i < loads.size(); ++i) {
    inputs.push_back({display_path(options.files[i], options.source_root), &loads[i].file,
                      &loads[i].diagnostics});
  }
  // The gate: what `schemac lint` says of the inputs (each one's .schemac.yaml included), the
  // model and the target's checks (codegen/checked_model.h).
  const codegen::Target& target = *codegen::find_target(options.target);
  config::ConfigProvider configs = config_provider();
  codegen::GateOptions gate{{}, &configs};
  gate.lint.profile = lint::parse_profile(options.profile);
  if (!gate.lint.profile) gate.lint.profile = target.lint_profile();
  if (options.torch_version_given) gate.lint.torch_version = options.torch_version;
  codegen::GenOptions gen_options{options.shards, options.ns, options.ns_given};
  // A .schemac.yaml's namespace: is --namespace's default.
  std::vector<diagnostics::Diagnostic> unused;
  if (const config::Config* config = configs.for_input(options.files.front(), unused);
      config && config->namespace_name && !options.ns_given) {
    gen_options.umbrella_namespace = *config->namespace_name;
    gen_options.namespace_given = true;
  }
  codegen::ModelBuild build = codegen::build_checked_gen_model(inputs, gate, target, gen_options);
  diagnostics.insert(diagnostics.end(), build.diagnostics.begin(), build.diagnostics.end());
  diagnostics::sort_diagnostics(diagnostics);
  diagnostics::DiagnosticCounts counts = diagnostics::count_diagnostics(diagnostics);
  // Errors in full; warnings only counted, to keep build logs short (`schemac lint` shows them).
  std::erase_if(diagnostics, [](const diagnostics::Diagnostic& d) {
    return d.severity != diagnostics::Severity::error;
  });
  if (options.format == "json" && counts.errors > 0) {
    fmt::print("{}", diagnostics::render_json(diagnostics));
  } else if (!diagnostics.empty()) {
    fmt::print(stderr, "{}", diagnostics::render_text(diagnostics, sources, {cli::stderr_color()}));
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

  // 2. Everything in memory.
  std::vector<codegen::GeneratedFile> files =
      codegen::generate_files(build.model, target, gen_options);
  std::vector<std::string> output_paths;
  for (const codegen::GeneratedFile& file : files) {
    output_paths.push_back((fs::path(options.output_dir) / file.name).generic_string());
  }
  if (options.list_outputs) {
    if (options.format == "json") {
      fmt::print("{}\n", support::to_json_text(Json(output_paths)));
      return kExitOk;
    }
    for (const std::string& path : output_paths) fmt::print("{}\n", path);
    return kExitOk;
  }

  // 3. Only now touch the disk.
  std::error_code ec;
  fs::create_directories(options.output_dir, ec);
  if (ec) {
    error(kCommand, "cannot create output directory '{}': {}", options.output_dir, ec.message());
    return kExitUsage;
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (!write_if_changed(output_paths[i], files[i].content)) return kExitUsage;
  }
  if (!remove_stale_shards(options.output_dir, files)) return kExitUsage;
  std::vector<std::string> targets =
      options.stamp.empty() ? output_paths : std::vector<std::string>{options.stamp};
  if (!options.depfile.empty() &&
      !write_if_changed(options.depfile, depfile_text(targets, options.files))) {
    return kExitUsage;
  }
  if (!options.stamp.empty()) {
    std::ofstream stamp(options.stamp, std::ios::binary | std::ios::trunc);
    if (!stamp) {
      error(kCommand, "cannot write stamp file '{}'", options.stamp);
      return kExitUsage;
    }
  }
  return kExitOk;
}

}  // namespace

std::function<int()> bind_gen_command(CLI::App* cmd) {
  auto options = std::make_shared<GenCommandOptions>();
  cmd->add_option("files", options->files, "native_functions.yaml-style files")->required();
  cmd->add_option("-o,--output-dir", options->output_dir, "directory the files are written to")
      ->required();
  cmd->add_option("--shards", options->shards,
                  "split the registrations into N files by a stable hash of the operator name")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--depfile", options->depfile,
                  "also write a Make/Ninja depfile: every output depends on every input");
  cmd->add_option("--stamp", options->stamp,
                  "a file touched after every successful run (for build systems); with --depfile, "
                  "the depfile names it as the target");
  // "schemac (...), torch (...) or NAME (...)": every target of the registry.
  const std::vector<std::string> names = codegen::target_names();
  std::string targets;
  for (size_t i = 0; i < names.size(); ++i) {
    targets += fmt::format("{}{} ({})",
                           i == 0                  ? ""
                           : i + 1 == names.size() ? " or "
                                                   : ", ",
                           names[i], codegen::find_target(names[i])->description());
  }
  cmd->add_option("--target", options->target, targets)->check(CLI::IsMember(names));
  cmd->add_option("--profile", options->profile,
                  "the lint rules checked before writing: in-tree (torchgen's) or extension (what "
                  "TORCH_LIBRARY "
                  "enforces); default: extension for --target torch, else chosen per operator by "
                  "its namespace")
      ->check(CLI::IsMember({"in-tree", "extension"}));
  cli::add_format_option(
      cmd, options->format, {"text", "json"},
      "text (the default) or json: the errors (a JSON array, as lint's) and --list-outputs (an "
      "array of paths) on stdout");
  cmd->add_flag("--list-outputs", options->list_outputs,
                "print the paths of the files that would be written, one per line, and exit");
  cmd->add_option("--source-root", options->source_root,
                  "banners name inputs relative to this directory (default: the current one)");
  add_torch_version_option(cmd, options->torch_version, &options->torch_version_given);
  CLI::Option* ns =
      cmd->add_option("--namespace", options->ns,
                      "namespace of operators written without one (the torch target requires it "
                      "for them), and of "
                      "register_operators()")
          ->check([](const std::string& ns) -> std::string {
            bool ok = !ns.empty() && !(ns[0] >= '0' && ns[0] <= '9');
            for (char c : ns) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
            return ok ? std::string() : fmt::format("namespace '{}' is not a C++ identifier", ns);
          });
  // Read after parsing: whether --namespace was written.
  return [options, ns] {
    options->ns_given = ns->count() > 0;
    return run_gen(*options);
  };
}

}  // namespace schemac::tool
