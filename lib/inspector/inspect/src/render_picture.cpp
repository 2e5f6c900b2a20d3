// Tables and resolutions as pictures: Graphviz DOT and Mermaid (render.h). A table is its runtime
// keys pointing at kernels, the keys that reach one kernel for one reason folded into one box, each
// edge coloured by why that kernel was chosen, with a legend; a resolution is the redispatch chain,
// one node per step with the key set it dispatched on.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "schemac/inspect/columns.h"
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
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string mermaid_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "#quot;"; break;
      case '<': out += "#lt;"; break;
      case '>': out += "#gt;"; break;
      case '\n': out += "<br/>"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

std::string fold_identity(const TableRow& row) {
  if (row.fallthrough) return "fallthrough";
  if (row.reason == Reason::BackendFallback) return "backend fallback";
  return fmt::format("{}|{}", picture_kernel_label(row), reason_text(row.reason));
}

std::string folded_kernel_label(const std::vector<TableRow>& rows) {
  std::set<std::string> kernels;
  for (const TableRow& r : rows) kernels.insert(picture_kernel_label(r));
  if (kernels.size() == 1) return *kernels.begin();
  if (rows.front().fallthrough) return "fallthrough: dispatch skips the key";
  const bool fallbacks = std::all_of(rows.begin(), rows.end(), [](const TableRow& r) {
    return r.reason == Reason::BackendFallback;
  });
  std::string out = fallbacks
                        ? fmt::format("{} backend fallbacks, each for every operator:", rows.size())
                        : fmt::format("{} kernels:", rows.size());
  for (const TableRow& r : rows) out += fmt::format("\n{}: {}", r.key, picture_kernel_label(r));
  return out;
}

std::vector<FoldedRows> fold_rows(const std::vector<TableRow>& rows) {
  std::vector<FoldedRows> folds;
  std::vector<std::vector<TableRow>> members;
  std::map<std::string, size_t> index;
  for (const TableRow& r : rows) {
    const auto [at, added] = index.emplace(fold_identity(r), folds.size());
    if (added) {
      folds.push_back({r, {}, {}});
      members.emplace_back();
    }
    folds[at->second].keys.push_back(r.key);
    members[at->second].push_back(r);
  }
  for (size_t i = 0; i < folds.size(); ++i) folds[i].kernel = folded_kernel_label(members[i]);
  return folds;
}

std::string folded_keys_label(const std::vector<std::string>& keys) {
  if (keys.size() == 1) return keys.front();
  constexpr size_t kLineWidth = 64;
  std::string out = fmt::format("{} keys:", keys.size()), line;
  for (const std::string& key : keys) {
    if (!line.empty() && line.size() + 2 + key.size() > kLineWidth) {
      out += "\n" + line + ",";
      line.clear();
    }
    line += (line.empty() ? "" : ", ") + key;
  }
  return out + "\n" + line;
}

std::string picture_kernel_label(const TableRow& row) {
  if (!row.has_kernel) return "(missing)";
  constexpr std::string_view kRegisteredAt = "registered at ";
  const std::string_view kernel = row.kernel;
  if (!kernel.starts_with(kRegisteredAt)) return row.kernel;
  // "registered at /a/b/RegisterCPU.cpp:31085 [kernel]": the file and line, then the rest.
  const std::string_view site = kernel.substr(kRegisteredAt.size());
  const size_t end = site.find(' ');
  const std::string rest = end == std::string_view::npos ? "" : std::string(site.substr(end));
  return "registered at " + file_and_line(site.substr(0, end)) + rest;
}

std::string picture_reason_label(const TableRow& row) {
  return row.fallthrough ? "fallthrough" : std::string(reason_text(row.reason));
}

namespace {

// The legend's lines: each colour the rows use, and what it means.
std::vector<std::pair<std::string, std::string>> legend_entries(const std::vector<TableRow>& rows) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  for (const TableRow& r : rows) {
    const std::string colour = reason_colour(r);
    if (!seen.insert(colour).second) continue;
    std::string meaning;
    if (r.fallthrough) {
      meaning = "fallthrough (dashed): the key is skipped";
    } else if (!r.has_kernel || is_failure(r.reason)) {
      meaning = "missing or ambiguous: a call fails here";
    } else {
      switch (r.reason) {
        case Reason::Kernel: meaning = "kernel: registered to the key"; break;
        case Reason::DefaultBackendKernel:
          meaning = "default backend kernel: CompositeExplicitAutograd";
          break;
        case Reason::MathKernel:
        case Reason::NestedKernel:
          meaning = "math or nested kernel: a composite that calls other operators";
          break;
        case Reason::AutogradKernel: meaning = "autograd kernel: the Autograd alias"; break;
        case Reason::BackendFallback:
          meaning = "backend fallback: one kernel for every operator";
          break;
        default: meaning = std::string(reason_text(r.reason)); break;
      }
    }
    out.emplace_back(colour, meaning);
  }
  return out;
}

}  // namespace

