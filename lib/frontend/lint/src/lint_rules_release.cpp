// The rules whose verdict depends on the torchgen release (LintOptions::torch_version): the
// dispatch keys its `dispatch_keys` list supports, how `tags:` is written, how many namespaces a
// kernel name may have, use_const_ref_for_mutable_tensors on out= functions, and the forms of the
// schema language its parser reads (schema-release).
#include <algorithm>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/schema_releases/schema_releases.h"

namespace schemac::lint {

std::vector<TagUse> tag_uses(const native_functions::NativeFunction& function,
                             torch_releases::TorchVersion version) {
  std::vector<TagUse> uses;
  const yaml::YamlNode* value = function.field_value("tags");
  const bool split =
      torch_releases::tags_are_comma_separated(version) && value && value->is_scalar();
  for (const native_functions::LocatedName& tag : function.tags) {
    if (!split) {
      uses.push_back(TagUse{tag.name, tag.location});
      continue;
    }
    // One plain string, split at ", " as torchgen 1.13 does: each part is a tag of its own.
    size_t start = 0;
    while (start <= tag.name.size()) {
      size_t end = tag.name.find(", ", start);
      if (end == std::string::npos) end = tag.name.size();
      diagnostics::Location at = tag.location;
      if (at.line == at.end_line && value->style == yaml::ScalarStyle::plain) {
        at.column += static_cast<uint32_t>(start);
        at.end_column = at.column + static_cast<uint32_t>(end - start);
      }
      uses.push_back(TagUse{tag.name.substr(start, end - start), at});
      start = end + 2;
    }
  }
  return uses;
}

namespace {

// Kernel names with more namespaces than `version`'s torchgen splits off (the parser accepts up
// to three, as torchgen 2.0 and newer do).
void check_kernel_namespaces(Reporter& reporter, const native_functions::NativeFunction& function,
                             torch_releases::TorchVersion version) {
  const int levels = torch_releases::kernel_namespace_levels(version);
  const native_functions::LocatedName* last = nullptr;  // `CPU, CUDA: k` gives k twice
  for (const native_functions::DispatchEntry& e : function.dispatch) {
    if (last && last->location.line == e.kernel.location.line &&
        last->location.column == e.kernel.location.column)
      continue;
    last = &e.kernel;
    size_t namespaces = 0;
    for (size_t at = e.kernel.name.find("::"); at != std::string::npos;
         at = e.kernel.name.find("::", at + 2))
      ++namespaces;
    // More than the newest release allows is the parser's invalid-kernel-name already.
    const auto most = torch_releases::kernel_namespace_levels(torch_releases::kNewestTorchVersion);
    if (namespaces <= static_cast<size_t>(levels) || namespaces > static_cast<size_t>(most))
      continue;
    reporter.report(rules::invalid_kernel_name, e.kernel.location,
                    fmt::format("torchgen {} allows kernel names with at most {} namespaces; "
                                "'{}' has {} (PyTorch 2.0 and newer allow three)",
                                torch_releases::format_torch_version(version), levels,
                                e.kernel.name, namespaces));
  }
}

}  // namespace

void check_schema_release_forms(Reporter& reporter,
                                const native_functions::NativeFunction& function,
                                torch_releases::TorchVersion version, std::string_view ns) {
  if (!function.schema) return;
  for (schema_releases::ReleaseProblem& problem :
       schema_releases::release_problems(*function.schema, version, ns)) {
    reporter.report(rules::schema_release, reporter.func_location(function, problem.range),
                    std::move(problem.message));
  }
}

void check_release_entry_rules(Reporter& reporter, const native_functions::NativeFunction& function,
                               const LintOptions& options) {
  const torch_releases::TorchVersion version = options.torch_version;
  const std::string release = torch_releases::format_torch_version(version);
  const std::span<const std::string_view> supported =
      torch_releases::supported_dispatch_keys(version);
  // Which keys get kernels is a limit of torchgen's code generator, not of the format.
  if (options.torchgen_codegen) {
    for (const native_functions::DispatchEntry& e : function.dispatch) {
      if (std::find(supported.begin(), supported.end(), e.key.name) != supported.end()) continue;
      reporter.report(
          rules::unsupported_dispatch_key, e.key.location,
          fmt::format("torchgen {} generates no kernels for dispatch key '{}' from a native "
                      "functions file (the key is not in its dispatch_keys); register the kernel "
                      "from C++ (TORCH_LIBRARY_IMPL) or through a backend YAML",
                      release, e.key.name));
    }
  }
  if (const yaml::YamlNode* tags = function.field_value("tags");
      tags && tags->is_sequence() && torch_releases::tags_are_comma_separated(version)) {
    reporter.report(
        rules::field_type, reporter.file().field_location(function, "tags"),
        fmt::format("torchgen {} reads 'tags' as one string of names separated by ', '; a list "
                    "needs PyTorch 2.0 or newer",
                    release));
  }
  if (function.use_const_ref_for_mutable_tensors && function.schema &&
      !signature_facts(*function.schema).out.empty()) {
    reporter.report(rules::const_ref_out,
                    reporter.file().field_location(function, "use_const_ref_for_mutable_tensors"),
                    fmt::format("torchgen {} refuses use_const_ref_for_mutable_tensors on the out= "
                                "function '{}': the boxed wrapper would not match its kernel "
                                "(PyTorch #145522); drop the flag",
                                release, function.schema->op.full()));
  }
  check_kernel_namespaces(reporter, function, version);
  check_schema_release_forms(reporter, function, version);
}

}  // namespace schemac::lint
