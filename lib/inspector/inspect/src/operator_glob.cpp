// Operator globs (operator_glob.h).
#include "schemac/inspect/operator_glob.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/support/did_you_mean.h"

namespace schemac::inspect::report {
namespace {

constexpr size_t kMaxPatternBytes = 512;

bool operator_name_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '.';
}

// "myops::sc*" -> "myops"; "" when the pattern has no "::".
std::string_view namespace_of(std::string_view name) {
  const size_t colons = name.find("::");
  return colons == std::string_view::npos ? std::string_view() : name.substr(0, colons);
}

}  // namespace

bool is_operator_glob(std::string_view text) {
  return text.find_first_of("*?") != std::string_view::npos;
}

bool glob_matches(std::string_view pattern, std::string_view name) {
  // The greedy matcher with one backtrack point (the last `*`): each `*` retried at most
  // |name| times, so no input makes it exponential.
  size_t p = 0, n = 0;
  size_t star = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    // A `*` is a wildcard first, even facing a `*` in the name.
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_n = n;
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++star_n;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::optional<std::string> glob_error(std::string_view pattern) {
  if (pattern.empty()) return std::string("an empty operator pattern");
  if (pattern.size() > kMaxPatternBytes)
    return fmt::format("an operator pattern of {} bytes (at most {})", pattern.size(),
                       kMaxPatternBytes);
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (operator_name_byte(c) || c == '*' || c == '?') continue;
    const unsigned char byte = static_cast<unsigned char>(c);
    return std::isprint(byte)
               ? fmt::format(
                     "'{}' (column {}) is not allowed in an operator pattern: only "
                     "letters, digits, '_', '::', '.', '*' and '?'",
                     c, i + 1)
               : fmt::format("byte 0x{:02x} (column {}) is not allowed in an operator pattern",
                             byte, i + 1);
  }
  return std::nullopt;
}

GlobExpansion expand_operator_glob(std::string_view pattern,
                                   const std::vector<std::string>& known) {
  GlobExpansion out;
  if (const std::optional<std::string> bad = glob_error(pattern)) {
    out.error = *bad;
    return out;
  }
  for (const std::string& name : known)
    if (glob_matches(pattern, name)) out.names.push_back(name);
  std::sort(out.names.begin(), out.names.end());
  out.names.erase(std::unique(out.names.begin(), out.names.end()), out.names.end());
  if (!out.names.empty()) return out;
  out.error = fmt::format("no operator matches '{}'", pattern);
  // The namespace is the part people mistype ("myop::*"): suggest the closest known ones.
  std::set<std::string_view> namespaces;
  for (const std::string& name : known)
    if (std::string_view ns = namespace_of(name); !ns.empty()) namespaces.insert(ns);
  const std::string_view ns = namespace_of(pattern);
  if (!ns.empty() && !is_operator_glob(ns) && !namespaces.contains(ns)) {
    const std::vector<std::string_view> candidates(namespaces.begin(), namespaces.end());
    const std::vector<std::string> close =
        support::closest_names(ns, candidates, std::max<size_t>(2, ns.size() / 3), 3);
    if (!close.empty()) {
      out.note = fmt::format("no namespace '{}'; did you mean '{}'?", ns, fmt::join(close, "', '"));
      return out;
    }
  }
  out.note = known.empty() ? "no operators are registered; load a library with --load LIB"
                           : "'dispatch-inspect ops' lists the known operators";
  return out;
}

}  // namespace schemac::inspect::report
