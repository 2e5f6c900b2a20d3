// Fuzzes the lint pipeline from bytes: the located YAML loader, the field reader, every rule of
// every format and the three renderers. Any input must give diagnostics, never a crash, a hang or a
// leak; grown into a tree of aliases of aliases, it must still load in bounded time and memory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac::diagnostics;
  using namespace schemac::lint;
  std::string text(reinterpret_cast<const char*>(data), size);
  LintOptions options{std::vector<std::string>{"core", "pointwise", "inplace_view"}};
  // The format by shape, then each format forced: every reader sees every input.
  std::vector<Diagnostic> diagnostics =
      lint_file("fuzz.yaml", text, FileLintOptions{options, std::nullopt, nullptr}).diagnostics;
  for (FileKind kind : {FileKind::backend, FileKind::executorch}) {
    for (Diagnostic& d :
         lint_file("fuzz.yaml", text, FileLintOptions{options, kind, nullptr}).diagnostics)
      diagnostics.push_back(std::move(d));
  }
  SourceFiles sources;
  sources.add("fuzz.yaml", text);
  std::string rendered =
      render_text(diagnostics, sources) + render_json(diagnostics) +
      render_sarif(diagnostics, ToolInfo{"schemac", "0", "", lint_rule_catalog()});
  // The input grown into an alias tree: the first byte picks the depth, the second the fan-out;
  // each level's list repeats the level below through aliases. The copies must stay bounded.
  if (size >= 2) {
    const int depth = data[0] % 24;
    const int fanout = 1 + data[1] % 16;
    std::string tree = "- func: f(Tensor x) -> Tensor\n  a0: &a0 [" + text.substr(2, 64) + "]\n";
    for (int i = 1; i <= depth; ++i) {
      tree += "  a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
      for (int k = 0; k < fanout; ++k) tree += (k ? ", *a" : "*a") + std::to_string(i - 1);
      tree += "]\n";
    }
    (void)lint_file("tree.yaml", tree, FileLintOptions{options, std::nullopt, nullptr});
  }
  TagsLoad tags = load_tags("tags.yaml", std::move(text));
  return rendered.empty() && tags.tags.empty() ? 0 : 0;
}
