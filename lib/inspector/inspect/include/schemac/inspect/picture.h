// What every picture of dispatch-inspect shares (render_picture.cpp): the colour of an entry by
// its reason, quoting for Graphviz DOT and Mermaid labels, rows folded into one box per kernel
// and reason, and the legend of the colours.
#pragma once

#include <string>
#include <vector>

#include "schemac/inspect/report.h"

namespace schemac::inspect::report {

// Black direct kernel, blue default backend, darkgreen math or nested, purple autograd, orange
// backend fallback, gray60 fallthrough, red missing or ambiguous, brown anything else.
std::string reason_colour(const TableRow& row);

// A DOT string: quotes and backslashes escaped, a newline a line break (DOT's "\n").
std::string dot_quoted(const std::string& text);

// A Mermaid label: quotes, < and > as Mermaid's entity codes, a newline a line break (<br/>).
std::string mermaid_quoted(const std::string& text);

// Which rows share a box: the fallthrough keys all (dispatch skips them, whatever their
// kernel), the backend fallbacks all (one kernel per key, each for every operator), and otherwise
// the rows with the same kernel and reason.
std::string fold_identity(const TableRow& row);

// The kernel box of rows that share a box: their kernel where they have one; several backend
// fallbacks as "KEY: kernel" lines; fallthroughs as the skip they are.
std::string folded_kernel_label(const std::vector<TableRow>& rows);

// The rows that share a box: the first such row, the keys of all of them in table order, and
// their kernel box's label.
struct FoldedRows {
  TableRow row;
  std::vector<std::string> keys;
  std::string kernel;
};
// In order of each fold's first row.
std::vector<FoldedRows> fold_rows(const std::vector<TableRow>& rows);

// A fold's box label: its key, or "N keys:" and the keys, a few to a line.
std::string folded_keys_label(const std::vector<std::string>& keys);

// A kernel's box label: its name, or for a kernel named after its site (all of libtorch's)
// "registered at FILE:LINE" without the directories; "(missing)" without a kernel.
std::string picture_kernel_label(const TableRow& row);

// A picture's edge label: the reason, or "fallthrough" (whatever the reason: the key is skipped).
std::string picture_reason_label(const TableRow& row);

// The legend of the colours the rows use, as a DOT cluster and as a Mermaid subgraph.
std::string dot_legend(const std::vector<TableRow>& rows);
std::string mermaid_legend(const std::vector<TableRow>& rows);

}  // namespace schemac::inspect::report
