// Fix-its as byte edits, their application, and the unified diff of the result.
#include "schemac/diagnostics/fixes.h"

#include <algorithm>

#include <fmt/format.h>

namespace schemac::diagnostics {
namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

enum class Op : uint8_t { keep, remove, add };

// The shortest edit script from a to b (Myers' O(ND) greedy algorithm). The furthest points of
// each round are kept for the way back, only for the diagonals that round could reach: O(D²)
// memory.
std::vector<Op> myers(std::span<const std::string_view> a, std::span<const std::string_view> b) {
  const long n = static_cast<long>(a.size()), m = static_cast<long>(b.size()), max = n + m;
  std::vector<long> v(2 * max + 2, 0);
  std::vector<std::vector<long>> trace;
  long found = -1;
  for (long d = 0; d <= max && found < 0; ++d) {
    trace.emplace_back(v.begin() + (max - d), v.begin() + (max + d + 1));
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max])) ? v[k + 1 + max]
                                                                        : v[k - 1 + max] + 1;
      long y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[k + max] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  std::vector<Op> ops;
  long x = n, y = m;
  for (long d = found; d > 0; --d) {
    const std::vector<long>& pv = trace[d];  // pv[k + d] is diagonal k before round d
    long k = x - y;
    long prev_k = (k == -d || (k != d && pv[k - 1 + d] < pv[k + 1 + d])) ? k + 1 : k - 1;
    long prev_x = pv[prev_k + d], prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) ops.push_back(Op::keep), --x, --y;
    ops.push_back(x == prev_x ? Op::add : Op::remove);
    x = prev_x;
    y = prev_y;
  }
  while (x > 0 && y > 0) ops.push_back(Op::keep), --x, --y;
  std::reverse(ops.begin(), ops.end());
  return ops;
}

void emit(std::string& out, char sign, std::string_view line) {
  out += sign;
  out += line;
  if (!line.ends_with('\n')) out += "\n\\ No newline at end of file\n";
}

// The hunks of an edit script, each change with `context` unchanged lines around it.
std::string render_hunks(std::string_view path, const std::vector<std::string_view>& a,
                         const std::vector<std::string_view>& b, const std::vector<Op>& ops,
                         size_t context) {
  std::string out = fmt::format("--- a/{}\n+++ b/{}\n", path, path);
  // Positions in `ops` of the changes, grouped into hunks whose contexts touch.
  std::vector<size_t> changes;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i] != Op::keep) changes.push_back(i);
  }
  for (size_t c = 0; c < changes.size();) {
    size_t last = c;
    while (last + 1 < changes.size() && changes[last + 1] - changes[last] <= 2 * context + 1)
      ++last;
    size_t begin = changes[c] >= context ? changes[c] - context : 0;
    size_t end = std::min(ops.size(), changes[last] + context + 1);
    // The line numbers where the hunk starts on each side.
    size_t ai = 0, bi = 0;
    for (size_t i = 0; i < begin; ++i) {
      if (ops[i] != Op::add) ++ai;
      if (ops[i] != Op::remove) ++bi;
    }
    std::string body;
    size_t a_count = 0, b_count = 0;
    for (size_t i = begin; i < end; ++i) {
      if (ops[i] == Op::keep) {
        emit(body, ' ', a[ai + a_count]);
        ++a_count, ++b_count;
      } else if (ops[i] == Op::remove) {
        emit(body, '-', a[ai + a_count]);
        ++a_count;
      } else {
        emit(body, '+', b[bi + b_count]);
        ++b_count;
      }
    }
    out += fmt::format("@@ -{},{} +{},{} @@\n", a_count == 0 ? ai : ai + 1, a_count,
                       b_count == 0 ? bi : bi + 1, b_count);
    out += body;
    c = last + 1;
  }
  return out;
}

std::string where(const Diagnostic& d) {
  return fmt::format("{}:{}", d.location.line, d.location.column);
}

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

FixOutcome apply_fixes(std::string_view file, std::string_view text,
                       std::span<const Diagnostic> diagnostics) {
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
  std::stable_sort(
      candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.edit.begin != b.edit.begin ? a.edit.begin < b.edit.begin : a.edit.end < b.edit.end;
      });
  const Candidate* last = nullptr;
  for (const Candidate& c : candidates) {
    if (last != nullptr) {
      const TextEdit& prev = last->edit;
      if (c.edit.begin == prev.begin && c.edit.end == prev.end &&
          c.edit.replacement == prev.replacement)
        continue;
      if (c.edit.begin < prev.end || c.edit.begin == prev.begin) {
        out.skipped.push_back(
            {*c.diagnostic, fmt::format("it overlaps the fix of [{}] at {}", last->diagnostic->rule,
                                        where(*last->diagnostic))});
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

std::string render_unified_diff(std::string_view path, std::string_view before,
                                std::string_view after, int context) {
  if (before == after) return "";
  const std::vector<std::string_view> a = split_lines(before);
  const std::vector<std::string_view> b = split_lines(after);
  // Lines both sides share at the ends need no search.
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  std::vector<Op> ops(prefix, Op::keep);
  std::vector<Op> middle =
      myers({a.begin() + prefix, a.end() - suffix}, {b.begin() + prefix, b.end() - suffix});
  ops.insert(ops.end(), middle.begin(), middle.end());
  ops.insert(ops.end(), suffix, Op::keep);
  return render_hunks(path, a, b, ops, static_cast<size_t>(std::max(context, 0)));
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

FixRounds apply_fixes_in_rounds(std::span<const std::string> paths, std::vector<std::string>& texts,
                                const Relint& relint) {
  constexpr int kMaxRounds = 8;
  FixRounds out;
  for (int round = 0; round < kMaxRounds; ++round) {
    std::vector<Diagnostic> diagnostics = relint(texts);
    out.left_out.clear();
    bool changed = false;
    for (size_t i = 0; i < paths.size(); ++i) {
      FixOutcome outcome = apply_fixes(paths[i], texts[i], diagnostics);
      for (SkippedFix& skipped : outcome.skipped) out.left_out.push_back(std::move(skipped));
      if (outcome.edits.empty() || outcome.text == texts[i]) continue;
      out.fixed += outcome.edits.size();
      texts[i] = std::move(outcome.text);
      changed = true;
    }
    if (!changed) break;
  }
  return out;
}

}  // namespace schemac::diagnostics
