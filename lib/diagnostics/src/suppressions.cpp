// Suppression comments: finding them, silencing what they name, reporting those that silence
// nothing.
#include "schemac/diagnostics/suppressions.h"

#include "schemac/rules/rules.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

namespace schemac::diagnostics {
namespace {

constexpr std::string_view kMarker = "schemac: ignore[";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The suppression on one line (without its break), if any.
std::optional<Suppression> suppression_on(std::string_view line, uint32_t number,
                                          std::string_view comment) {
  for (size_t at = line.find(comment); at != std::string_view::npos;
       at = line.find(comment, at + 1)) {
    std::string_view rest = trim(line.substr(at + comment.size()));
    if (!rest.starts_with(kMarker)) continue;
    size_t open = line.find(kMarker, at) + kMarker.size();
    size_t close = line.find(']', open);
    if (close == std::string_view::npos) return std::nullopt;
    Suppression s{number, {}};
    size_t item = open;
    while (item <= close) {
      size_t comma = std::min(line.find(',', item), close);
      std::string_view raw = line.substr(item, comma - item);
      std::string_view id = trim(raw);
      if (!id.empty()) {
        auto column = static_cast<uint32_t>(item + raw.find(id) + 1);
        s.rules.push_back({std::string(id), column});
      }
      item = comma + 1;
    }
    return s;
  }
  return std::nullopt;
}

}  // namespace

std::vector<Suppression> find_suppressions(std::string_view text, CommentStyle style) {
  const std::string_view comment = style == CommentStyle::hash ? "#" : "//";
  std::vector<Suppression> out;
  uint32_t number = 1;
  for (size_t at = 0; at <= text.size(); ++number) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(at, end - at);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.find(kMarker) != std::string_view::npos) {
      if (auto s = suppression_on(line, number, comment)) out.push_back(std::move(*s));
    }
    if (nl == std::string_view::npos) break;
    at = nl + 1;
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

RuleInfo unused_suppression_rule() {
  const rules::RuleDef& rule = rules::unused_suppression.def();
  return {rule.id, rule.severity, rule.summary};
}

void apply_suppressions(std::vector<Diagnostic>& diagnostics, std::string_view file,
                        std::string_view text, CommentStyle style,
                        const EntryFirstLine& entry_first_line) {
  std::vector<Suppression> suppressions = find_suppressions(text, style);
  if (suppressions.empty()) return;
  std::map<uint32_t, size_t> by_line;
  for (size_t i = 0; i < suppressions.size(); ++i) by_line[suppressions[i].line] = i;
  std::vector<std::vector<bool>> used(suppressions.size());
  for (size_t i = 0; i < suppressions.size(); ++i)
    used[i].assign(suppressions[i].rules.size(), false);
  // Marks the id of `rule` in the suppression on `line` as used; false when there is none.
  auto silence = [&](uint32_t line, std::string_view rule) {
    auto it = by_line.find(line);
    if (it == by_line.end()) return false;
    const Suppression& s = suppressions[it->second];
    for (size_t k = 0; k < s.rules.size(); ++k) {
      if (s.rules[k].rule == rule) {
        used[it->second][k] = true;
        return true;
      }
    }
    return false;
  };
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    if (d.location.file != file || d.location.line == 0) return false;
    bool on_line = silence(d.location.line, d.rule);
    bool on_entry = entry_first_line && silence(entry_first_line(d.location.line), d.rule);
    return on_line || on_entry;
  });
  for (size_t i = 0; i < suppressions.size(); ++i) {
    for (size_t k = 0; k < suppressions[i].rules.size(); ++k) {
      if (used[i][k]) continue;
      const SuppressedRule& r = suppressions[i].rules[k];
      diagnostics.push_back(
          Diagnostic{Severity::warning,
                     std::string(kUnusedSuppressionRule),
                     Location::at(std::string(file), suppressions[i].line, r.column,
                                  static_cast<uint32_t>(r.rule.size())),
                     fmt::format("'schemac: ignore[{}]' silences nothing here", r.rule),
                     {},
                     std::nullopt});
    }
  }
}

}  // namespace schemac::diagnostics
