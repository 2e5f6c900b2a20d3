// torchgen's backend YAML (gen_backend_stubs.py parse_backend_yaml, gen_lazy_tensor.py), as XLA
// and out-of-tree backends write it:
//   backend: XLA                  # a dispatch key; Autograd<backend> for `autograd:`
//   cpp_namespace: torch_xla      # required
//   class_name, extra_headers     # strings
//   use_out_as_primary, device_guard: True/False
//   supported / autograd / full_codegen / ir_gen / symint: lists of operator names
//   non_native: a list of mappings (`func:` schemas of backend-only IR nodes)
#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/keys/dispatch_key_names.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/rules/rules.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::Note, native_functions::NativeFunctionsFile,
    yaml::YamlDocument, yaml::YamlNode, yaml::node_location;

namespace {

constexpr auto kKeys = std::to_array<std::string_view>(
    {"backend", "class_name", "cpp_namespace", "extra_headers", "supported", "autograd",
     "full_codegen", "non_native", "ir_gen", "symint", "use_out_as_primary", "device_guard"});
constexpr auto kOperatorLists =
    std::to_array<std::string_view>({"supported", "autograd", "full_codegen", "ir_gen", "symint"});

class BackendRules {
 public:
  BackendRules(const YamlDocument& doc, const NativeFunctionsFile* native)
      : doc_(doc), native_(native) {}

  std::vector<Diagnostic> run() {
    if (!doc_.root) return std::move(out_);
    const YamlNode& root = *doc_.root;
    if (!root.is_mapping()) {
      report(rules::backend_shape, node_location(doc_, root, 1),
             "a backend YAML is a mapping (backend:, cpp_namespace:, supported:, ...)");
      return std::move(out_);
    }
    for (const auto& [key, value] : root.entries) check_key(key, value);
    for (std::string_view required : {"backend", "cpp_namespace"}) {
      if (!root.find(required))
        report(rules::backend_missing_key, diagnostics::Location::at(doc_.file, 1, 1),
               fmt::format(
                   "a backend YAML needs '{}:' (torchgen: 'You must provide a value for \"{}\"')",
                   required, required));
    }
    if (native_) index_native();
    check_operators(root);
    return std::move(out_);
  }

 private:
  Diagnostic& report(rules::Rule rule, diagnostics::Location location, std::string message) {
    return lint::report_rule(out_, rule, std::move(location), std::move(message));
  }

  void check_key(const YamlNode& key, const YamlNode& value) {
    if (!key.is_scalar() || std::find(kKeys.begin(), kKeys.end(), key.value) == kKeys.end()) {
      Diagnostic& d =
          report(rules::backend_unknown_key, node_location(doc_, key),
                 fmt::format("unknown key '{}'; torchgen refuses it ('contains unexpected keys')",
                             key.value));
      if (auto guess = support::did_you_mean(key.value, kKeys)) {
        d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
        d.fix = diagnostics::FixHint{node_location(doc_, key), *guess};
      }
      return;
    }
    const std::string& k = key.value;
    if (k == "use_out_as_primary" || k == "device_guard") {
      static constexpr std::string_view kBools[] = {
          "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES",
          "no",   "No",   "NO",   "on",    "On",    "ON",    "off", "Off", "OFF"};
      const bool ok =
          value.is_scalar() && value.style == yaml::ScalarStyle::plain && !value.tagged &&
          std::find(std::begin(kBools), std::end(kBools), value.value) != std::end(kBools);
      if (!ok)
        report(rules::backend_field_type, node_location(doc_, value.is_null() ? key : value),
               fmt::format("'{}' must be True or False", k));
    } else if (k == "backend" || k == "cpp_namespace" || k == "class_name") {
      if (!value.is_scalar() || value.value.empty()) {
        report(rules::backend_field_type, node_location(doc_, value.is_null() ? key : value),
               fmt::format("'{}' must be a name", k));
      } else if (k == "backend") {
        backend_ = &value;
      }
    } else if (k == "non_native") {
      if (!value.is_null() && !value.is_sequence())
        report(rules::backend_field_type, node_location(doc_, value),
               "'non_native' must be a list of mappings with 'func:'");
      for (const YamlNode& item : value.items)
        if (!item.is_mapping() || !item.find("func"))
          report(rules::backend_field_type, node_location(doc_, item, 1),
                 "each 'non_native' item is a mapping with a 'func:' schema");
    } else if (k != "extra_headers") {  // the operator lists
      const bool may_be_null = k == "supported" || k == "symint";
      if (value.is_null() && may_be_null) return;
      if (!value.is_sequence()) {
        report(rules::backend_field_type, node_location(doc_, value.is_null() ? key : value),
               fmt::format("'{}' must be a list of operator names", k));
        return;
      }
      std::map<std::string, const YamlNode*>& seen = lists_[k];
      for (const YamlNode& item : value.items) {
        if (!item.is_scalar() || item.value.empty()) {
          report(rules::backend_field_type, node_location(doc_, item, 1),
                 fmt::format("each item of '{}' is an operator name", k));
          continue;
        }
        auto [it, inserted] = seen.emplace(item.value, &item);
        if (!inserted) {
          Diagnostic& d = report(rules::backend_duplicate_op, node_location(doc_, item),
                                 fmt::format("'{}' is listed twice under '{}'", item.value, k));
          d.notes.push_back(Note{node_location(doc_, *it->second), "first listed here"});
        }
      }
    }
  }

