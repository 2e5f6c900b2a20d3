// A table comparison as text, JSON and pictures (render_diff.h).
#include "schemac/inspect/render_diff.h"

#include <fmt/format.h>

#include <map>

#include "schemac/inspect/picture.h"

namespace schemac::inspect::report {
namespace {

// "schemac, loaded libmyops.so and libextra.so" (file names only: the JSON has the paths).
std::string source_text(const DiffSource& source) {
  std::string out = source.runtime;
  if (!source.libraries.empty()) {
    std::vector<std::string> names;
    for (const std::string& path : source.libraries)
      names.push_back(path.substr(path.rfind('/') + 1));
    out += fmt::format(" after loading {}", fmt::join(names, ", "));
  }
  return source.has_operator ? out : out + " (no such operator)";
}

// A kernel as a text that must fit shows it: "fallthrough", a kernel named after its site (all
// of libtorch's) as that site's FILE:LINE, else its name.
std::string kernel_cell(const std::optional<TableRow>& row) {
  if (!row) return "-";
  if (row->fallthrough) return "fallthrough";
  constexpr std::string_view kRegisteredAt = "registered at ";
  if (std::string_view(row->kernel).starts_with(kRegisteredAt))
    return file_and_line(std::string_view(row->kernel).substr(kRegisteredAt.size()));
  return row->kernel;
}

std::string reason_cell(const std::optional<TableRow>& row) {
  return std::string(reason_text(row ? row->reason : Reason::Missing));
}

std::string wide_reason_cell(const std::optional<TableRow>& row) {
  return reason_cell(row) + (row && row->fallthrough ? " (fallthrough)" : "");
}

Json entry_json(const std::optional<TableRow>& row) {
  if (!row) return Json();
  return Json{{"kernel", row->kernel},
              {"reason", reason_text(row->reason)},
              {"fallthrough", row->fallthrough},
              {"site", row->site.empty() ? Json() : Json(row->site)}};
}

Json source_json(const DiffSource& source) {
  return Json{{"runtime", source.runtime},
              {"libraries", source.libraries},
              {"has_operator", source.has_operator}};
}

std::string edge_label(const char* side, const std::optional<TableRow>& row) {
  return fmt::format("{}{}{}", side, reason_cell(row),
                     row && row->fallthrough ? " (fallthrough)" : "");
}

// A row's kernel as a picture's node label.
std::string kernel_node_label(const std::optional<TableRow>& row) {
  return row ? row->kernel : "(missing)";
}

std::string edge_colour(const std::optional<TableRow>& row) {
  return row ? reason_colour(*row) : "red";
}

// The picture's kernel nodes, one per distinct label, numbered in order of first use.
class KernelNodes {
 public:
  // The node's number, and whether it is new.
  std::pair<size_t, bool> add(const std::string& label) {
    const auto [at, added] = ids_.emplace(label, ids_.size());
    return {at->second, added};
  }

