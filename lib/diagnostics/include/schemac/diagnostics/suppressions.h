// Suppression comments: `# schemac: ignore[rule-id, ...]` in YAML and Python, `// schemac:
// ignore[rule-id, ...]` in C++. One silences the listed rules' diagnostics on its own line, or,
// when it stands on an entry's first line, in the whole entry. An id that silences nothing is
// reported as `unused-suppression` (a warning). The CLI and the language server share this.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/rules/rules.h"

namespace schemac::diagnostics {

enum class CommentStyle { hash, slashes };  // `#` (YAML, Python) or `//` (C++)

struct SuppressedRule {
  std::string rule;
  uint32_t column = 0;  // 1-based byte column of the id in the comment
};

struct Suppression {
  uint32_t line = 0;  // 1-based
  std::vector<SuppressedRule> rules;
};

// Every suppression comment in `text`, in line order. A marker inside a string may be taken for
// one; what follows `ignore[` up to `]` is split at commas and trimmed.
std::vector<Suppression> find_suppressions(std::string_view text, CommentStyle style);

// The comment style of a file: slashes for C++ extensions (.cpp .cc .cxx .cu .h .hpp .cuh), hash
// otherwise.
CommentStyle comment_style_for(std::string_view path);

// The first line of the entry that holds line `line` (1-based), or `line` itself.
using EntryFirstLine = std::function<uint32_t(uint32_t line)>;

// For YAML lists of entries: the nearest line at or above `line` that starts with '-' in the
// first column.
EntryFirstLine yaml_entry_first_line(std::string_view text);

// The description unused-suppression has in the rule catalogue.
inline constexpr std::string_view kUnusedSuppressionRule = rules::unused_suppression;
RuleInfo unused_suppression_rule();

// Removes the diagnostics located in `file` that a suppression of `text` silences, and appends an
// `unused-suppression` warning for each suppressed id that silenced nothing. Diagnostics of other
// files are kept as they are.
void apply_suppressions(std::vector<Diagnostic>& diagnostics, std::string_view file,
                        std::string_view text, CommentStyle style,
                        const EntryFirstLine& entry_first_line);

}  // namespace schemac::diagnostics
