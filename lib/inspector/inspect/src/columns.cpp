// Aligned text columns that fit a width (columns.h).
#include "schemac/inspect/columns.h"

#include <algorithm>

#include <fmt/format.h>

namespace schemac::inspect::report {
namespace {

constexpr std::string_view kEllipsis = "…";
constexpr size_t kMinElided = 8;
constexpr size_t kGap = 2;

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The byte offset after the first `columns` code points of `text`.
size_t prefix_bytes(std::string_view text, size_t columns) {
  size_t i = 0;
  for (size_t seen = 0; i < text.size(); ++i) {
    if (!continuation_byte(text[i]) && seen++ == columns) break;
  }
  return i;
}

std::string padded(const std::string& text, size_t width) {
  return text + std::string(width - std::min(width, display_width(text)), ' ');
}

std::vector<size_t> column_widths(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths(rows.empty() ? 0 : rows.front().size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < widths.size() && c < row.size(); ++c)
      widths[c] = std::max(widths[c], display_width(row[c]));
  return widths;
}

// A line of cells padded to `widths`, two spaces apart, the last unpadded.
size_t line_width(const std::vector<size_t>& widths, const std::vector<std::string>& row) {
  size_t sum = 0;
  for (size_t c = 0; c + 1 < widths.size(); ++c) sum += widths[c] + kGap;
  return sum + (row.size() >= widths.size() && !widths.empty()
                    ? display_width(row[widths.size() - 1])
                    : 0);
}

}  // namespace

size_t display_width(std::string_view text) {
  return static_cast<size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return !continuation_byte(c); }));
}

std::string file_and_line(std::string_view site) {
  return std::string(site.substr(site.rfind('/') + 1));
}

std::string_view python_mark(std::string_view site) {
  const bool python =
      site.starts_with("/dev/null:") || site.substr(0, site.rfind(':')).ends_with(".py");
  return python && !site.empty() ? " (registered from Python)" : "";
}

std::string site_text(std::string_view site, bool file_only) {
  if (site.empty()) return "-";
  if (site.starts_with("/dev/null:")) return "registered from Python";
  return (file_only ? file_and_line(site) : std::string(site)) + std::string(python_mark(site));
}

std::string elide(std::string_view text, size_t width, Elide how) {
  const size_t have = display_width(text);
  if (have <= width || how == Elide::Never || width == 0) return std::string(text);
  const size_t keep = width - 1;  // one column for the ellipsis
  if (how == Elide::End)
    return std::string(text.substr(0, prefix_bytes(text, keep))) + std::string(kEllipsis);
  std::string_view tail = text.substr(prefix_bytes(text, have - keep));
  // A path keeps whole trailing components where it can: "…/file.cpp:29", not "…e/file.cpp:29".
  if (const size_t slash = tail.find('/');
      slash != std::string_view::npos && slash + 1 < tail.size())
    tail.remove_prefix(slash);
  return std::string(kEllipsis) + std::string(tail);
}

size_t aligned_width(const std::vector<std::vector<std::string>>& rows) {
  const std::vector<size_t> widths = column_widths(rows);
  size_t widest = 0;
  for (const auto& row : rows) widest = std::max(widest, line_width(widths, row));
  return widest;
}

std::string aligned_columns(const std::vector<std::vector<std::string>>& rows,
                            const std::vector<Elide>& how, size_t max_width) {
  if (rows.empty()) return "";
  const size_t count = rows.front().size();
  std::vector<size_t> widths = column_widths(rows);
  auto total = [&] {
    size_t sum = kGap * (count - 1);
    for (size_t w : widths) sum += w;
    return sum;
  };
  // Take one column at a time from the widest elidable column until the line fits.
  while (max_width > 0 && total() > max_width) {
    size_t widest = count;
    for (size_t c = 0; c < count; ++c) {
      if (c < how.size() && how[c] != Elide::Never && widths[c] > kMinElided &&
          (widest == count || widths[c] > widths[widest]))
        widest = c;
    }
    if (widest == count) break;
    --widths[widest];
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < count; ++c) {
      const std::string cell =
          c < row.size() ? elide(row[c], widths[c], c < how.size() ? how[c] : Elide::Never) : "";
      line += c + 1 < count ? padded(cell, widths[c] + kGap) : cell;
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace schemac::inspect::report
