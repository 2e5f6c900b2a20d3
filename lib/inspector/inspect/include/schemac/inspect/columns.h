// Aligned text columns that fit a width: the text tables of dispatch-inspect (table, diff). Cells
// of the columns marked elidable are shortened with "…" until the widest line fits; the other
// columns keep their full text, and every column keeps one width, so the rows stay aligned.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::inspect::report {

// The default width of a text table; 0 means no limit (--wide).
inline constexpr size_t kTextColumns = 100;

// How a cell too long for its column is shortened.
enum class Elide {
  Never,  // kept whole
  End,    // "twice_inplace_or_v…": a name keeps its beginning
  Start,  // "…/dispatch_default_fallbacks.cpp:29": a path keeps its file and line
};

// The width of `text` on a terminal: one column per UTF-8 code point.
size_t display_width(std::string_view text);

// FILE:LINE without its directories: what a table that must fit shows of a site (the same in
// every checkout; JSON and --wide keep the path).
std::string file_and_line(std::string_view site);

// A site as text shows it: "-" for none; one where PyTorch recorded a registration from Python
// (a .py file, where the torch.library.Library was made) marked "(registered from Python)";
// PyTorch 1.13's "/dev/null:N" (it records no file for those) "registered from Python".
// `file_only`: without its directories (file_and_line).
std::string site_text(std::string_view site, bool file_only = false);
// " (registered from Python)" for such a site, else "": what a line naming the kernel adds.
std::string_view python_mark(std::string_view site);

// `text` cut to at most `width` columns, "…" marking the cut.
std::string elide(std::string_view text, size_t width, Elide how);

// The width of the widest line aligned_columns would print with no limit.
size_t aligned_width(const std::vector<std::vector<std::string>>& rows);

// Rows (the first is the header) as columns two spaces apart, the last one unpadded, every line
// at most `max_width` columns when the elidable columns can give enough (never below 8 each).
// The elidable columns give up width widest first, so a short one keeps its text.
std::string aligned_columns(const std::vector<std::vector<std::string>>& rows,
                            const std::vector<Elide>& how, size_t max_width);

}  // namespace schemac::inspect::report