std::string dot_legend(const std::vector<TableRow>& rows) {
  std::string out =
      "  subgraph cluster_legend {\n    label=\"legend\";\n    style=dashed;\n    color=gray60;\n"
      "    legend [shape=plaintext, label=<<table border=\"0\" cellspacing=\"1\">";
  for (const auto& [colour, meaning] : legend_entries(rows))
    out += fmt::format("<tr><td align=\"left\"><font color=\"{}\">&#9632; {}</font></td></tr>",
                       colour, meaning);
  return out + "</table>>];\n  }\n";
}

std::string mermaid_legend(const std::vector<TableRow>& rows) {
  std::string out = "  subgraph legend [legend]\n", styles;
  size_t i = 0;
  for (const auto& [colour, meaning] : legend_entries(rows)) {
    out += fmt::format("    legend{}[{}]\n", i, mermaid_quoted(meaning));
    styles += fmt::format("  style legend{} stroke:{},color:{}\n", i++, colour, colour);
  }
  return out + "  end\n" + styles;
}

std::string table_dot(const Table& table) {
  std::string out = fmt::format(
      "digraph dispatch_table {{\n  label={};\n  labelloc=t;\n  rankdir=LR;\n  nodesep=0.12;\n  "
      "node [shape=box, "
      "fontname=\"monospace\"];\n",
      dot_quoted(table.op));
  std::map<std::string, size_t> kernels;
  const std::vector<FoldedRows> folds = fold_rows(table.rows);
  // Each key box, then its kernel's box where it is new, last first: left to right, Graphviz
  // stacks a rank's boxes bottom up in the order they come.
  for (size_t i = folds.size(); i-- > 0;) {
    const TableRow& r = folds[i].row;
    out += fmt::format("  key{} [label={}];\n", i, dot_quoted(folded_keys_label(folds[i].keys)));
    if (kernels.emplace(folds[i].kernel, kernels.size()).second)
      out += fmt::format("  k{} [label={}, style=rounded];\n", kernels.size() - 1,
                         dot_quoted(folds[i].kernel));
    const std::string colour = reason_colour(r);
    out += fmt::format("  key{} -> k{} [label={}, color={}, fontcolor={}{}];\n", i,
                       kernels.at(folds[i].kernel), dot_quoted(picture_reason_label(r)), colour,
                       colour, r.fallthrough ? ", style=dashed" : "");
  }
  return out + dot_legend(table.rows) + "}\n";
}

std::string table_mermaid(const Table& table) {
  std::string out = fmt::format("flowchart LR\n  %% {}\n", table.op);
  std::map<std::string, size_t> kernels;
  std::string styles;
  const std::vector<FoldedRows> folds = fold_rows(table.rows);
  for (const FoldedRows& f : folds) {
    if (kernels.emplace(f.kernel, kernels.size()).second)
      out += fmt::format("  k{}({})\n", kernels.size() - 1, mermaid_quoted(f.kernel));
  }
  for (size_t i = 0; i < folds.size(); ++i) {
    const TableRow& r = folds[i].row;
    out += fmt::format("  key{}[{}] -->|{}| k{}\n", i,
                       mermaid_quoted(folded_keys_label(folds[i].keys)),
                       mermaid_quoted(picture_reason_label(r)), kernels.at(folds[i].kernel));
    styles += fmt::format("  linkStyle {} stroke:{}\n", i, reason_colour(r));
  }
  return out + styles + mermaid_legend(table.rows);
}

std::string resolution_dot(const Resolution& r) {
  std::string out = fmt::format(
      "digraph redispatch_chain {{\n  label={};\n  labelloc=t;\n  node [shape=box, "
      "fontname=\"monospace\"];\n",
      dot_quoted(r.op + ": " + r.key_set));
  for (size_t i = 0; i < r.chain.size(); ++i) {
    const ResolveStep& s = r.chain[i];
    const std::string colour = s.has_kernel ? "black" : "red";
    out += fmt::format(
        "  step{} [label={}, color={}];\n", i,
        dot_quoted(fmt::format("{}: {} [{}]\n{}", s.key, s.has_kernel ? s.kernel : "(missing)",
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
    out += fmt::format(
        "  step{}[{}]\n", i,
        mermaid_quoted(fmt::format("{}: {} [{}]\n{}", s.key, s.has_kernel ? s.kernel : "(missing)",
                                   reason_text(s.reason), s.key_set)));
    if (i > 0) out += fmt::format("  step{} -->|redispatch| step{}\n", i - 1, i);
  }
  return out + fmt::format("  step{} -.-> finish[{}]\n", r.chain.size() - 1, mermaid_quoted(r.end));
}

}  // namespace schemac::inspect::report
