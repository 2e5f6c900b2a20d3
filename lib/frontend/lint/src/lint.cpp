// The lint driver: load a file, run every rule, order the diagnostics.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/lint/rule_selection.h"
#include "schemac/rules/rules.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Severity;

Diagnostic& report_rule(std::vector<Diagnostic>& out, rules::Rule rule, Location location,
                        std::string message) {
  out.push_back(
      Diagnostic{rule.def().severity, rule, std::move(location), std::move(message), {}, {}});
  return out.back();
}

Diagnostic& Reporter::report(rules::Rule rule, Location location, std::string message) {
  return report_rule(out_, rule, std::move(location), std::move(message));
}

SignatureFacts signature_facts(const schema::FunctionSchema& schema) {
  SignatureFacts facts;
  bool in_out = false;
  for (const schema::Argument& a : schema.arguments) {
    if (!a.kwarg_only) {
      if (a.name == "self" && !facts.self) facts.self = &a;
      continue;
    }
    in_out = in_out || a.type.is_mutable();
    if (in_out && a.type.is_mutable()) facts.out.push_back(&a);
  }
  static constexpr std::string_view kAugmented[] = {"add",    "sub",    "mul", "div", "mod", "pow",
                                                    "lshift", "rshift", "and", "xor", "or"};
  std::string_view name = schema.op.base_name();
  if (name.size() > 4 && name.starts_with("__") && name.ends_with("__")) {
    std::string_view inner = name.substr(2, name.size() - 4);
    for (std::string_view op : kAugmented) {
      if (inner.size() == op.size() + 1 && inner[0] == 'i' && inner.substr(1) == op) {
        facts.inplace = true;
        facts.out_of_place_name = fmt::format("__{}__", op);
      }
    }
    if (!facts.inplace) facts.out_of_place_name = name;
  } else if (name.size() > 1 && name.ends_with('_')) {
    facts.inplace = true;
    facts.out_of_place_name = name.substr(0, name.size() - 1);
  } else {
    facts.out_of_place_name = name;
  }
  return facts;
}

OperatorIndex index_operators(const native_functions::NativeFunctionsFile& file) {
  OperatorIndex index;
  for (const native_functions::NativeFunction& f : file.functions) {
    if (!f.schema) continue;
    index.by_full_name.emplace(f.schema->op.full(), &f);
    index.by_name[f.schema->op.name].push_back(&f);
  }
  return index;
}

std::vector<Diagnostic> check_native_functions(const native_functions::NativeFunctionsFile& file,
                                               const LintOptions& options) {
  std::vector<Diagnostic> diagnostics;
  lint::Reporter reporter(file, diagnostics);
  // The first lines of the entries whose own schema has an error: the rules across entries
  // would only report its consequences (a malformed out argument leaves its entry in no group).
  std::set<uint32_t> unsettled;
  for (const native_functions::NativeFunction& f : file.functions) {
    const size_t before = diagnostics.size();
    lint::check_signature_rules(reporter, f);
    const bool has_error =
        std::any_of(diagnostics.begin() + static_cast<std::ptrdiff_t>(before), diagnostics.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::error; });
    if (has_error) unsettled.insert(f.location.line);
    lint::check_entry_rules(reporter, f, options);
    lint::check_torchgen_entry_rules(reporter, f, options);
    lint::check_release_entry_rules(reporter, f, options);
  }
  lint::check_operator_rules(reporter, lint::index_operators(file));
  bool vendor_subset = false;
  if (options.torchgen_codegen) {
    std::vector<Diagnostic> groups;
    lint::Reporter group_reporter(file, groups);
    vendor_subset = lint::check_group_rules(group_reporter);
    for (Diagnostic& d : groups) {
      if (unsettled.count(d.location.line) == 0) diagnostics.push_back(std::move(d));
    }
  }
  select_rules(diagnostics, file, options, vendor_subset);
  return diagnostics;
}

std::vector<Diagnostic> lint_native_functions(std::string file, std::string text,
                                              const LintOptions& options) {
  return lint_native_functions(yaml::load_yaml(std::move(file), std::move(text)), options);
}

std::vector<Diagnostic> lint_native_functions(yaml::YamlLoadResult yaml,
                                              const LintOptions& options) {
  native_functions::NativeFunctionsLoad load =
      native_functions::load_native_functions(std::move(yaml));
  std::vector<Diagnostic> diagnostics = std::move(load.diagnostics);
  select_rules(diagnostics, load.file, options);  // the loader's rules too
  for (Diagnostic& d : check_native_functions(load.file, options))
    diagnostics.push_back(std::move(d));
  diagnostics::sort_diagnostics(diagnostics);
  return diagnostics;
}

TagsLoad load_tags(std::string file, std::string text) {
  TagsLoad result;
  yaml::YamlLoadResult yaml = yaml::load_yaml(std::move(file), std::move(text));
  result.diagnostics = std::move(yaml.diagnostics);
  const yaml::YamlDocument& doc = yaml.document;
  if (!doc.root || !doc.root->is_sequence()) {
    if (result.diagnostics.empty()) {
      result.diagnostics.push_back(Diagnostic{Severity::error,
                                              rules::top_level_not_list,
                                              Location::at(doc.file, 1, 1),
                                              "a tags file must be a list of '- tag: NAME' entries",
                                              {},
                                              {}});
    }
    return result;
  }
  for (const yaml::YamlNode& item : doc.root->items) {
    const yaml::YamlNode* tag = item.is_mapping() ? item.find("tag") : nullptr;
    if (!tag || !tag->is_scalar() || tag->value.empty()) {
      result.diagnostics.push_back(Diagnostic{Severity::error,
                                              rules::field_type,
                                              yaml::node_location(doc, item, 1),
                                              "a tags entry needs a 'tag: NAME' field",
                                              {},
                                              {}});
      continue;
    }
    result.tags.push_back(tag->value);
  }
  return result;
}

}  // namespace schemac::lint
