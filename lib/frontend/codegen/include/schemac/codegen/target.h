// A back end of `schemac gen`: the runtime the generated code registers into. generate_files
// (output_files.h) owns what every target shares: which files there are, which operators and keys
// each holds, sharding, banners, parallel emission and the sorted result. A target supplies only
// what differs: its checks, its key names, the text around a registration file's blocks, the
// schema, impl and BackendSelect blocks, the kernel declarations (with its type mapping) and any
// files of its own (our runtime's Operators.h and RegisterAll.cpp).
//
// Adding a target: one source file, lib/frontend/codegen/src/NAME_target.cpp, that defines a
// Target, a function returning it and registers that function with SCHEMAC_TARGET (below); nothing
// else is edited. `--target NAME` then selects it, and `schemac_generate(RUNTIME NAME)` builds with
// it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/rule_profiles.h"
#include "schemac/torch_releases/torch_release.h"

namespace schemac::codegen {

struct GenOptions {
  int shards = 0;                  // 0: one file per dispatch key; N >= 1: N shard files
  std::string umbrella_namespace;  // our runtime: where register_operators() lives
  bool namespace_given = false;    // whether --namespace was written (the torch target needs it
                                   // for operators written without a namespace)
  // The PyTorch release the code is compiled against and loaded into (--torch-version, else the
  // first input's .schemac.yaml's torch-version, else the newest): the PyTorch targets write the
  // kernel types that release checks at registration, and refuse what it cannot register.
  torch_releases::TorchVersion torch_version = torch_releases::kNewestTorchVersion;
};

struct GeneratedFile {
  std::string name;  // file name inside the output directory
  std::string content;
};

// A file to write and the emitter that gives its bytes. Emitters only read the model, so
// generate_files runs them at the same time, one thread per core.
struct FileJob {
  std::string name;
  std::function<std::string()> emit;
};

enum class DefinitionKind { library, fragment };

using OperatorList = std::vector<const GenOperator*>;

class Target {
 public:
  virtual ~Target() = default;

  // The name `--target` selects it by, and a line for --help.
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;

  // The lint profile its code implies (gen's gate lints with it unless --profile says otherwise):
  // extension for code registered through TORCH_LIBRARY; automatic: chosen per operator.
  virtual lint::Profile lint_profile() const = 0;

  // Errors for what this target cannot write (nothing is written when there is one).
  virtual std::vector<diagnostics::Diagnostic> check(const GenModel& model,
                                                     const GenOptions& options) const = 0;

  // The key a dispatch entry's key is registered under (file names and blocks use it).
  virtual std::string key_name(std::string_view key) const = 0;

  // Whether each shard defines its own operators (as fragments) besides registering their
  // kernels; otherwise RegisterSchema.cpp defines every operator, with or without shards.
  virtual bool definitions_in_shards() const = 0;

  // A registration file is: banner, blank line, prologue, then each block preceded by a blank
  // line, then the epilogue. `backend_select`: whether the file has BackendSelect kernels.
  virtual std::string registration_prologue(bool backend_select) const = 0;
  virtual std::string registration_epilogue(std::string_view file_name,
                                            const GenOptions& options) const = 0;

  // The block that defines `ops` (all of namespace `ns`).
  virtual std::string schema_block(std::string_view ns, const OperatorList& ops,
                                   DefinitionKind kind) const = 0;
  // The block registering every kernel `ops` bind to `key` (a key_name); "" when none does.
  virtual std::string impl_block(std::string_view ns, std::string_view key, const OperatorList& ops,
                                 const GenModel& model, const GenOptions& options) const = 0;
  // The generated BackendSelect kernels of the operators of `ops` that need one, and their
  // registration; "" when none does.
  virtual std::string backend_select_block(std::string_view ns, const OperatorList& ops,
                                           const GenOptions& options) const = 0;

  // NativeFunctions.h: the kernels the registrations bind.
  virtual std::string declarations(const GenModel& model, const GenOptions& options) const = 0;

  // The target's other files, given the registration files' names.
  virtual std::vector<FileJob> extra_files(
      const GenModel& model, const GenOptions& options,
      const std::vector<std::string>& registration_files) const = 0;
};

// The target called `name`, or nullptr.
const Target* find_target(std::string_view name);
// Every target's name, sorted.
std::vector<std::string> target_names();
// Every target with its description, for --target's help: "schemac (...), torch (...) or NAME
// (...)".
std::string targets_help();

// Registers a target from its own source file (lib/frontend/codegen/src/*_target.cpp), at namespace
// scope after the function that returns it, with its name and the files every run writes besides
// the shards (what a build lists before the first run):
//   SCHEMAC_TARGET(torch_target, "torch", "NativeFunctions.h RegisterSchema.cpp");
// lib/frontend/codegen/CMakeLists.txt reads these lines into the list target_registry.cpp includes
// and into the runtimes schemac_generate() (cmake/SchemacGenerate.cmake) knows.
#define SCHEMAC_TARGET(function, declared_name, fixed_files) \
  static_assert(sizeof(&function) > 0 && sizeof(declared_name) > 1 && sizeof(fixed_files) > 1)

// The files a target's SCHEMAC_TARGET line says every run writes besides the shards.
std::vector<std::string> fixed_outputs(std::string_view target_name);

// The comment line that marks a native-functions file as the registrations of PyTorch's stable
// ABI (what `schemac parse --source --format yaml` writes for STABLE_TORCH_LIBRARY blocks):
// `gen --target torch` writes such a file with the torch_stable target.
inline constexpr std::string_view kStableAbiMarker = "# schemac: stable-abi";
// The line (1-based) of `yaml_text` that is the marker (trailing blanks aside), or 0.
uint32_t stable_abi_marker_line(std::string_view yaml_text);

}  // namespace schemac::codegen