  void index_native() {
    for (const native_functions::NativeFunction& f : native_->functions) {
      if (!f.schema) continue;
      names_.push_back(f.schema->op.full());
      family_[f.schema->op.full()] = lint::signature_group_key(*f.schema);
    }
    std::sort(names_.begin(), names_.end());
  }

  bool exists(const std::string& name) const {
    return std::binary_search(names_.begin(), names_.end(), name);
  }

  void check_operators(const YamlNode& root) {
    if (backend_ && lists_.contains("supported") && !lists_["supported"].empty() &&
        !keys::find_dispatch_key(backend_->value))
      report(
          rules::backend_dispatch_key, node_location(doc_, *backend_),
          fmt::format("'{}' is not a dispatch key; the operators under 'supported' register to it",
                      backend_->value));
    if (backend_ && lists_.contains("autograd") && !lists_["autograd"].empty() &&
        !keys::find_dispatch_key("Autograd" + backend_->value))
      report(rules::backend_dispatch_key, node_location(doc_, *backend_),
             fmt::format("'autograd:' registers to 'Autograd{}', which is not a dispatch key",
                         backend_->value));
    for (std::string_view list : kOperatorLists) {
      if (!lists_.contains(std::string(list))) continue;
      for (const auto& [name, node] : lists_[std::string(list)]) {
        if (native_ && !exists(name)) {
          Diagnostic& d =
              report(rules::backend_unknown_op, node_location(doc_, *node),
                     fmt::format("'{}' is not an operator of the native functions file", name));
          std::vector<std::string_view> all(names_.begin(), names_.end());
          if (auto guess = support::did_you_mean(name, all)) {
            d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
            d.fix = diagnostics::FixHint{node_location(doc_, *node), *guess};
          }
        }
      }
    }
    autograd_entries();
    (void)root;
  }

  // An operator is registered either to the backend key or to its autograd key: torchgen
  // refuses one listed under both, and (with the native functions at hand) a group of variants
  // split between the two.
  void autograd_entries() {
    if (!lists_.contains("autograd")) return;
    std::map<std::string, const YamlNode*> forward = lists_["supported"];
    for (const auto& [name, node] : lists_["full_codegen"]) forward.emplace(name, node);
    for (const auto& [name, node] : lists_["autograd"]) {
      if (auto it = forward.find(name); it != forward.end()) {
        Diagnostic& d = report(
            rules::backend_autograd_mix, node_location(doc_, *node),
            fmt::format("'{}' is listed under both 'autograd' and 'supported'; register it to one",
                        name));
        d.notes.push_back(Note{node_location(doc_, *it->second), "listed under 'supported' here"});
        continue;
      }
      if (!native_ || !family_.contains(name)) continue;
      for (const auto& [other, other_node] : forward) {
        if (!family_.contains(other) || family_[other] != family_[name]) continue;
        Diagnostic& d = report(
            rules::backend_autograd_mix, node_location(doc_, *node),
            fmt::format(
                "'{}' is under 'autograd' but its variant '{}' is under 'supported'; torchgen "
                "requires all variants of an operator on one key",
                name, other));
        d.notes.push_back(Note{node_location(doc_, *other_node), "listed here"});
        break;
      }
    }
  }

  const YamlDocument& doc_;
  const NativeFunctionsFile* native_;
  const YamlNode* backend_ = nullptr;
  std::map<std::string, std::map<std::string, const YamlNode*>> lists_;
  std::vector<std::string> names_;
  std::map<std::string, std::string> family_;
  std::vector<Diagnostic> out_;
};

}  // namespace

std::vector<Diagnostic> check_backend_yaml(const YamlDocument& document,
                                           const NativeFunctionsFile* native_functions) {
  return BackendRules(document, native_functions).run();
}

}  // namespace schemac::lint
