// `dispatch-inspect diff OP`: two computed tables of OP compared (report/table_diff.h) — before and
// after loading libraries (--right-load), or one runtime's against the other's (--left-runtime,
// --right-runtime). Each side is computed in a process of its own, so neither sees the other's
// libraries. Exit 0 equal, 1 different, 2 usage error or trouble (as diff(1)).
#include <iostream>
#include <memory>
#include <set>

#include "commands.h"
#include "operator_command.h"
#include "runtime.h"
#include "schemac/inspect/names.h"
#include "schemac/inspect/operator_glob.h"
#include "schemac/inspect/render.h"
#include "schemac/inspect/render_diff.h"

namespace schemac::inspect {
namespace {

struct DiffOptions {
  std::vector<std::string> left_libraries, right_libraries;
  std::string left_runtime, right_runtime;  // "": the --runtime of the command
  bool wide = false;
  bool changed_only = false;  // --changed: pictures draw only the changed keys
};

// One side: where it is computed, and the names of the operators there.
struct Side {
  report::DiffSource source;
  std::set<std::string> operators;
  report::RuntimeInfo answerer;  // who answered there
};

// The operators of one side, or nullopt after its adapter said why not (a library failed to load).
std::optional<Side> side_of(const std::string& runtime, std::vector<std::string> libraries) {
  Side side{{runtime, std::move(libraries), true}, {}, {}};
  report::Request request;
  request.kind = "operators";
  request.libraries = side.source.libraries;
  const report::Response answer = ask_separately(request, *parse_runtime_name(runtime));
  if (answer.status != cli::kExitOk) return std::nullopt;
  for (const report::OperatorSummary& op : answer.operators.operators)
    side.operators.insert(op.name);
  side.answerer = answer.runtime;
  return side;
}

// The table of `op` on `side` with every runtime key; an empty table where it has no such operator
// (naming kernels as that runtime does: libtorch keeps no names).
std::optional<report::Table> table_on(const Side& side, const std::string& op) {
  if (!side.operators.contains(op)) return report::Table{op, side.source.runtime == "schemac", {}};
  report::Request request;
  request.kind = "table";
  request.libraries = side.source.libraries;
  request.op = op;
  request.all_keys = true;
  report::Response answer = ask_separately(request, *parse_runtime_name(side.source.runtime));
  if (answer.status != cli::kExitOk) return std::nullopt;
  return std::move(answer.table);
}

// The operators OP names on either side: a glob's matches, or the operator (or the overload
// packet's overloads) a name as PyTorch writes it stands for when one side has it.
std::optional<NamedOperators> operators_to_compare(const std::vector<std::string>& patterns,
                                                   const Side& left, const Side& right) {
  std::set<std::string> all = left.operators;
  all.insert(right.operators.begin(), right.operators.end());
  const std::vector<std::string> known(all.begin(), all.end());
  report::OperatorLookup found = report::find_operators(patterns, known);
  std::cerr << found.error << found.note;
  if (found.names.empty()) return std::nullopt;
  return NamedOperators{std::move(found.names), found.several};
}

std::string render(const OperatorCommandOptions& common, const DiffOptions& o,
                   const report::TableDiff& diff, const report::DiffSource& left,
                   const report::DiffSource& right) {
  if (common.format == "json")
    return report::json_text(report::diff_json(diff, left, right)) + "\n";
  if (common.format == "dot") return report::diff_dot(diff, left, right, o.changed_only);
  if (common.format == "mermaid") return report::diff_mermaid(diff, left, right, o.changed_only);
  return report::diff_text(diff, left, right, o.wide ? 0 : report::kTextColumns);
}

int run_diff(const OperatorCommandOptions& common, const DiffOptions& o) {
  const std::string left_runtime =
      o.left_runtime.empty() ? std::string(runtime_name(chosen_runtime())) : o.left_runtime;
  const std::string right_runtime =
      o.right_runtime.empty() ? std::string(runtime_name(chosen_runtime())) : o.right_runtime;
  std::vector<std::string> left_libraries = common.libraries, right_libraries = common.libraries;
  left_libraries.insert(left_libraries.end(), o.left_libraries.begin(), o.left_libraries.end());
  right_libraries.insert(right_libraries.end(), o.right_libraries.begin(), o.right_libraries.end());
  if (left_runtime == right_runtime && left_libraries == right_libraries) {
    cli::error("dispatch-inspect",
               "both sides are the same ({} runtime, the same libraries): give --right-load LIB to "
               "compare before "
               "and after loading it, or --left-runtime/--right-runtime to compare the runtimes",
               left_runtime);
    return cli::kExitUsage;
  }
  for (const std::string& op : common.ops) {
    if (!report::is_operator_glob(op)) continue;
    if (const std::optional<std::string> bad = report::glob_error(op)) {
      cli::error("dispatch-inspect", "{}", *bad);
      return cli::kExitUsage;
    }
  }
  const std::optional<Side> left = side_of(left_runtime, left_libraries);
  if (!left) return cli::kExitUsage;
  const std::optional<Side> right = side_of(right_runtime, right_libraries);
  if (!right) return cli::kExitUsage;
  const std::optional<NamedOperators> named = operators_to_compare(common.ops, *left, *right);
  if (!named) return cli::kExitUsage;
  const std::vector<std::string>* names = &named->names;
  const bool several = named->several;
  if (several && names->size() > 1 && common.format == "mermaid") {
    cli::error(
        "dispatch-inspect",
        "--format mermaid draws one operator, and '{}' matches {}: name one, or use --format dot",
        common.op_text(), names->size());
    return cli::kExitUsage;
  }
  std::vector<std::string> outputs;
  bool equal = true;
  for (const std::string& op : *names) {
    const std::optional<report::Table> before = table_on(*left, op), after = table_on(*right, op);
    if (!before || !after) return cli::kExitUsage;
    report::DiffSource left_source = left->source, right_source = right->source;
    left_source.has_operator = left->operators.contains(op);
    right_source.has_operator = right->operators.contains(op);
    const report::TableDiff diff = report::diff_tables(*before, *after);
    equal = equal && diff.equal();
    outputs.push_back(render(common, o, diff, left_source, right_source));
  }
  std::string all;
  if (several && common.format == "json") {
    all = json_array(outputs);
  } else {
    for (size_t i = 0; i < outputs.size(); ++i)
      all += (i > 0 && common.format == "text" ? "\n" : "") + outputs[i];
  }
  std::cout << report::with_runtime(std::move(all), common.format,
                                    {left->answerer, right->answerer}, std::cerr);
  return equal ? cli::kExitOk : cli::kExitProblems;
}

}  // namespace

void add_diff_command(CLI::App& app) {
  auto common = std::make_shared<OperatorCommandOptions>();
  auto options = std::make_shared<DiffOptions>();
  CLI::App* sub = add_operator_command(
      app,
      {"diff",
       "Compare an operator's computed table on two sides: before and after loading a library, or "
       "our runtime "
       "against libtorch's",
       {"text", "json", "dot", "mermaid"},
       "text (the keys that differ), json, or a picture with the changed keys highlighted: dot "
       "(Graphviz) or mermaid",
       "dispatch-inspect diff 'myops::*' --load libmyops.so --right-load liboverride.so\n"
       "  dispatch-inspect diff aten::add.Tensor --left-runtime schemac --left-load "
       "libschemac_kernels.so --right-runtime torch\n"
       "--load libraries are loaded on both sides, --left-load and --right-load on one; each side "
       "is computed in a process of its own.",
       "",
       true,
       "Exit status (as diff(1)): 0 the tables are equal, 1 they differ, 2 a library failed to "
       "load, the operator is on neither side, or a usage error."},
      common, [common, options] { return run_diff(*common, *options); });
  sub->add_option(
         "--left-load", options->left_libraries,
         "a library loaded on the left side only, after --load (loading a library runs its code)")
      ->allow_extra_args(false);
  sub->add_option(
         "--right-load", options->right_libraries,
         "a library loaded on the right side only, after --load (loading a library runs its code)")
      ->allow_extra_args(false);
  sub->add_option("--left-runtime", options->left_runtime,
                  "the left side's runtime (default: --runtime)")
      ->check(CLI::IsMember({"schemac", "torch", "python"}));
  sub->add_option("--right-runtime", options->right_runtime,
                  "the right side's runtime (default: --runtime)")
      ->check(CLI::IsMember({"schemac", "torch", "python"}));
  sub->add_flag("--wide", options->wide,
                "text: every column at full width (the default fits 100 columns)");
  sub->add_flag("--changed", options->changed_only,
                "dot, mermaid: draw only the changed keys (text and json list only them anyway)");
}

}  // namespace schemac::inspect
