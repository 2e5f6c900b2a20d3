// Tables and resolutions as pictures: Graphviz DOT and Mermaid (render.h). A table is runtime keys
// pointing at kernels, each edge coloured by why that kernel was chosen; a resolution is the
// redispatch chain, one node per step with the key set it dispatched on.
#include <fmt/format.h>

#include <map>

#include "schemac/inspect/picture.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect::report {

std::string reason_colour(const TableRow& row) {
  if (row.fallthrough) return "gray60";
  if (!row.has_kernel || is_failure(row.reason)) return "red";
  switch (row.reason) {
    case Reason::Kernel: return "black";
    case Reason::DefaultBackendKernel: return "blue";
    case Reason::MathKernel:
    case Reason::NestedKernel: return "darkgreen";
    case Reason::AutogradKernel: return "purple";
    case Reason::BackendFallback: return "orange";
    default: return "brown";
  }
}

std::string dot_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string mermaid_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("#quot;") : std::string(1, c);
  return out + "\"";
}

namespace {

std::string kernel_label(const TableRow& row) { return row.has_kernel ? row.kernel : "(missing)"; }

}  // namespace

std::string table_dot(const Table& table) {
  std::string out = fmt::format(
      "digraph dispatch_table {{\n  label={};\n  rankdir=LR;\n  node [shape=box, "
      "fontname=\"monospace\"];\n",
      dot_quoted(table.op));
  std::map<std::string, int> kernels;
  for (const TableRow& r : table.rows) {
    if (kernels.emplace(kernel_label(r), static_cast<int>(kernels.size())).second)
      out += fmt::format("  k{} [label={}, style=rounded];\n", kernels.size() - 1,
                         dot_quoted(kernel_label(r)));
  }
  for (size_t i = 0; i < table.rows.size(); ++i) {
    const TableRow& r = table.rows[i];
    const std::string colour = reason_colour(r);
    out += fmt::format(
        "  key{} [label={}];\n  key{} -> k{} [label={}, color={}, fontcolor={}{}];\n", i,
        dot_quoted(r.key), i, kernels.at(kernel_label(r)),
        dot_quoted(std::string(reason_text(r.reason)) + (r.fallthrough ? " (fallthrough)" : "")),
        colour, colour, r.fallthrough ? ", style=dashed" : "");
  }
  return out + "}\n";
}

std::string table_mermaid(const Table& table) {
  std::string out = fmt::format("flowchart LR\n  %% {}\n", table.op);
  std::map<std::string, int> kernels;
  std::string styles;
  for (const TableRow& r : table.rows) {
    if (kernels.emplace(kernel_label(r), static_cast<int>(kernels.size())).second)
      out += fmt::format("  k{}({})\n", kernels.size() - 1, mermaid_quoted(kernel_label(r)));
  }
  for (size_t i = 0; i < table.rows.size(); ++i) {
    const TableRow& r = table.rows[i];
    out += fmt::format("  key{}[{}] -->|{}| k{}\n", i, mermaid_quoted(r.key),
                       mermaid_quoted(std::string(reason_text(r.reason)) +
                                      (r.fallthrough ? " (fallthrough)" : "")),
                       kernels.at(kernel_label(r)));
    styles += fmt::format("  linkStyle {} stroke:{}\n", i, reason_colour(r));
  }
  return out + styles;
}

std::string resolution_dot(const Resolution& r) {
  std::string out = fmt::format(
      "digraph redispatch_chain {{\n  label={};\n  node [shape=box, fontname=\"monospace\"];\n",
      dot_quoted(r.op + ": " + r.key_set));
  for (size_t i = 0; i < r.chain.size(); ++i) {
    const ResolveStep& s = r.chain[i];
    const std::string colour = s.has_kernel ? "black" : "red";
    out += fmt::format(
        "  step{} [label={}, color={}];\n", i,
        dot_quoted(fmt::format("{}: {} [{}]\\n{}", s.key, s.has_kernel ? s.kernel : "(missing)",
                               reason_text(s.reason), s.key_set)),
        colour);
    if (i > 0) out += fmt::format("  step{} -> step{} [label=\"redispatch\"];\n", i - 1, i);
  }
  out += fmt::format("  finish [shape=plaintext, label={}];\n  step{} -> finish [style=dotted];\n",
                     dot_quoted(r.end), r.chain.size() - 1);
  return out + "}\n";
}

std::string resolution_mermaid(const Resolution& r) {
  std::string out = fmt::format("flowchart TD\n  %% {}: {}\n", r.op, r.key_set);
  for (size_t i = 0; i < r.chain.size(); ++i) {
    const ResolveStep& s = r.chain[i];
    out += fmt::format("  step{}[{}]\n", i,
                       mermaid_quoted(fmt::format("{}: {} [{}]<br/>{}", s.key,
                                                  s.has_kernel ? s.kernel : "(missing)",
                                                  reason_text(s.reason), s.key_set)));
    if (i > 0) out += fmt::format("  step{} -->|redispatch| step{}\n", i - 1, i);
  }
  return out + fmt::format("  step{} -.-> finish[{}]\n", r.chain.size() - 1, mermaid_quoted(r.end));
}

}  // namespace schemac::inspect::report
