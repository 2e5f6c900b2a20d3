// Fuzzes the tags.yaml reader (`schemac lint --tags FILE`): any input gives tags or diagnostics,
// never a crash, a hang or a leak; every diagnostic names the file and a line inside it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "schemac/lint/lint_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac::diagnostics;
  using namespace schemac::lint;
  std::string text(reinterpret_cast<const char*>(data), size);
  // YAML's line breaks: "\r\n", "\n" and a lone "\r" (libyaml counts each as one line).
  size_t lines = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++lines;
  }
  TagsLoad tags = load_tags("tags.yaml", std::move(text));
  for (const Diagnostic& d : tags.diagnostics) {
    if (d.location.file != "tags.yaml" || d.location.line > lines + 1) __builtin_trap();
  }
  return 0;
}