 private:
  std::map<std::string, size_t> ids_;
};

std::string summary_line(const TableDiff& diff) {
  const size_t changed = diff.changed_count();
  std::string out = changed == 0
                        ? fmt::format("{}: equal ({} keys compared)", diff.op, diff.keys_compared)
                        : fmt::format("{} of {} keys differ", changed, diff.keys_compared);
  if (!diff.compares_kernels) out += " (kernel names are not compared across runtimes)";
  return out;
}

}  // namespace

std::string diff_text(const TableDiff& diff, const DiffSource& left, const DiffSource& right,
                      size_t columns) {
  if (diff.equal()) return elide(summary_line(diff), columns, Elide::End) + "\n";
  std::string out =
      elide(fmt::format("--- {}: {}", diff.op, source_text(left)), columns, Elide::End) + "\n" +
      elide(fmt::format("+++ {}: {}", diff.op, source_text(right)), columns, Elide::End) + "\n";
  std::vector<std::vector<std::string>> rows = {{"key", "before", "reason", "after", "reason"}};
  for (const KeyComparison& k : diff.keys) {
    if (!k.changed) continue;
    if (columns == 0) {  // --wide: every kernel whole, as `table --wide` shows it
      rows.push_back({k.key, k.left ? k.left->kernel : "-", wide_reason_cell(k.left),
                      k.right ? k.right->kernel : "-", wide_reason_cell(k.right)});
    } else {
      rows.push_back({k.key, kernel_cell(k.left), reason_cell(k.left), kernel_cell(k.right),
                      reason_cell(k.right)});
    }
  }
  out += aligned_columns(
      rows, {Elide::Never, Elide::Start, Elide::Never, Elide::Start, Elide::Never}, columns);
  return out + elide(summary_line(diff), columns, Elide::End) + "\n";
}

Json diff_json(const TableDiff& diff, const DiffSource& left, const DiffSource& right) {
  Json changes = Json::array();
  for (const KeyComparison& k : diff.keys)
    if (k.changed)
      changes.push_back(
          Json{{"key", k.key}, {"left", entry_json(k.left)}, {"right", entry_json(k.right)}});
  return Json{{"operator", diff.op},
              {"left", source_json(left)},
              {"right", source_json(right)},
              {"compares_kernels", diff.compares_kernels},
              {"keys_compared", diff.keys_compared},
              {"equal", diff.equal()},
              {"changes", std::move(changes)}};
}

std::string diff_dot(const TableDiff& diff, const DiffSource& left, const DiffSource& right) {
  std::string out = fmt::format(
      "digraph table_diff {{\n  label={};\n  rankdir=LR;\n  node [shape=box, "
      "fontname=\"monospace\"];\n",
      dot_quoted(fmt::format("{}: before = {}, after = {}", diff.op, source_text(left),
                             source_text(right))));
  KernelNodes kernels;
  auto kernel_node = [&](const std::optional<TableRow>& row) {
    const auto [id, added] = kernels.add(kernel_node_label(row));
    if (added)
      out +=
          fmt::format("  k{} [label={}, style=rounded];\n", id, dot_quoted(kernel_node_label(row)));
    return id;
  };
  for (size_t i = 0; i < diff.keys.size(); ++i) {
    const KeyComparison& k = diff.keys[i];
    out +=
        fmt::format("  key{} [label={}{}];\n", i, dot_quoted(k.key),
                    k.changed ? ", style=filled, fillcolor=mistyrose, color=red, penwidth=2" : "");
    const size_t after = kernel_node(k.right);
    if (!k.changed) {
      const std::string colour = edge_colour(k.right);
      // As table's picture: a fallthrough's edge is dashed.
      out += fmt::format("  key{} -> k{} [label={}, color={}, fontcolor={}{}];\n", i, after,
                         dot_quoted(edge_label("", k.right)), colour, colour,
                         k.right && k.right->fallthrough ? ", style=dashed" : "");
      continue;
    }
    const size_t before = kernel_node(k.left);
    out += fmt::format("  key{} -> k{} [label={}, color=gray50, fontcolor=gray50, style=dashed];\n",
                       i, before, dot_quoted(edge_label("before: ", k.left)));
    out += fmt::format("  key{} -> k{} [label={}, color=red, fontcolor=red, penwidth=2];\n", i,
                       after, dot_quoted(edge_label("after: ", k.right)));
  }
  return out + "}\n";
}

std::string diff_mermaid(const TableDiff& diff, const DiffSource& left, const DiffSource& right) {
  std::string out = fmt::format("flowchart LR\n  %% {}: before = {}, after = {}\n", diff.op,
                                source_text(left), source_text(right));
  KernelNodes kernels;
  std::string styles = "  classDef changed fill:#ffe4e1,stroke:#d00,stroke-width:2px\n";
  size_t edges = 0;
  auto kernel_node = [&](const std::optional<TableRow>& row) {
    const auto [id, added] = kernels.add(kernel_node_label(row));
    if (added) out += fmt::format("  k{}({})\n", id, mermaid_quoted(kernel_node_label(row)));
    return id;
  };
  auto edge = [&](size_t key, const std::string& arrow, const std::string& label, size_t kernel,
                  const std::string& colour) {
    out += fmt::format("  key{} {}|{}| k{}\n", key, arrow, mermaid_quoted(label), kernel);
    styles += fmt::format("  linkStyle {} stroke:{}\n", edges++, colour);
  };
  for (size_t i = 0; i < diff.keys.size(); ++i) {
    const KeyComparison& k = diff.keys[i];
    out += fmt::format("  key{}[{}]\n", i, mermaid_quoted(k.key));
    const size_t after = kernel_node(k.right);
    if (!k.changed) {
      edge(i, "-->", edge_label("", k.right), after, edge_colour(k.right));
      continue;
    }
    styles += fmt::format("  class key{} changed\n", i);
    const size_t before = kernel_node(k.left);
    edge(i, "-.->", edge_label("before: ", k.left), before, "gray");
    edge(i, "==>", edge_label("after: ", k.right), after, "red");
  }
  return out + styles;
}

}  // namespace schemac::inspect::report
