// Differential fuzzing of the located YAML loader: reading a text in pieces (cut at every
// top-level item) must give exactly what one pass gives: the same tree, positions included, and
// the same diagnostics. A difference traps.
#include <cstddef>
#include <cstdint>
#include <string>

#include "schemac/native_functions/yaml_loader.h"

namespace {

using namespace schemac::schema;

bool same(const YamlNode& a, const YamlNode& b) {
  if (a.kind != b.kind || a.style != b.style || a.flow != b.flow || a.line != b.line ||
      a.column != b.column || a.offset != b.offset || a.value != b.value ||
      a.items.size() != b.items.size() || a.entries.size() != b.entries.size()) {
    return false;
  }
  for (size_t i = 0; i < a.items.size(); ++i)
    if (!same(a.items[i], b.items[i])) return false;
  for (size_t i = 0; i < a.entries.size(); ++i)
    if (!same(a.entries[i].key, b.entries[i].key) || !same(a.entries[i].value, b.entries[i].value)) return false;
  return true;
}

bool same(const std::vector<Diagnostic>& a, const std::vector<Diagnostic>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].rule != b[i].rule || a[i].message != b[i].message || a[i].location.line != b[i].location.line ||
        a[i].location.column != b[i].location.column)
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  YamlLoadResult one = load_yaml("f.yaml", text, YamlLoadOptions{.pieces = 1});
  YamlLoadResult cut = load_yaml("f.yaml", text, YamlLoadOptions{.pieces = 64, .min_piece_bytes = 1, .threads = false});
  bool equal = one.syntax_error == cut.syntax_error && same(one.diagnostics, cut.diagnostics) &&
               one.document.root.has_value() == cut.document.root.has_value() &&
               (!one.document.root || same(*one.document.root, *cut.document.root));
  if (!equal) __builtin_trap();
  return 0;
}
