// Recognising a file's format by its shape, and linting a file of any known format.
#include "schemac/lint/file_kinds.h"

#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

#include "schemac/lint/rule_selection.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/schema_rules.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::Severity, yaml::YamlNode;

namespace {

constexpr auto kBackendKeys =
    std::to_array<std::string_view>({"backend", "cpp_namespace", "class_name", "supported",
                                     "autograd", "full_codegen", "ir_gen", "symint", "non_native"});

// The `- func:` entries of the lists that are values of a top-level mapping.
std::vector<const YamlNode*> nested_func_entries(const YamlNode& root) {
  std::vector<const YamlNode*> entries;
  for (const yaml::YamlEntry& entry : root.entries) {
    if (!entry.value.is_sequence()) continue;
    for (const YamlNode& item : entry.value.items)
      if (item.is_mapping() && item.find("func")) entries.push_back(&item);
  }
  return entries;
}

// The schema rules over the `func:` strings of a file lint cannot read otherwise: the entries are
// read as native-functions entries and only the diagnostics of their schemas are kept.
std::vector<Diagnostic> check_nested_schemas(const yaml::YamlDocument& document) {
  if (!document.root || !document.root->is_mapping()) return {};
  yaml::YamlLoadResult entries;
  entries.document.file = document.file;
  entries.document.text = document.text;
  entries.document.line_starts = document.line_starts;
  YamlNode list;
  list.kind = YamlNode::Kind::sequence;
  for (const YamlNode* entry : nested_func_entries(*document.root)) list.items.push_back(*entry);
  if (list.items.empty()) return {};
  entries.document.root = std::move(list);
  std::vector<Diagnostic> out;
  for (Diagnostic& d : native_functions::load_native_functions(std::move(entries)).diagnostics)
    if (schema::find_schema_rule(d.rule)) out.push_back(std::move(d));
  return out;
}

}  // namespace

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

FileKind recognise_file_kind(const yaml::YamlDocument& document) {
  if (!document.root || document.root->is_null() || document.root->is_scalar())
    return FileKind::native;
  const YamlNode& root = *document.root;
  if (root.is_mapping()) {
    // A mapping of `- func:` lists (Ascend's op-plugin YAML) is no format lint knows, even when
    // one of its lists is named like a backend YAML key (`symint:`).
    if (!root.find("backend") && !root.find("cpp_namespace") && !nested_func_entries(root).empty())
      return FileKind::unknown;
    for (std::string_view key : kBackendKeys)
      if (root.find(key)) return FileKind::backend;
    return root.find("func") ? FileKind::native : FileKind::unknown;
  }
  if (!root.is_sequence()) return FileKind::unknown;
  // A list whose entries use any field of native_functions.yaml is one (with mistakes, maybe);
  // a list of scalars or of unrelated mappings is not.
  bool native = root.items.empty();
  const auto fields = native_functions::native_function_field_names();
  for (const YamlNode& item : root.items) {
    if (!item.is_mapping()) continue;
    if (item.find("op") || item.find("kernels") || item.find("type_alias") ||
        item.find("dim_order_alias"))
      return FileKind::executorch;
    for (const auto& [key, value] : item.entries)
      native = native || std::find(fields.begin(), fields.end(), key.value) != fields.end();
  }
  return native ? FileKind::native : FileKind::unknown;
}

FileLint lint_file(std::string file, std::string text, const FileLintOptions& options) {
  FileKind kind = options.kind.value_or(FileKind::unknown);
  yaml::YamlLoadResult yaml = yaml::load_yaml(std::move(file), std::move(text));
  if (!options.kind)
    kind = yaml.syntax_error ? FileKind::native : recognise_file_kind(yaml.document);
  {
    if (kind == FileKind::backend || kind == FileKind::executorch || kind == FileKind::unknown) {
      FileLint result;
      result.diagnostics = std::move(yaml.diagnostics);
      std::vector<Diagnostic> more;
      if (kind == FileKind::backend)
        more = check_backend_yaml(yaml.document, options.native_functions);
      if (kind == FileKind::executorch) more = check_executorch_yaml(yaml.document, options.native);
      if (kind == FileKind::unknown) {
        const YamlNode* root = yaml.document.root ? &*yaml.document.root : nullptr;
        const bool tags_file = root && root->is_sequence() && !root->items.empty() &&
                               root->items.front().is_mapping() && root->items.front().find("tag");
        more.push_back(Diagnostic{
            Severity::error,
            rules::unknown_format,
            diagnostics::Location::at(yaml.document.file, 1, 1),
            std::string("this is not an operator YAML format schemac knows: native_functions.yaml "
                        "(a list of '- func:' "
                        "entries), torchgen's backend YAML (a mapping with 'backend:', "
                        "'cpp_namespace:' and "
                        "'supported:'), or an executorch kernel YAML (a list of '- op:' or '- "
                        "func:' entries with "
                        "'kernels:'); use --kind native|backend|executorch to say which") +
                (tags_file
                     ? "; this one is a tags file (a list of '- tag:' entries): give it with --tags"
                     : "") +
                (root && root->is_mapping() && !nested_func_entries(*root).empty()
                     ? "; the schemas of its '- func:' entries are checked"
                     : ""),
            {},
            {}});
      }
      if (kind == FileKind::unknown) {
        for (Diagnostic& d : check_nested_schemas(yaml.document)) more.push_back(std::move(d));
      }
      for (Diagnostic& d : more) result.diagnostics.push_back(std::move(d));
      diagnostics::sort_diagnostics(result.diagnostics);
      result.kind = kind;
      return result;
    }
  }
  auto load = std::make_shared<native_functions::NativeFunctionsLoad>(
      native_functions::load_native_functions(std::move(yaml)));
  std::vector<Diagnostic> loader = std::move(load->diagnostics);
  return lint_loaded_native(
      std::shared_ptr<const native_functions::NativeFunctionsFile>(load, &load->file),
      std::move(loader), options.native);
}

FileLint lint_loaded_native(std::shared_ptr<const NativeFunctionsFile> file,
                            std::vector<Diagnostic> loader, const LintOptions& options) {
  FileLint result;
  result.kind = FileKind::native;
  result.diagnostics = std::move(loader);
  select_rules(result.diagnostics, *file, options);  // the loader's rules too
  for (Diagnostic& d : check_native_functions(*file, options))
    result.diagnostics.push_back(std::move(d));
  diagnostics::sort_diagnostics(result.diagnostics);
  result.native = std::move(file);
  return result;
}

std::string render_rule_counts(const std::vector<Diagnostic>& diagnostics) {
  std::map<std::pair<std::string, Severity>, size_t> counts;
  for (const Diagnostic& d : diagnostics)
    if (d.severity != Severity::note) ++counts[{d.rule, d.severity}];
  std::vector<std::pair<std::pair<std::string, Severity>, size_t>> sorted(counts.begin(),
                                                                          counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  size_t width = 0;
  for (const auto& [key, n] : sorted) width = std::max(width, key.first.size());
  std::string out;
  for (const auto& [key, n] : sorted) {
    const bool error = key.second == Severity::error;
    out += fmt::format("  {:<{}}  {} {}{}\n", key.first, width, n, error ? "error" : "warning",
                       n == 1 ? "" : "s");
  }
  return out;
}

}  // namespace schemac::lint
