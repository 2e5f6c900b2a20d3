// What every picture of dispatch-inspect shares (render_picture.cpp): the colour of an entry by
// its reason, and quoting for Graphviz DOT and Mermaid labels.
#pragma once

#include <string>

#include "schemac/inspect/report.h"

namespace schemac::inspect::report {

// Black direct kernel, blue default backend, darkgreen math or nested, purple autograd, orange
// backend fallback, gray60 fallthrough, red missing or ambiguous, brown anything else.
std::string reason_colour(const TableRow& row);

// A DOT string: quotes and backslashes escaped, newlines as spaces.
std::string dot_quoted(const std::string& text);

// A Mermaid label: quotes become #quot;, which Mermaid decodes.
std::string mermaid_quoted(const std::string& text);

}  // namespace schemac::inspect::report
