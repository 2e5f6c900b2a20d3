// A table comparison as text, JSON and pictures (render_diff.h).
#include "schemac/inspect/render_diff.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

// A changed key's edge: "before: " or "after: ", then the reason as table's picture says it.
std::string edge_label(const char* side, const std::optional<TableRow>& row) {
  return side + (row ? picture_reason_label(*row) : reason_cell(row));
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

// What a picture of a diff draws: the changed keys first, those that changed alike folded into
// one box; then (unless only the changes are asked for) the unchanged keys with a kernel, folded
// as table's picture folds them. Unchanged keys without a kernel on either side are not drawn.
struct ChangeFold {
  std::optional<TableRow> left, right;  // the first change's
  std::vector<TableRow> lefts, rights;  // every change's entries, for the kernel boxes
  std::vector<std::string> keys;
};

// A side's kernel box: "(missing)" without an entry, else as table's picture folds kernels.
std::string side_kernel_label(const std::optional<TableRow>& row,
                              const std::vector<TableRow>& all) {
  return row ? folded_kernel_label(all) : "(missing)";
}

struct DiffPicture {
  std::vector<ChangeFold> changes;
  std::vector<FoldedRows> unchanged;
  std::vector<TableRow> drawn;  // every entry drawn, for the legend
  size_t not_drawn = 0;
  std::string title;
};

// Which changes share a box: alike on both sides as table's picture folds rows; across runtimes,
// whose kernel names are not compared, alike in reason and fallthrough.
std::string side_fold_key(const std::optional<TableRow>& row, bool compares_kernels) {
  if (!row) return "-";
  if (compares_kernels) return fold_identity(*row);
  return fmt::format("{}|{}", reason_text(row->reason), row->fallthrough);
}

std::string summary_line(const TableDiff& diff);

DiffPicture diff_picture(const TableDiff& diff, const DiffSource& left, const DiffSource& right,
                         bool changed_only) {
  DiffPicture picture;
  std::map<std::string, size_t> change_index;
  std::vector<TableRow> unchanged;
  for (const KeyComparison& k : diff.keys) {
    if (k.changed) {
      const auto [at, added] =
          change_index.emplace(side_fold_key(k.left, diff.compares_kernels) + "->" +
                                   side_fold_key(k.right, diff.compares_kernels),
                               picture.changes.size());
      if (added) picture.changes.push_back({k.left, k.right, {}, {}, {}});
      ChangeFold& fold = picture.changes[at->second];
      fold.keys.push_back(k.key);
      if (k.left) fold.lefts.push_back(*k.left);
      if (k.right) fold.rights.push_back(*k.right);
      for (const std::optional<TableRow>& side : {k.left, k.right})
        if (side) picture.drawn.push_back(*side);
    } else if (!changed_only && k.right && k.right->has_kernel) {
      TableRow row = *k.right;
      row.key = k.key;
      unchanged.push_back(row);
      picture.drawn.push_back(row);
    } else {
      ++picture.not_drawn;
    }
  }
  picture.unchanged = fold_rows(unchanged);
  picture.title = fmt::format("{}\nbefore = {}, after = {}", summary_line(diff), source_text(left),
                              source_text(right));
  if (picture.not_drawn > 0)
    picture.title += fmt::format("\n{} unchanged keys {}not drawn", picture.not_drawn,
                                 changed_only ? "" : "without a kernel on either side ");
  return picture;
}

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

std::string diff_dot(const TableDiff& diff, const DiffSource& left, const DiffSource& right,
                     bool changed_only) {
  const DiffPicture picture = diff_picture(diff, left, right, changed_only);
  std::string out = fmt::format(
      "digraph table_diff {{\n  label={};\n  labelloc=t;\n  rankdir=LR;\n  nodesep=0.12;\n"
      "  node [shape=box, fontname=\"monospace\"];\n",
      dot_quoted(picture.title));
  // Each box with its edges and new kernel boxes; written last first, as table's picture is, so
  // that the changes come out on top.
  std::vector<std::string> boxes;
  KernelNodes kernels;
  // A "(missing)" box of its own for each key box: shared, its edges would cross the picture.
  auto kernel_node = [&](const std::string& label) {
    const auto [id, added] =
        kernels.add(label == "(missing)" ? fmt::format("{}#{}", label, boxes.size()) : label);
    if (added)
      boxes.back() += fmt::format("  k{} [label={}, style=rounded];\n", id, dot_quoted(label));
    return id;
  };
  for (const ChangeFold& change : picture.changes) {
    const size_t box = boxes.size();
    boxes.push_back(fmt::format(
        "  key{} [label={}, style=filled, fillcolor=mistyrose, color=red, penwidth=2];\n", box,
        dot_quoted(folded_keys_label(change.keys))));
    const size_t before = kernel_node(side_kernel_label(change.left, change.lefts)),
                 after = kernel_node(side_kernel_label(change.right, change.rights));
    boxes.back() +=
        fmt::format("  key{} -> k{} [label={}, color=gray50, fontcolor=gray50, style=dashed];\n",
                    box, before, dot_quoted(edge_label("before: ", change.left)));
    boxes.back() +=
        fmt::format("  key{} -> k{} [label={}, color=red, fontcolor=red, penwidth=2];\n", box,
                    after, dot_quoted(edge_label("after: ", change.right)));
  }
  for (const FoldedRows& same : picture.unchanged) {
    const size_t box = boxes.size();
    boxes.push_back(fmt::format("  key{} [label={}, color=gray60];\n", box,
                                dot_quoted(folded_keys_label(same.keys))));
    const std::string colour = reason_colour(same.row);
    const size_t kernel = kernel_node(same.kernel);
    // As table's picture: a fallthrough's edge is dashed.
    boxes.back() += fmt::format("  key{} -> k{} [label={}, color={}, fontcolor={}{}];\n", box,
                                kernel, dot_quoted(picture_reason_label(same.row)), colour, colour,
                                same.row.fallthrough ? ", style=dashed" : "");
  }
  for (size_t i = boxes.size(); i-- > 0;) out += boxes[i];
  return out + dot_legend(picture.drawn) + "}\n";
}

std::string diff_mermaid(const TableDiff& diff, const DiffSource& left, const DiffSource& right,
                         bool changed_only) {
  const DiffPicture picture = diff_picture(diff, left, right, changed_only);
  std::string title = picture.title;
  for (size_t at = title.find('\n'); at != std::string::npos; at = title.find('\n', at))
    title.replace(at, 1, "; ");
  std::string out = fmt::format("flowchart LR\n  %% {}\n", title);
  KernelNodes kernels;
  std::string styles = "  classDef changed fill:#ffe4e1,stroke:#d00,stroke-width:2px\n";
  size_t edges = 0, box = 0;
  auto kernel_node = [&](const std::string& label) {
    const auto [id, added] = kernels.add(label);
    if (added) out += fmt::format("  k{}({})\n", id, mermaid_quoted(label));
    return id;
  };
  auto edge = [&](const std::string& arrow, const std::string& label, size_t kernel,
                  const std::string& colour) {
    out += fmt::format("  key{} {}|{}| k{}\n", box, arrow, mermaid_quoted(label), kernel);
    styles += fmt::format("  linkStyle {} stroke:{}\n", edges++, colour);
  };
  for (const ChangeFold& change : picture.changes) {
    out += fmt::format("  key{}[{}]\n", box, mermaid_quoted(folded_keys_label(change.keys)));
    styles += fmt::format("  class key{} changed\n", box);
    edge("-.->", edge_label("before: ", change.left),
         kernel_node(side_kernel_label(change.left, change.lefts)), "gray");
    edge("==>", edge_label("after: ", change.right),
         kernel_node(side_kernel_label(change.right, change.rights)), "red");
    ++box;
  }
  for (const FoldedRows& same : picture.unchanged) {
    out += fmt::format("  key{}[{}]\n", box, mermaid_quoted(folded_keys_label(same.keys)));
    edge("-->", picture_reason_label(same.row), kernel_node(same.kernel), reason_colour(same.row));
    ++box;
  }
  return out + styles + mermaid_legend(picture.drawn);
}

}  // namespace schemac::inspect::report
