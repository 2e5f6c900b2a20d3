// The operator YAML formats lint knows, recognised by their shape, and the entry point that lints
// any of them:
//   native      PyTorch's native_functions.yaml: a list of `- func:` entries
//   backend     torchgen's backend YAML (gen_backend_stubs.py, used by XLA and out-of-tree
//               backends): a mapping with backend:, cpp_namespace:, supported:, autograd:, ...
//   executorch  executorch's kernel YAML: a list of `- op: NAME` entries (an ATen operator) or
//               `- func: SCHEMA` custom operators, with kernels:, type_alias:, dim_order_alias:
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/lint/lint_rules.h"

namespace schemac::lint {

using diagnostics::Diagnostic, native_functions::NativeFunctionsFile, yaml::YamlDocument;

enum class FileKind { native, backend, executorch, unknown };

std::string_view file_kind_name(FileKind kind);  // "native", "backend", "executorch"
std::optional<FileKind> parse_file_kind(std::string_view name);

// The kind a file's shape says it is. An empty file and a mapping with a `func:` key (a
// native entry missing its `- `) count as native.
FileKind recognise_file_kind(const YamlDocument& document);

struct FileLintOptions {
  LintOptions native;            // tags for native files (and executorch custom ops)
  std::optional<FileKind> kind;  // forced with --kind; nullopt: recognised by shape
  // The native-functions file that a backend YAML's operators must exist in (--native-functions).
  const NativeFunctionsFile* native_functions = nullptr;
};

struct FileLint {
  FileKind kind = FileKind::unknown;
  std::vector<Diagnostic> diagnostics;  // sorted by place
  // A native file's entries, for the rules across all the files given (lint_inputs.h).
  std::shared_ptr<const NativeFunctionsFile> native;
};

// Lints one file of any known kind. An unknown shape gives one `unknown-format` error naming the
// formats lint knows. Never throws.
FileLint lint_file(std::string file, std::string text, const FileLintOptions& options);

// A native-functions file already loaded (gen's inputs), with its loader's diagnostics: those
// kept and given their severity by profile, then the rules, sorted.
FileLint lint_loaded_native(std::shared_ptr<const NativeFunctionsFile> file,
                            std::vector<Diagnostic> loader, const LintOptions& options);

// The rules of the other formats over a loaded YAML document.
std::vector<Diagnostic> check_backend_yaml(const YamlDocument& document,
                                           const NativeFunctionsFile* native_functions);
std::vector<Diagnostic> check_executorch_yaml(const YamlDocument& document,
                                              const LintOptions& options);

// One line per rule that fired: "  rule-id  N errors" (or warnings), most frequent first.
std::string render_rule_counts(const std::vector<Diagnostic>& diagnostics);

}  // namespace schemac::lint
