// Fix-its as byte edits, their application, and the unified diff of the result.
#include "schemac/diagnostics/fixes.h"

#include <algorithm>

#include <fmt/format.h>

namespace schemac::schema {
namespace {

// The byte offsets where each line starts; a text ending in '\n' has an empty last line.
std::vector<size_t> line_starts(std::string_view text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  return starts;
}

// The 0-based line that holds byte `offset`.
size_t line_index(const std::vector<size_t>& starts, size_t offset) {
  return static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin()) - 1;
}

std::string where(const Diagnostic& d) { return fmt::format("{}:{}", d.location.line, d.location.column); }

}  // namespace

std::optional<size_t> offset_of(std::string_view text, uint32_t line, uint32_t column) {
  if (line == 0 || column == 0) return std::nullopt;
  size_t start = 0;
  for (uint32_t l = 1; l < line; ++l) {
    size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) return std::nullopt;
    start = newline + 1;
  }
  size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  size_t offset = start + column - 1;
  if (offset > end) return std::nullopt;
  return offset;
}

std::optional<TextEdit> edit_of(std::string_view text, const FixHint& fix) {
  const Location& loc = fix.location;
  std::optional<size_t> begin = offset_of(text, loc.line, loc.column);
  std::optional<size_t> end = offset_of(text, loc.end_line, loc.end_column);
  if (!begin || !end || *end < *begin) return std::nullopt;
  return TextEdit{*begin, *end, fix.replacement};
}

FixOutcome apply_fixes(std::string_view file, std::string_view text, std::span<const Diagnostic> diagnostics) {
  struct Candidate {
    TextEdit edit;
    const Diagnostic* diagnostic;
  };
  FixOutcome out;
  std::vector<Candidate> candidates;
  for (const Diagnostic& d : diagnostics) {
    if (!d.fix || d.location.file != file || d.fix->location.file != file) continue;
    if (!d.fix->unsafe_reason.empty()) {
      out.skipped.push_back({d, d.fix->unsafe_reason});
      continue;
    }
    std::optional<TextEdit> edit = edit_of(text, *d.fix);
    if (!edit) {
      out.skipped.push_back({d, "its range is not in the file"});
      continue;
    }
    candidates.push_back({std::move(*edit), &d});
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.edit.begin != b.edit.begin ? a.edit.begin < b.edit.begin : a.edit.end < b.edit.end;
  });
  const Candidate* last = nullptr;
  for (const Candidate& c : candidates) {
    if (last != nullptr) {
      const TextEdit& prev = last->edit;
      if (c.edit.begin == prev.begin && c.edit.end == prev.end && c.edit.replacement == prev.replacement) continue;
      if (c.edit.begin < prev.end || c.edit.begin == prev.begin) {
        out.skipped.push_back({*c.diagnostic, fmt::format("it overlaps the fix of [{}] at {}",
                                                          last->diagnostic->rule, where(*last->diagnostic))});
        continue;
      }
    }
    out.edits.push_back(c.edit);
    last = &c;
  }
  size_t at = 0;
  for (const TextEdit& e : out.edits) {
    out.text.append(text.substr(at, e.begin - at));
    out.text += e.replacement;
    at = e.end;
  }
  out.text.append(text.substr(at));
  return out;
}

std::string render_unified_diff(std::string_view path, std::string_view before, std::span<const TextEdit> edits,
                                int context) {
  if (edits.empty()) return "";
  const std::vector<size_t> starts = line_starts(before);
  // Lines of `before` as [start, end) byte ranges, the last one dropped when it is empty.
  size_t line_count = starts.size();
  if (starts.back() == before.size()) --line_count;
  auto line_text = [&](size_t i) {
    size_t end = i + 1 < starts.size() ? starts[i + 1] : before.size();
    return before.substr(starts[i], end - starts[i]);
  };
  auto line_end = [&](size_t i) { return i + 1 < starts.size() ? starts[i + 1] : before.size(); };
  // Edits widened to whole lines, those sharing a line merged: old lines [first, last] and their
  // new text.
  struct Change {
    size_t first, last;  // 0-based, inclusive
    std::string new_text;
    size_t end;          // byte offset after the change's last edit
  };
  std::vector<Change> changes;
  for (const TextEdit& e : edits) {
    size_t first = line_index(starts, e.begin);
    size_t last = e.end > e.begin ? line_index(starts, e.end - 1) : first;
    if (changes.empty() || first > changes.back().last) {
      changes.push_back({first, last, std::string(before.substr(starts[first], e.begin - starts[first])), e.begin});
    } else {
      changes.back().new_text += before.substr(changes.back().end, e.begin - changes.back().end);
      changes.back().last = std::max(changes.back().last, last);
    }
    changes.back().new_text += e.replacement;
    changes.back().end = e.end;
  }
  for (Change& c : changes) c.new_text += before.substr(c.end, line_end(c.last) - c.end);
  auto split_lines = [](std::string_view text) {
    std::vector<std::string_view> lines;
    size_t at = 0;
    while (at < text.size()) {
      size_t nl = text.find('\n', at);
      size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
      lines.push_back(text.substr(at, end - at));
      at = end;
    }
    return lines;
  };
  auto emit = [](std::string& out, char sign, std::string_view line) {
    out += sign;
    out += line;
    if (!line.ends_with('\n')) out += "\n\\ No newline at end of file\n";
  };
  std::string out = fmt::format("--- a/{}\n+++ b/{}\n", path, path);
  long shift = 0;  // new line number minus old line number before the current hunk
  for (size_t i = 0; i < changes.size();) {
    // A hunk: changes whose context windows touch.
    size_t j = i;
    while (j + 1 < changes.size() && changes[j + 1].first <= changes[j].last + 1 + 2 * static_cast<size_t>(context)) ++j;
    size_t hunk_first = changes[i].first >= static_cast<size_t>(context) ? changes[i].first - context : 0;
    size_t hunk_last = std::min(line_count == 0 ? 0 : line_count - 1, changes[j].last + context);
    std::string body;
    size_t old_count = 0, new_count = 0;
    size_t line = hunk_first;
    for (size_t k = i; k <= j; ++k) {
      for (; line < changes[k].first; ++line, ++old_count, ++new_count) emit(body, ' ', line_text(line));
      for (; line <= changes[k].last && line < line_count; ++line, ++old_count) emit(body, '-', line_text(line));
      for (std::string_view l : split_lines(changes[k].new_text)) {
        emit(body, '+', l);
        ++new_count;
      }
    }
    for (; line <= hunk_last && line < line_count; ++line, ++old_count, ++new_count) emit(body, ' ', line_text(line));
    out += fmt::format("@@ -{},{} +{},{} @@\n", old_count == 0 ? hunk_first : hunk_first + 1, old_count,
                       new_count == 0 ? hunk_first + shift : hunk_first + 1 + shift, new_count);
    out += body;
    shift += static_cast<long>(new_count) - static_cast<long>(old_count);
    i = j + 1;
  }
  return out;
}

uint32_t utf16_column(std::string_view line, uint32_t column) {
  uint32_t units = 0;
  size_t end = std::min<size_t>(column == 0 ? 0 : column - 1, line.size());
  for (size_t i = 0; i < end;) {
    auto c = static_cast<unsigned char>(line[i]);
    size_t n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    if (i + n > line.size()) n = 1;
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return units + 1;
}

}  // namespace schemac::schema
