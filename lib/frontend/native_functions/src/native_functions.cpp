// Reading a native-functions file into located entries: the file's shape, its entries read in
// parallel runs (each entry by entry_reader.h), and the locations of fields and schema text.
#include "schemac/native_functions/native_functions.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "entry_reader.h"
#include "field_syntax.h"
#include "schemac/support/parallel.h"

namespace schemac::native_functions {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Severity;
using yaml::load_yaml, yaml::YamlDocument, yaml::YamlLoadResult, yaml::YamlNode;

std::span<const std::string_view> native_function_field_names() { return entry_field_names(); }

const YamlNode* NativeFunction::field_key(std::string_view name) const {
  for (const auto& [key, value] : node->entries) {
    if (key.is_scalar() && key.value == name) return &key;
  }
  return nullptr;
}

const YamlNode* NativeFunction::field_value(std::string_view name) const {
  return node->find(name);
}

Location NativeFunctionsFile::func_location(const NativeFunction& function,
                                            schema::TextRange range) const {
  if (!function.func_node) return function.location;
  const YamlNode& node = *function.func_node;
  auto [line, column] = scalar_position(document, node, range.begin);
  uint32_t end = std::max(range.end, range.begin + 1);
  auto [end_line, end_column] = scalar_position(document, node, end);
  if (end_line != line || end_column <= column) return Location::at(document.file, line, column);
  return Location{document.file, line, column, end_line, end_column};
}

Location NativeFunctionsFile::field_location(const NativeFunction& function,
                                             std::string_view name) const {
  const YamlNode* key = function.field_key(name);
  return key ? node_location(document, *key) : function.location;
}

NativeFunctionsLoad load_native_functions(std::string file, std::string text) {
  return load_native_functions(load_yaml(std::move(file), std::move(text)));
}

NativeFunctionsLoad load_native_functions(YamlLoadResult loaded) {
  NativeFunctionsLoad result;
  result.file.document = std::move(loaded.document);
  result.diagnostics = std::move(loaded.diagnostics);
  const YamlDocument& doc = result.file.document;
  if (!doc.root) {
    if (!loaded.syntax_error) {
      result.diagnostics.push_back(Diagnostic{Severity::error,
                                              rules::empty_file,
                                              Location::at(doc.file, 1, 1),
                                              "the file has no entries",
                                              {},
                                              {}});
    }
    return result;
  }
  const YamlNode& root = *doc.root;
  if (root.is_null()) {
    result.diagnostics.push_back(Diagnostic{Severity::error,
                                            rules::empty_file,
                                            node_location(doc, root),
                                            "the file has no entries",
                                            {},
                                            {}});
    return result;
  }
  if (!root.is_sequence()) {
    result.diagnostics.push_back(
        Diagnostic{Severity::error,
                   rules::top_level_not_list,
                   node_location(doc, root, 1),
                   fmt::format("the top level must be a list of entries ('- func: ...'), not {}",
                               kind_name(root)),
                   {},
                   {}});
    return result;
  }
  // Entries are read independently: in runs of consecutive entries, one run per core, joined
  // in file order (functions and diagnostics alike).
  struct Run {
    std::vector<NativeFunction> functions;
    std::vector<Diagnostic> diagnostics;
  };
  const size_t count = root.items.size();
  const size_t num_runs = count < 256 ? 1 : support::task_threads();
  std::vector<Run> runs(num_runs);
  support::run_tasks(num_runs, [&](size_t r) {
    Run& run = runs[r];
    run.functions.reserve(count * (r + 1) / num_runs - count * r / num_runs);
    for (size_t i = count * r / num_runs; i < count * (r + 1) / num_runs; ++i) {
      const YamlNode& item = root.items[i];
      if (!item.is_mapping()) {
        run.diagnostics.push_back(Diagnostic{
            Severity::error,
            rules::entry_not_mapping,
            node_location(doc, item, 1),
            fmt::format("an entry must be a mapping with a 'func' field, not {}", kind_name(item)),
            {},
            {}});
        continue;
      }
      run.functions.push_back(read_entry(doc, item, run.diagnostics));
    }
  });
  result.file.functions.reserve(count);
  for (Run& run : runs) {
    std::move(run.functions.begin(), run.functions.end(),
              std::back_inserter(result.file.functions));
    std::move(run.diagnostics.begin(), run.diagnostics.end(),
              std::back_inserter(result.diagnostics));
  }
  return result;
}

}  // namespace schemac::native_functions
