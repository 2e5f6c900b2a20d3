// Operator globs: `myops::*`, `aten::add*`, `*::scale.?ut` — `*` any run of characters, `?` one
// character, nothing else special. Taken wherever dispatch-inspect takes an operator, expanded
// against the registered operators' full names ("ns::name.overload").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::inspect::report {

// Whether `text` is a glob (has a `*` or a `?`); an operator name never has either.
bool is_operator_glob(std::string_view text);

// Whether `name` matches `pattern` as a whole. Linear in |pattern| * |name| at worst.
bool glob_matches(std::string_view pattern, std::string_view name);

// Why `pattern` cannot be a glob, or nullopt: empty, too long (over 512 bytes), or a byte that no
// operator name has (anything but letters, digits, `_`, `:`, `.`, `*`, `?`).
std::optional<std::string> glob_error(std::string_view pattern);

struct GlobExpansion {
  std::vector<std::string> names;  // the matches, sorted
  // When nothing matches or the pattern is bad: what is wrong, and a note (did you mean another
  // namespace, or how to list the operators; may be empty). One line each, no newline.
  std::string error, note;
  bool ok() const { return error.empty(); }
};

// The known operators `pattern` matches.
GlobExpansion expand_operator_glob(std::string_view pattern, const std::vector<std::string>& known);

}  // namespace schemac::inspect::report
