// Rules about how the fields of one entry go together: dispatch sections, structured fields,
// tags, python_module, device checks.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/keys/dispatch_key_names.h"
#include "schemac/rules/rules.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::Note, native_functions::DispatchEntry,
    native_functions::NativeFunction;

namespace {

// The key a dispatch name stands for (synonyms resolved).
std::string_view canonical_key(std::string_view name) {
  const keys::DispatchKeyName* key = keys::find_dispatch_key(name);
  if (key && key->kind == keys::DispatchKeyKind::synonym && !key->same_as.empty())
    return key->same_as;
  return name;
}

class EntryRules {
 public:
  EntryRules(Reporter& reporter, const NativeFunction& f, const LintOptions& options)
      : r_(reporter), f_(f), options_(options) {}

  void run() {
    dispatch_keys();
    manual_registration();
    python_module();
    foreach_device_check();
    tags();
    nondeterministic_seeded();
    structured();
  }

 private:
  diagnostics::Location field(std::string_view name) const {
    return r_.file().field_location(f_, name);
  }
  std::string name() const { return f_.schema ? f_.schema->op.full() : f_.func; }

  void dispatch_keys() {
    std::vector<std::pair<std::string_view, const DispatchEntry*>> seen;  // canonical key, entry
    std::vector<const DispatchEntry*> composites;
    for (const DispatchEntry& e : f_.dispatch) {
      std::string_view key = canonical_key(e.key.name);
      auto found =
          std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == key; });
      if (found != seen.end()) {
        const DispatchEntry* same = found->second;
        // Two equal YAML keys are already a duplicate-key error; report only other repeats.
        if (same->written_as != e.written_as || same->key.location.line == e.key.location.line) {
          Diagnostic& d = r_.report(rules::duplicate_dispatch_key, e.key.location,
                                    fmt::format("dispatch key '{}' is given twice", e.key.name));
          d.notes.push_back(Note{same->key.location, "first given here"});
        }
        continue;
      }
      seen.emplace_back(key, &e);
      if (keys::is_composite_key(key)) composites.push_back(&e);
    }
    if (composites.size() < 2) return;
    auto has = [&](std::string_view k) {
      return std::any_of(composites.begin(), composites.end(),
                         [&](const DispatchEntry* e) { return canonical_key(e->key.name) == k; });
    };
    // The nested-tensor composite may join one other composite that is not NonFunctional.
    bool allowed = composites.size() == 2 && has("CompositeImplicitAutogradNestedTensor") &&
                   !has("CompositeExplicitAutogradNonFunctional");
    if (allowed) return;
    const DispatchEntry& first = *composites[0];
    for (size_t i = 1; i < composites.size(); ++i) {
      Diagnostic& d = r_.report(
          rules::composite_conflict, composites[i]->key.location,
          fmt::format("'{}' and '{}' on one operator: each composite key subsumes the other, so "
                      "one kernel would never run; keep only one",
                      first.key.name, composites[i]->key.name));
      d.notes.push_back(
          Note{first.key.location, fmt::format("'{}' is given here", first.key.name)});
    }
  }

  void manual_registration() {
    if (!f_.manual_kernel_registration || !f_.has_dispatch) return;
    Diagnostic& d =
        r_.report(rules::manual_registration_dispatch, field("dispatch"),
                  fmt::format("'{}' has manual_kernel_registration: True and a dispatch "
                              "section; the dispatch section would never be registered",
                              name()));
    d.notes.push_back(
        Note{field("manual_kernel_registration"), "manual_kernel_registration is set here"});
  }

  void python_module() {
    if (!f_.python_module || !f_.method_variant) return;
    Diagnostic& d = r_.report(rules::python_module_method, field("variants"),
                              fmt::format("'{}' is in python_module '{}' and so cannot be a method",
                                          name(), f_.python_module->name));
    d.notes.push_back(Note{f_.python_module->location, "python_module is set here"});
  }

  void foreach_device_check() {
    if (!f_.schema || !f_.schema->op.base_name().starts_with("_foreach")) return;
    if (f_.device_check && f_.device_check->name == "NoCheck") return;
    r_.report(
        rules::foreach_device_check, f_.device_check ? f_.device_check->location : f_.location,
        fmt::format("'{}' is a _foreach operator and needs device_check: NoCheck (its kernels "
                    "fall back to a slow path for tensors on different devices)",
                    name()));
  }

  void tags() {
    if (!options_.valid_tags) return;
    const std::vector<std::string>& valid = *options_.valid_tags;
    for (const TagUse& tag : tag_uses(f_, options_.torch_version)) {
      if (std::find(valid.begin(), valid.end(), tag.name) != valid.end()) continue;
      Diagnostic& d =
          r_.report(rules::unknown_tag, tag.location, fmt::format("unknown tag '{}'", tag.name));
      std::vector<std::string_view> names(valid.begin(), valid.end());
      if (auto guess = support::did_you_mean(tag.name, names)) {
        d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
        d.fix = diagnostics::FixHint{tag.location, *guess};
      }
    }
  }

  // torchgen's rule: a name containing "rand", a (non-backward) dropout (from 2.0 also an argument
  // named so), or a Generator argument marks an operator as random, and random operators carry
  // nondeterministic_seeded.
  void nondeterministic_seeded() {
    if (!f_.schema) return;
    const schema::FunctionSchema& s = *f_.schema;
    std::string full = s.op.full();
    std::string reason;
    if (full.find("rand") != std::string::npos) {
      reason = "its name contains 'rand'";
    } else if (full.find("backward") == std::string::npos &&
               s.op.base_name() != "_cudnn_init_dropout_state") {
      if (full.find("dropout") != std::string::npos) reason = "its name contains 'dropout'";
      for (const schema::Argument& a : s.arguments) {
        if (reason.empty() &&
            torch_releases::dropout_arguments_are_random(options_.torch_version) &&
            a.name.find("dropout") != std::string::npos) {
          reason = fmt::format("its argument '{}' mentions dropout", a.name);
        }
      }
    }
    for (const schema::Argument& a : s.arguments) {
      if (reason.empty() && a.type.leaf().is_base(schema::BaseType::Generator)) {
        reason = fmt::format("it takes a Generator ('{}')", a.name);
      }
    }
    if (reason.empty()) return;
    const std::vector<TagUse> tags = tag_uses(f_, options_.torch_version);
    bool tagged = std::any_of(tags.begin(), tags.end(),
                              [](const TagUse& t) { return t.name == "nondeterministic_seeded"; });
    if (tagged) return;
    r_.report(
        rules::nondeterministic_seeded, f_.tags.empty() ? f_.location : field("tags"),
        fmt::format("'{}' is random ({}) but is not tagged nondeterministic_seeded", full, reason));
  }

  void structured() {
    bool is_out = false;
    if (f_.schema) is_out = !signature_facts(*f_.schema).out.empty();
    if (f_.structured && f_.structured_delegate) {
      Diagnostic& d = r_.report(rules::structured_kind, field("structured_delegate"),
                                "structured: True and structured_delegate cannot both be set");
      d.notes.push_back(Note{field("structured"), "structured is set here"});
    } else if (f_.structured && f_.schema && !is_out) {
      r_.report(rules::structured_kind, field("structured"),
                fmt::format("structured: True belongs on the out= variant, and '{}' is not an out= "
                            "function; did you mean structured_delegate?",
                            name()));
    } else if (f_.structured_delegate && f_.schema && is_out) {
      r_.report(rules::structured_kind, field("structured_delegate"),
                fmt::format("structured_delegate is not allowed on the out= function '{}'; did you "
                            "mean structured: True?",
                            name()));
    }
    if ((f_.structured || f_.structured_delegate) && !f_.device_guard) {
      r_.report(
          rules::structured_kind, field("device_guard"),
          "structured kernels always use a device guard; device_guard: False is not allowed here");
    }
    if (f_.structured_inherits && !f_.structured) {
      r_.report(rules::structured_inherits, f_.structured_inherits->location,
                "structured_inherits needs structured: True");
    }
    if (f_.has_ufunc_inner_loop && !f_.structured) {
      r_.report(rules::ufunc_structured, field("ufunc_inner_loop"),
                "ufunc_inner_loop needs structured: True");
    }
  }

  Reporter& r_;
  const NativeFunction& f_;
  const LintOptions& options_;
};

}  // namespace

void check_entry_rules(Reporter& reporter, const NativeFunction& function,
                       const LintOptions& options) {
  EntryRules(reporter, function, options).run();
}

}  // namespace schemac::lint
