// Rules across entries: overload names, structured delegates, autogen names, inplace_view ops.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::Note, native_functions::LocatedName,
    native_functions::NativeFunction;

namespace {

diagnostics::Location func_name_location(const Reporter& r, const NativeFunction& f) {
  return r.file().func_location(f, f.schema->op.range);
}

void duplicate_overloads(Reporter& r, const OperatorIndex& index) {
  for (const auto& [name, functions] : index.by_name) {
    std::map<std::string_view, const NativeFunction*> first;
    for (const NativeFunction* f : functions) {
      std::string_view overload = f->schema->op.overload;
      auto [it, inserted] = first.emplace(overload, f);
      if (inserted) continue;
      Diagnostic& d =
          overload.empty()
              ? r.report(rules::duplicate_empty_overload, func_name_location(r, *f),
                         fmt::format("operator '{}' has a second overload with an empty overload "
                                     "name; give each overload its own name",
                                     name))
              : r.report(rules::duplicate_overload, func_name_location(r, *f),
                         fmt::format("overload '{}.{}' is defined twice", name, overload));
      d.notes.push_back(Note{func_name_location(r, *it->second), "first defined here"});
    }
  }
}

void structured_delegates(Reporter& r, const OperatorIndex& index) {
  for (const auto& [full, f] : index.by_full_name) {
    if (!f->structured_delegate) continue;
    const LocatedName& delegate = *f->structured_delegate;
    auto it = index.by_full_name.find(delegate.name);
    if (it == index.by_full_name.end()) {
      Diagnostic& d = r.report(
          rules::structured_delegate, delegate.location,
          fmt::format("structured_delegate '{}' is not declared in this file", delegate.name));
      std::vector<std::string_view> names;
      for (const auto& [n, unused] : index.by_full_name) names.push_back(n);
      if (auto guess = support::did_you_mean(delegate.name, names)) {
        d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
        d.fix = diagnostics::FixHint{delegate.location, *guess};
      }
      continue;
    }
    const NativeFunction& target = *it->second;
    if (!target.structured) {
      Diagnostic& d = r.report(rules::structured_delegate, delegate.location,
                               fmt::format("structured_delegate '{}' is not structured; add "
                                           "'structured: True' to it",
                                           delegate.name));
      d.notes.push_back(
          Note{func_name_location(r, target), fmt::format("'{}' is declared here", delegate.name)});
    } else if (signature_facts(*target.schema).out.empty()) {
      Diagnostic& d =
          r.report(rules::structured_delegate, delegate.location,
                   fmt::format("structured_delegate '{}' is not an out= function", delegate.name));
      d.notes.push_back(
          Note{func_name_location(r, target), fmt::format("'{}' is declared here", delegate.name)});
    }
  }
}

// An autogen name is `<out-of-place name>.<overload>` or `<out-of-place name>_functional...`,
// and names an operator the file does not declare itself (torchgen generates it). The in-place
// and functional entries of one operator may both list the same name (PyTorch 2.x does, e.g.
// _foreach_lerp.List_out): torchgen joins a group's autogen lines into one set, so a repeat is
// not an error (autogen-group checks the set).
void autogen_names(Reporter& r, const OperatorIndex& index) {
  for (const auto& [full, f] : index.by_full_name) {
    if (f->autogen.empty()) continue;
    SignatureFacts facts = signature_facts(*f->schema);
    std::string_view ns = f->schema->op.ns();
    std::string family =
        ns.empty() ? facts.out_of_place_name : fmt::format("{}::{}", ns, facts.out_of_place_name);
    for (const LocatedName& a : f->autogen) {
      std::string_view base = std::string_view(a.name).substr(0, a.name.find('.'));
      if (base != family && base != family + "_functional") {
        r.report(rules::autogen_name, a.location,
                 fmt::format(
                     "autogen names '{}', which is not a variant of '{}' (expected '{}.OVERLOAD' "
                     "or '{}_functional')",
                     a.name, full, family, family));
        continue;
      }
      if (auto declared = index.by_full_name.find(a.name); declared != index.by_full_name.end()) {
        Diagnostic& d =
            r.report(rules::autogen_name, a.location,
                     fmt::format("autogen names '{}', which is already declared", a.name));
        d.notes.push_back(Note{func_name_location(r, *declared->second), "declared here"});
        continue;
      }
    }
  }
}

// torchgen exempts resize_, resize_as_ and set_: they are inplace views with special handling.
void inplace_view_tags(Reporter& r, const OperatorIndex& index) {
  for (const auto& [full, f] : index.by_full_name) {
    bool tagged = std::any_of(f->tags.begin(), f->tags.end(),
                              [](const LocatedName& t) { return t.name == "inplace_view"; });
    if (!tagged) continue;
    std::string_view name = f->schema->op.name;
    if (full == "resize_" || full == "resize_as_" || name == "set_") continue;
    SignatureFacts facts = signature_facts(*f->schema);
    if (!facts.inplace) {
      r.report(
          rules::inplace_view_tag, func_name_location(r, *f),
          fmt::format("'{}' is tagged inplace_view but its name does not end in '_' as in-place "
                      "operators' names do",
                      full));
    } else if (!index.by_name.contains(facts.out_of_place_name)) {
      r.report(
          rules::inplace_view_tag, func_name_location(r, *f),
          fmt::format("'{}' is tagged inplace_view but there is no out-of-place view operator '{}'",
                      full, facts.out_of_place_name));
    }
  }
}

}  // namespace

void check_operator_rules(Reporter& reporter, const OperatorIndex& index) {
  duplicate_overloads(reporter, index);
  structured_delegates(reporter, index);
  autogen_names(reporter, index);
  inplace_view_tags(reporter, index);
}

}  // namespace schemac::lint
