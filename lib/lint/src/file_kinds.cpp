// Recognising a file's format by its shape, and linting a file of any known format.
#include "schemac/lint/file_kinds.h"

#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

#include "schemac/lint/rule_selection.h"

namespace schemac::schema {
namespace {

constexpr auto kBackendKeys = std::to_array<std::string_view>(
    {"backend", "cpp_namespace", "class_name", "supported", "autograd", "full_codegen", "ir_gen", "symint", "non_native"});

// torchgen/packaged/ATen/native/tags.yaml of the newest PyTorch (and of the forks that follow it).
constexpr auto kBuiltinTags = std::to_array<std::string_view>({
    "inplace_view", "pt2_compliant_tag", "view_copy", "dynamic_output_shape", "data_dependent_output",
    "generated", "nondeterministic_seeded", "nondeterministic_bitwise", "needs_exact_strides",
    "needs_contiguous_strides", "needs_fixed_stride_order", "flexible_layout", "core", "pointwise",
    "maybe_aliasing_or_mutating", "cudagraph_unsafe", "reduction", "inplace", "out", "out_variant",
    "has_side_effects",
});

}  // namespace

std::span<const std::string_view> builtin_tags() { return kBuiltinTags; }

std::string_view file_kind_name(FileKind kind) {
  switch (kind) {
    case FileKind::native: return "native";
    case FileKind::backend: return "backend";
    case FileKind::executorch: return "executorch";
    case FileKind::unknown: break;
  }
  return "unknown";
}

std::optional<FileKind> parse_file_kind(std::string_view name) {
  for (FileKind k : {FileKind::native, FileKind::backend, FileKind::executorch})
    if (file_kind_name(k) == name) return k;
  return std::nullopt;
}

FileKind recognise_file_kind(const YamlDocument& document) {
  if (!document.root || document.root->is_null() || document.root->is_scalar()) return FileKind::native;
  const YamlNode& root = *document.root;
  if (root.is_mapping()) {
    for (std::string_view key : kBackendKeys)
      if (root.find(key)) return FileKind::backend;
    return root.find("func") ? FileKind::native : FileKind::unknown;
  }
  if (!root.is_sequence()) return FileKind::unknown;
  // A list whose entries use any field of native_functions.yaml is one (with mistakes, maybe);
  // a list of scalars or of unrelated mappings is not.
  bool native = root.items.empty();
  const auto fields = native_function_field_names();
  for (const YamlNode& item : root.items) {
    if (!item.is_mapping()) continue;
    if (item.find("op") || item.find("kernels") || item.find("type_alias") || item.find("dim_order_alias"))
      return FileKind::executorch;
    for (const auto& [key, value] : item.entries)
      native = native || std::find(fields.begin(), fields.end(), key.value) != fields.end();
  }
  return native ? FileKind::native : FileKind::unknown;
}

FileLint lint_file(std::string file, std::string text, const FileLintOptions& options) {
  FileLint result;
  FileKind kind = options.kind.value_or(FileKind::unknown);
  YamlLoadResult yaml = load_yaml(std::move(file), std::move(text));
  if (!options.kind) kind = yaml.syntax_error ? FileKind::native : recognise_file_kind(yaml.document);
  {
    if (kind == FileKind::backend || kind == FileKind::executorch || kind == FileKind::unknown) {
      result.diagnostics = std::move(yaml.diagnostics);
      std::vector<Diagnostic> more;
      if (kind == FileKind::backend) more = check_backend_yaml(yaml.document, options.native_functions);
      if (kind == FileKind::executorch) more = check_executorch_yaml(yaml.document, options.native);
      if (kind == FileKind::unknown) {
        const YamlNode* root = yaml.document.root ? &*yaml.document.root : nullptr;
        const bool tags_file = root && root->is_sequence() && !root->items.empty() &&
                               root->items.front().is_mapping() && root->items.front().find("tag");
        more.push_back(Diagnostic{
            Severity::error, "unknown-format", Location::at(yaml.document.file, 1, 1),
            std::string("this is not an operator YAML format schemac knows: native_functions.yaml (a list of '- func:' "
                "entries), torchgen's backend YAML (a mapping with 'backend:', 'cpp_namespace:' and "
                "'supported:'), or an executorch kernel YAML (a list of '- op:' or '- func:' entries with "
                "'kernels:'); use --kind native|backend|executorch to say which") +
                (tags_file ? "; this one is a tags file (a list of '- tag:' entries): give it with --tags" : ""),
            {}, {}});
      }
      for (Diagnostic& d : more) result.diagnostics.push_back(std::move(d));
      sort_diagnostics(result.diagnostics);
      result.kind = kind;
      return result;
    }
  }
  result.kind = FileKind::native;
  auto load = std::make_shared<NativeFunctionsLoad>(load_native_functions(std::move(yaml)));
  result.diagnostics = std::move(load->diagnostics);
  select_rules(result.diagnostics, load->file, options.native);  // the loader's rules too
  for (Diagnostic& d : check_native_functions(load->file, options.native)) result.diagnostics.push_back(std::move(d));
  sort_diagnostics(result.diagnostics);
  result.native = std::shared_ptr<const NativeFunctionsFile>(load, &load->file);
  return result;
}

std::string render_rule_counts(const std::vector<Diagnostic>& diagnostics) {
  std::map<std::pair<std::string, Severity>, size_t> counts;
  for (const Diagnostic& d : diagnostics)
    if (d.severity != Severity::note) ++counts[{d.rule, d.severity}];
  std::vector<std::pair<std::pair<std::string, Severity>, size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  size_t width = 0;
  for (const auto& [key, n] : sorted) width = std::max(width, key.first.size());
  std::string out;
  for (const auto& [key, n] : sorted) {
    const bool error = key.second == Severity::error;
    out += fmt::format("  {:<{}}  {} {}{}\n", key.first, width, n, error ? "error" : "warning", n == 1 ? "" : "s");
  }
  return out;
}

}  // namespace schemac::schema
