// Suppression comments, as ruff's noqa and clang-tidy's NOLINT work: `# schemac: ignore[rule-id,
// ...]` in YAML and Python, `// schemac: ignore[...]` or `/* schemac: ignore[...] */` in C++.
// `ignore[...]` silences the listed rules' diagnostics on its own line, or, when it stands on an
// entry's first line, in the whole entry; `ignore-next-line[...]` does the same for the line
// below it (and that line's entry when the line starts one: C++'s `m.def(` with the schema
// literal on the next line). `all` stands for every rule. What a comment gets wrong is itself a
// finding (warnings): an id that silences nothing (`unused-suppression`), an id that names no
// rule (`unknown-rule`, with a did-you-mean), a comment without ids (`bare-suppression`). The CLI
// and the language server share this.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/rules/rules.h"

namespace schemac::diagnostics {

// `#` (YAML, Python) or `//` and `/* */` (C++)
enum class CommentStyle { hash, slashes };

struct SuppressedRule {
  std::string rule;     // "all" for every rule
  uint32_t column = 0;  // 1-based byte column of the id in the comment
};

struct Suppression {
  uint32_t line = 0;         // 1-based: where the comment stands
  uint32_t target_line = 0;  // the line it silences: `line`, or the next one for ignore-next-line
  uint32_t column = 0;       // 1-based byte column of `schemac:`
  uint32_t length = 0;       // bytes from `schemac:` to the closing `]` (or the keyword's end)
  bool next_line = false;    // ignore-next-line
  bool bare = false;         // no `[...]` list (or one that is not closed)
  std::vector<SuppressedRule> rules;
};

// Every suppression comment in `text`, in line order: a `schemac:` marker directly after a comment
// opener of the style (spaces between allowed). A marker inside a string may be taken for one;
// what follows `ignore[` up to `]` is split at commas and trimmed. Linear in the text's size.
std::vector<Suppression> find_suppressions(std::string_view text, CommentStyle style);

// The comment style of a file: slashes for C++ extensions (.cpp .cc .cxx .cu .h .hpp .cuh), hash
// otherwise.
CommentStyle comment_style_for(std::string_view path);

// The first line of the entry that holds line `line` (1-based), or `line` itself.
using EntryFirstLine = std::function<uint32_t(uint32_t line)>;

// For YAML lists of entries: the nearest line at or above `line` that starts with '-' in the
// first column.
EntryFirstLine yaml_entry_first_line(std::string_view text);

// The rules this file reports about suppression comments (defined in the rule registry).
inline constexpr std::string_view kUnusedSuppressionRule = rules::unused_suppression;
inline constexpr std::string_view kUnknownRuleRule = rules::unknown_rule;
inline constexpr std::string_view kBareSuppressionRule = rules::bare_suppression;
RuleInfo unused_suppression_rule();
std::vector<RuleInfo> suppression_rules();  // the three above

// Whether the door applying the suppressions checks a rule. A suppression of a rule it does not
// check (lint meeting `ignore[torch-namespace]`, which gen reports) is not its to call unused.
// Unset: every rule.
using ChecksRule = std::function<bool(const rules::RuleDef& rule)>;

// Removes the diagnostics located in `file` that a suppression of `text` silences, and appends a
// warning for each id of a rule `checked` that silenced nothing (with a safe fix that takes the
// id out of its comment, or the whole comment when it is the only one, as ruff removes an unused
// noqa), each id that names no rule of
// the rule table (nor "all") and each comment without ids. Diagnostics of other files are kept
// as they are.
void apply_suppressions(std::vector<Diagnostic>& diagnostics, std::string_view file,
                        std::string_view text, CommentStyle style,
                        const EntryFirstLine& entry_first_line, const ChecksRule& checked = {});

}  // namespace schemac::diagnostics
