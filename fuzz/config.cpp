// Fuzzes the .schemac.yaml reader (lib/frontend/config), what it does to diagnostics, and the suppression
// comment scanner and fix-it applier (lib/frontend/diagnostics) on the same bytes. Any input must give a
// config or located errors, never a crash, a hang or a leak; applying the fixes of the reader's
// own errors must keep the text's other bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "schemac/config/config.h"
#include "schemac/diagnostics/fixes.h"
#include "schemac/diagnostics/suppressions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac;
  std::string text(reinterpret_cast<const char*>(data), size);
  config::ConfigLoad load = config::load_config("dir/.schemac.yaml", text);
  std::string rendered = config::render_config(load.config);
  std::vector<diagnostics::Diagnostic> found = load.diagnostics;
  config::apply_config(load.config, found);
  diagnostics::FixOutcome fixed =
      diagnostics::apply_fixes("dir/.schemac.yaml", text, load.diagnostics);
  std::string diff = diagnostics::render_unified_diff("dir/.schemac.yaml", text, fixed.text);
  diagnostics::apply_suppressions(found, "dir/.schemac.yaml", text,
                                  diagnostics::CommentStyle::hash,
                                  diagnostics::yaml_entry_first_line(text));
  return rendered.empty() && diff.size() > size * 1000 ? 1 : 0;
}
