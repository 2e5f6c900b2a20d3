// Fuzzes the lint pipeline from bytes: the located YAML loader, the field reader, every rule and
// the three renderers. Any input must give diagnostics, never a crash, a hang or a leak.
#include <cstddef>
#include <cstdint>
#include <string>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/lint_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac::schema;
  std::string text(reinterpret_cast<const char*>(data), size);
  LintOptions options{std::vector<std::string>{"core", "pointwise", "inplace_view"}};
  std::vector<Diagnostic> diagnostics = lint_native_functions("fuzz.yaml", text, options);
  SourceFiles sources;
  sources.add("fuzz.yaml", text);
  std::string rendered = render_text(diagnostics, sources) + render_json(diagnostics) +
                         render_sarif(diagnostics, ToolInfo{"schemac", "0", "", lint_rule_catalog()});
  TagsLoad tags = load_tags("tags.yaml", std::move(text));
  return rendered.empty() && tags.tags.empty() ? 0 : 0;
}
