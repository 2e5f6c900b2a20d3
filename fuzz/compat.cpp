// Fuzzes `schemac compat OLD NEW [--allow FILE]` in memory: the input is cut at NUL bytes into
// the old file, the new file and (when there is a third piece) an allow-list. check_compat
// promises never to throw for any input; every diagnostic must name one of the three files.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/compat/compat.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac::compat;
  using namespace schemac::diagnostics;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> pieces;
  size_t start = 0;
  for (size_t cut = text.find('\0'); pieces.size() < 2 && cut != std::string_view::npos;
       cut = text.find('\0', start)) {
    pieces.emplace_back(text.substr(start, cut - start));
    start = cut + 1;
  }
  pieces.emplace_back(text.substr(start));
  if (pieces.size() == 1) {  // no NUL: the same file on both sides must compare clean
    pieces.push_back(pieces[0]);
  }
  std::optional<CompatInput> allow;
  if (pieces.size() == 3) allow = CompatInput{"allow.yaml", pieces[2]};
  CompatReport report = check_compat({"old.yaml", pieces[0]}, {"new.yaml", pieces[1]}, allow, Date{2026, 1, 31});
  for (const Diagnostic& d : report.diagnostics) {
    const std::string& file = d.location.file;
    if (file != "old.yaml" && file != "new.yaml" && file != "allow.yaml") __builtin_trap();
  }
  return 0;
}
