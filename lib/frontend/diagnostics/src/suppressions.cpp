// Suppression comments: finding them, silencing what they name, reporting what they get wrong.
#include "schemac/diagnostics/suppressions.h"

#include "schemac/rules/rules.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "schemac/support/did_you_mean.h"

namespace schemac::diagnostics {
namespace {

constexpr std::string_view kMarker = "schemac:";
constexpr std::string_view kIgnore = "ignore";
constexpr std::string_view kNextLine = "-next-line";
// How far past the marker a comment's `]` is looked for: a list of rule ids is never longer, and
// a line of megabytes with many markers stays linear.
constexpr size_t kCommentWindow = 4096;

bool blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// Whether `before` (the line up to a marker) ends in a comment opener of the style.
bool opens_comment(std::string_view before, CommentStyle style) {
  while (!before.empty() && blank(before.back())) before.remove_suffix(1);
  if (style == CommentStyle::hash) return before.ends_with('#');
  return before.ends_with("//") || before.ends_with("/*");
}

// The suppression whose marker stands at `at` of `line` (the line's text from its start, possibly
// cut after kCommentWindow bytes past the marker), if the keyword is one.
std::optional<Suppression> parse_comment(std::string_view line, size_t at, uint32_t number) {
  size_t k = at + kMarker.size();
  while (k < line.size() && blank(line[k])) ++k;
  if (line.substr(k).substr(0, kIgnore.size()) != kIgnore) return std::nullopt;
  Suppression s;
  s.line = number;
  s.column = static_cast<uint32_t>(at + 1);
  k += kIgnore.size();
  if (line.substr(k).starts_with(kNextLine)) {
    s.next_line = true;
    k += kNextLine.size();
  }
  if (k < line.size() && line[k] != '[' && word_char(line[k])) return std::nullopt;
  s.target_line = s.next_line ? number + 1 : number;
  size_t close = k < line.size() && line[k] == '[' ? line.find(']', k) : std::string_view::npos;
  if (close == std::string_view::npos) {
    s.bare = true;
    s.length = static_cast<uint32_t>(k - at);
    return s;
  }
  s.length = static_cast<uint32_t>(close + 1 - at);
  for (size_t item = k + 1; item <= close;) {
    size_t comma = std::min(line.find(',', item), close);
    std::string_view raw = line.substr(item, comma - item);
    std::string_view id = trim(raw);
    if (!id.empty())
      s.rules.push_back({std::string(id), static_cast<uint32_t>(item + raw.find(id) + 1)});
    item = comma + 1;
  }
  return s;
}

Diagnostic warning_at(std::string_view file, uint32_t line, uint32_t column, uint32_t length,
                      std::string_view rule, std::string message) {
  return Diagnostic{Severity::warning,
                    std::string(rule),
                    Location::at(std::string(file), line, column, std::max<uint32_t>(length, 1)),
                    std::move(message),
                    {},
                    std::nullopt};
}

std::string_view keyword(const Suppression& s) {
  return s.next_line ? "ignore-next-line" : "ignore";
}

// The findings about the comment itself that do not depend on what it silences: no ids, and ids
// that name no rule. Marks in `skipped` the ids never to call unused: unknown ones, and those of
// rules the door does not check.
void check_comment(const Suppression& s, std::string_view file,
                   std::span<const std::string_view> names, std::vector<bool>& skipped,
                   const ChecksRule& checked, std::vector<Diagnostic>& out) {
  if (s.bare) {
    out.push_back(
        warning_at(file, s.line, s.column, s.length, kBareSuppressionRule,
                   fmt::format("'schemac: {}' names no rule: write 'schemac: {}[rule-id, ...]' (or "
                               "'{}[all]')",
                               keyword(s), keyword(s), keyword(s))));
    return;
  }
  for (size_t k = 0; k < s.rules.size(); ++k) {
    const SuppressedRule& r = s.rules[k];
    if (r.rule == "all") continue;
    if (const rules::RuleDef* rule = rules::find_rule(r.rule)) {
      // Another door's rule (gen's, compat's): whether it silences anything is that door's to say.
      skipped[k] = checked && !checked(*rule);
      continue;
    }
    skipped[k] = true;
    std::optional<std::string> guess = support::did_you_mean(r.rule, names);
    Diagnostic d = warning_at(
        file, s.line, r.column, static_cast<uint32_t>(r.rule.size()), kUnknownRuleRule,
        fmt::format("unknown rule '{}' in 'schemac: {}[...]'{}", clip_text(r.rule, 80), keyword(s),
                    guess ? fmt::format("; did you mean '{}'?", *guess) : ""));
    if (guess) {
      d.fix = FixHint(d.location, *guess, "the corrected id silences that rule's findings");
    }
    out.push_back(std::move(d));
  }
}

// The text of line `number` (1-based) of `text`, without its line break, and whether a line
// break follows it.
std::pair<std::string_view, bool> line_of(std::string_view text, uint32_t number) {
  size_t start = 0;
  for (uint32_t n = 1; n < number && start != std::string_view::npos; ++n) {
    start = text.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start > text.size()) return {{}, false};
  const size_t end = text.find('\n', start);
  std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
  if (line.ends_with('\r')) line.remove_suffix(1);
  return {line, end != std::string_view::npos};
}

// The edit that takes the id `k` of `s` out of `text`: the id and a comma when others stay; the
// whole comment (and the blanks before it) when it is the only one; the whole line when nothing
// else stands on it. Removing a suppression that silences nothing changes nothing else.
FixHint removal(std::string_view file, std::string_view text, const Suppression& s, size_t k) {
  const SuppressedRule& r = s.rules[k];
  const uint32_t line = s.line;
  auto on_line = [&](uint32_t from, uint32_t to) {  // 1-based byte columns, [from, to)
    Location at = Location::at(std::string(file), line, from);
    at.end_line = line;
    at.end_column = to;
    return FixHint(at, "");
  };
  auto end_of = [](const SuppressedRule& rule) {
    return rule.column + static_cast<uint32_t>(rule.rule.size());
  };
  if (s.rules.size() > 1) {
    return k + 1 < s.rules.size() ? on_line(r.column, s.rules[k + 1].column)
                                  : on_line(end_of(s.rules[k - 1]), end_of(r));
  }
  const auto [text_of_line, has_break] = line_of(text, line);
  // The comment's opener: `#`, `//` or `/*` before the marker, blanks between.
  size_t opener = s.column - 1;
  while (opener > 0 && blank(text_of_line[opener - 1])) --opener;
  const bool block = opener >= 2 && text_of_line.substr(opener - 2, 2) == "/*";
  opener -= std::min<size_t>(opener, text_of_line.substr(0, opener).ends_with('#') ? 1 : 2);
  size_t end = text_of_line.size();
  if (block) {
    const size_t close = text_of_line.find("*/", s.column - 1 + s.length);
    if (close != std::string_view::npos) end = close + 2;
  }
  size_t start = opener;
  while (start > 0 && blank(text_of_line[start - 1])) --start;
  if (start == 0 && trim(text_of_line.substr(end)).empty()) {
    Location at = Location::at(std::string(file), line, 1);
    at.end_line = has_break ? line + 1 : line;
    at.end_column = has_break ? 1 : static_cast<uint32_t>(text_of_line.size() + 1);
    return FixHint(at, "");
  }
  return on_line(static_cast<uint32_t>(start + 1), static_cast<uint32_t>(end + 1));
}

}  // namespace

std::vector<Suppression> find_suppressions(std::string_view text, CommentStyle style) {
  std::vector<Suppression> out;
  uint32_t number = 1;
  size_t counted = 0;     // newlines are counted up to here
  size_t line_start = 0;  // of the line holding `counted`
  for (size_t at = text.find(kMarker); at != std::string_view::npos;
       at = text.find(kMarker, at + kMarker.size())) {
    const std::string_view between = text.substr(counted, at - counted);
    for (size_t nl = between.find('\n'); nl != std::string_view::npos;
         nl = between.find('\n', nl + 1)) {
      ++number;
      line_start = counted + nl + 1;
    }
    counted = at;
    if (!opens_comment(text.substr(line_start, at - line_start), style)) continue;
    std::string_view window = text.substr(line_start, at - line_start + kCommentWindow);
    window = window.substr(0, std::min(window.find('\n', at - line_start), window.size()));
    if (window.ends_with('\r')) window.remove_suffix(1);
    if (auto s = parse_comment(window, at - line_start, number)) out.push_back(std::move(*s));
  }
  return out;
}

CommentStyle comment_style_for(std::string_view path) {
  for (std::string_view ext : {".cpp", ".cc", ".cxx", ".cu", ".h", ".hpp", ".cuh"}) {
    if (path.ends_with(ext)) return CommentStyle::slashes;
  }
  return CommentStyle::hash;
}

EntryFirstLine yaml_entry_first_line(std::string_view text) {
  std::vector<uint32_t> firsts;
  uint32_t number = 1;
  for (size_t at = 0; at < text.size(); ++number) {
    if (text[at] == '-' && !text.substr(at).starts_with("---")) firsts.push_back(number);
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  return [firsts = std::move(firsts)](uint32_t line) {
    auto it = std::upper_bound(firsts.begin(), firsts.end(), line);
    return it == firsts.begin() ? line : *(it - 1);
  };
}

namespace {
RuleInfo info_of(const rules::RuleDef& rule) { return {rule.id, rule.severity, rule.summary}; }
}  // namespace

RuleInfo unused_suppression_rule() { return info_of(rules::unused_suppression.def()); }

std::vector<RuleInfo> suppression_rules() {
  return {unused_suppression_rule(), info_of(rules::unknown_rule.def()),
          info_of(rules::bare_suppression.def())};
}

void apply_suppressions(std::vector<Diagnostic>& diagnostics, std::string_view file,
                        std::string_view text, CommentStyle style,
                        const EntryFirstLine& entry_first_line, const ChecksRule& checked) {
  std::vector<Suppression> suppressions = find_suppressions(text, style);
  if (suppressions.empty()) return;
  std::vector<std::string_view> names;
  for (const rules::RuleDef& rule : rules::all_rules()) names.push_back(rule.id);
  std::vector<Diagnostic> about_comments;
  std::vector<std::vector<bool>> used(suppressions.size());
  std::vector<std::vector<bool>> skipped(suppressions.size());  // never "unused"
  std::multimap<uint32_t, size_t> by_target;
  for (size_t i = 0; i < suppressions.size(); ++i) {
    used[i].assign(suppressions[i].rules.size(), false);
    skipped[i].assign(suppressions[i].rules.size(), false);
    check_comment(suppressions[i], file, names, skipped[i], checked, about_comments);
    if (!suppressions[i].bare) by_target.emplace(suppressions[i].target_line, i);
  }
  // Marks the ids that name `rule` in the suppressions aimed at `line`; false when there is none.
  auto silence = [&](uint32_t line, std::string_view rule) {
    bool silenced = false;
    for (auto [it, end] = by_target.equal_range(line); it != end; ++it) {
      const Suppression& s = suppressions[it->second];
      for (size_t k = 0; k < s.rules.size(); ++k) {
        if (s.rules[k].rule == rule || s.rules[k].rule == "all") {
          used[it->second][k] = true;
          silenced = true;
        }
      }
    }
    return silenced;
  };
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    if (d.location.file != file || d.location.line == 0) return false;
    bool on_line = silence(d.location.line, d.rule);
    uint32_t first = entry_first_line ? entry_first_line(d.location.line) : d.location.line;
    bool on_entry = first != d.location.line && silence(first, d.rule);
    return on_line || on_entry;
  });
  for (size_t i = 0; i < suppressions.size(); ++i) {
    const Suppression& s = suppressions[i];
    for (size_t k = 0; k < s.rules.size(); ++k) {
      if (used[i][k] || skipped[i][k]) continue;
      const SuppressedRule& r = s.rules[k];
      Diagnostic unused = warning_at(
          file, s.line, r.column, static_cast<uint32_t>(r.rule.size()), kUnusedSuppressionRule,
          fmt::format("'schemac: {}[{}]' silences nothing {}", keyword(s), clip_text(r.rule, 80),
                      s.next_line ? "on the next line" : "here"));
      unused.fix = removal(file, text, s, k);
      about_comments.push_back(std::move(unused));
    }
  }
  for (Diagnostic& d : about_comments) diagnostics.push_back(std::move(d));
}

}  // namespace schemac::diagnostics
