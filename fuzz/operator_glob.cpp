// Fuzzes operator globs (`myops::*`, `aten::add*`), as every operator subcommand of
// dispatch-inspect takes them: the first line is the pattern, the other lines the registered
// operators. Any bytes give matches or an error, never a crash, a hang or a leak; the matches are
// sorted, known and really matched; a pattern the checks accept and nothing matches gets a note.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/inspect/operator_glob.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac::inspect::report;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t newline = text.find('\n');
  const std::string_view pattern = text.substr(0, newline);
  std::vector<std::string> known;
  for (size_t start = newline; start != std::string_view::npos && start < text.size();) {
    const size_t end = text.find('\n', start + 1);
    known.emplace_back(text.substr(start + 1, end == std::string_view::npos ? std::string_view::npos : end - start - 1));
    start = end;
  }
  const GlobExpansion found = expand_operator_glob(pattern, known);
  if (found.ok() == found.names.empty()) __builtin_trap();
  if (!std::is_sorted(found.names.begin(), found.names.end())) __builtin_trap();
  for (const std::string& name : found.names) {
    if (!glob_matches(pattern, name)) __builtin_trap();
    if (std::find(known.begin(), known.end(), name) == known.end()) __builtin_trap();
  }
  if (!found.ok() && !glob_error(pattern) && found.note.empty()) __builtin_trap();
  // A pattern matches itself (a `*` or `?` matches its own character), and "*" matches anything.
  if (!glob_matches(pattern, pattern)) __builtin_trap();
  if (!glob_matches("*", pattern)) __builtin_trap();
  return 0;
}
