// gen's driver, for every caller that generates code (the `schemac gen` command, and a build
// system or a test that would rather call it than run it): native-functions files in, through
// gen's one gate (codegen/checked_model.h: lint with each input's .schemac.yaml, the model, the
// target's checks), the files of a codegen target out, in memory (generate); then those files
// written to a folder (write_outputs), each replaced only when its bytes change, so that a build
// that depends on them reruns only for what changed.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/target.h"
#include "schemac/config/provider.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/torch_releases/torch_release.h"

namespace schemac::generate {

struct Input {
  std::string path;  // as diagnostics name it
  std::string text;
};

struct Request {
  std::vector<Input> inputs;
  // The torch target writes inputs marked for PyTorch's stable ABI (codegen::kStableAbiMarker)
  // with the torch_stable target.
  const codegen::Target* target = nullptr;
  // Shards and namespace; with namespace_given false, the first input's .schemac.yaml's
  // namespace: (when it has one) is used instead of umbrella_namespace.
  codegen::GenOptions gen;
  std::optional<lint::Profile> profile;  // --profile; else the config's, else the target's
  std::optional<torch_releases::TorchVersion> torch_version;  // else each input's config's
  std::string source_root = ".";  // banners name inputs relative to it (never an absolute path)
  config::ConfigProvider* configs = nullptr;  // each input's .schemac.yaml; null: none
};

struct Result {
  std::vector<diagnostics::Diagnostic> diagnostics;  // the gate's, sorted
  diagnostics::DiagnosticCounts counts;
  std::vector<codegen::GeneratedFile> files;  // none when any diagnostic is an error
};

Result generate(const Request& request);

// Why `ns` cannot be the namespace operators written without one get (and register_operators()'s):
// "namespace 'X' is not a C++ identifier"; "" when it can.
std::string namespace_problem(std::string_view ns);

// "DIR/NAME" of each file, '/'-separated.
std::vector<std::string> output_paths(const std::string& output_dir,
                                      const std::vector<codegen::GeneratedFile>& files);

// Replaces a file with new bytes (atomically, for the command line); says why it could not.
using WriteFile =
    std::function<std::optional<std::string>(const std::filesystem::path&, std::string_view)>;

struct WriteOptions {
  std::string depfile;  // "": none; else a Make/Ninja depfile: every output depends on every input
  std::string stamp;    // "": none; else touched after a successful run, and the depfile's target
  std::vector<std::string> inputs;  // the paths the depfile names
  WriteFile write;
};

// Creates `output_dir`, writes each file whose bytes differ from what is there, removes the
// shard files (Register_<i>of<N>.cpp) an earlier run with another --shards left there (a build
// that globs the folder would compile their stale registrations; nothing else is touched), then
// writes the depfile and the stamp. Returns why it stopped ("cannot create output directory
// 'DIR': WHY", ...), or nothing.
std::optional<std::string> write_outputs(const std::string& output_dir,
                                         const std::vector<codegen::GeneratedFile>& files,
                                         const WriteOptions& options);

// The depfile's text: `outputs` (Make-escaped) depend on every one of `inputs`.
std::string depfile_text(const std::vector<std::string>& outputs,
                         const std::vector<std::string>& inputs);

}  // namespace schemac::generate
