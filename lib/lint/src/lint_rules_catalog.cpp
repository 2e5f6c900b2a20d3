// The catalogue of lint rules: id, severity, one-line description, sorted by id. The rules of
// the schema parser and checker (what `func:` is checked against) come from their own table,
// schema_rules.h, severity and all: the checks and the catalogue read the same entries.
#include <algorithm>
#include <array>
#include <vector>

#include "schemac/lint/lint_rules.h"
#include "schemac/schema/schema_rules.h"

namespace schemac::lint {

using diagnostics::RuleInfo, diagnostics::Severity;

namespace {

constexpr auto E = Severity::error;
constexpr auto W = Severity::warning;

// The rules of YAML files, entries and operators (the schema rules are added below).
constexpr auto kFileRules = std::to_array<RuleInfo>({
    {"autogen-group", E,
     "a group's autogen lines list exactly the variants torchgen generates for it"},
    {"autogen-name", E,
     "autogen names out= or _functional variants of this operator that are not declared elsewhere"},
    {"backend-autograd-mix", E,
     "a backend YAML registers each operator (and all its variants) to the backend key or to its "
     "autograd key, not both"},
    {"backend-dispatch-key", E,
     "a backend YAML's backend (and Autograd<backend>, with autograd:) is a dispatch key"},
    {"backend-duplicate-op", W, "a backend YAML lists each operator once per list"},
    {"backend-field-type", E,
     "a backend YAML's keys have values of their type (names, True/False, lists of operator "
     "names)"},
    {"backend-missing-key", E, "a backend YAML has backend: and cpp_namespace:"},
    {"backend-shape", E, "a backend YAML is a mapping"},
    {"backend-unknown-key", E, "a backend YAML uses only the keys torchgen reads"},
    {"backend-unknown-op", E,
     "every operator a backend YAML lists exists in the native functions file "
     "(--native-functions)"},
    {"cia-kernel-name", E,
     "a lone CompositeImplicitAutograd kernel is named after the operator (or is a _symint "
     "kernel)"},
    {"cia-redundant", E,
     "no dispatch section that only says CompositeImplicitAutograd: <operator name>"},
    {"composite-conflict", E,
     "at most one of CompositeImplicitAutograd, CompositeExplicitAutograd(NonFunctional) per "
     "operator"},
    {"const-ref-out", E, "out= functions do not set use_const_ref_for_mutable_tensors"},
    {"cpp-no-default-args", E, "cpp_no_default_args names arguments that have a default"},
    {"delegate-dispatch", E,
     "a structured_delegate entry names no CPU, CUDA, MPS or XPU kernel (the delegate's are used)"},
    {"duplicate-dispatch-key", W,
     "a dispatch key appears once per dispatch section (torchgen keeps the last)"},
    {"duplicate-empty-overload", E, "at most one overload of a name has an empty overload name"},
    {"duplicate-key", E,
     "a key appears once per YAML mapping (YAML loaders silently keep the last)"},
    {"duplicate-operator", E,
     "an operator one file defines is not defined again in another file given (YAML or "
     "registration code)"},
    {"duplicate-overload", E, "overload names are unique per operator name"},
    {"empty-file", E, "the file has at least one entry"},
    {"entry-not-mapping", E, "every entry of the list is a mapping"},
    {"executorch-duplicate-op", W, "an executorch kernel YAML has one entry per operator"},
    {"executorch-field-type", E,
     "executorch kernels, type_alias and dim_order_alias have the right shape and known dtypes"},
    {"executorch-kernel", E,
     "executorch kernels have a kernel_name, at most one default (arg_meta: null), and arg_meta "
     "naming arguments and defined aliases"},
    {"executorch-op-name", E, "an executorch op: is an operator name"},
    {"executorch-shape", E, "an executorch kernel YAML is a list of entries with op: or func:"},
    {"executorch-unknown-field", E, "executorch entries and kernels use only their known fields"},
    {"factory-dispatch", E,
     "factory functions (new_*, *_like, TensorOptions without a tensor) have a dispatch section"},
    {"field-type", E, "every field has a value of its type (bool, string, list, mapping)"},
    {"foreach-device-check", E, "_foreach operators set device_check: NoCheck"},
    {"func-not-canonical", E, "func is written in canonical form (torchgen's round trip)"},
    {"group-no-functional", E,
     "in-place, mutable and out= variants have a functional variant with the same signature"},
    {"group-no-out", E,
     "a functional operator that returns no tensor is on torchgen's list of those without an out= "
     "variant"},
    {"group-out-alone", E,
     "an out= function has a functional variant to group with (and an out= variant can be "
     "generated)"},
    {"inplace-self", E, "in-place functions (name ending in _) take Tensor(a!) self and return it"},
    {"inplace-view-tag", E,
     "inplace_view operators are in-place and have an out-of-place view operator"},
    {"invalid-device-check", E, "device_check is NoCheck or ExactSame"},
    {"invalid-kernel-name", E,
     "dispatch kernels are C++ function names with at most three namespaces (two in 1.13)"},
    {"invalid-operator-name", E,
     "structured_delegate and autogen hold operator names (name or name.overload)"},
    {"invalid-variants", E, "variants lists function and/or method"},
    {"list-separator", E,
     "variants and autogen separate their items with ', ' (comma, space) as torchgen splits them"},
    {"manual-registration-dispatch", E,
     "manual_kernel_registration is not combined with a dispatch section"},
    {"method-self", E, "a method variant has a Tensor self argument"},
    {"missing-func", E, "every entry has a func field"},
    {"mutable-return", E,
     "returns are all mutable or all immutable, and mutable ones alias an out argument or self"},
    {"nondeterministic-seeded", W,
     "random-looking operators (rand, dropout, Generator arguments) carry the "
     "nondeterministic_seeded tag"},
    {"out-annotation", E, "out arguments carry a named write annotation such as Tensor(a!)"},
    {"out-method", E, "out= functions are declared with variants: function only"},
    {"out-name", W, "a single out argument is named out (or after its overload)"},
    {"out-position", E, "out arguments come last among the keyword-only arguments"},
    {"out-return", E,
     "an out= function returns its out arguments, in order, with their annotations"},
    {"out-suffix-name", E,
     "operator names do not end with '_out' (torchgen reserves it; use an out overload)"},
    {"precomputed-argument", E, "precomputed replaces arguments the function has"},
    {"precomputed-structured", E, "precomputed is used with structured: True only"},
    {"python-keyword-argument", W, "argument names are not Python keywords"},
    {"python-module-method", E, "functions with a python_module are not methods"},
    {"retired-field", E,
     "fields, dispatch keys and schema types PyTorch retired are named with what replaced them"},
    {"structured-delegate", E, "structured_delegate names a declared structured out= overload"},
    {"structured-inherits", E, "structured_inherits is only used with structured: True"},
    {"structured-kind", E,
     "structured is set on out= functions only, never together with structured_delegate"},
    {"top-level-not-list", E, "the top level of the file is a list"},
    {"ufunc-dispatch", E,
     "ufunc_inner_loop entries name no CPU or CUDA kernel (torchgen generates them)"},
    {"ufunc-structured", E, "ufunc_inner_loop is used with structured: True only"},
    {"unknown-dispatch-key", E, "dispatch keys are known dispatch key names"},
    {"unknown-field", E, "entries use only the fields of the format"},
    {"unknown-format", E, "the file is a native-functions, backend or executorch kernel YAML"},
    {"unknown-tag", E, "tags are declared in the tags file"},
    {"unsupported-dispatch-key", E,
     "a dispatch section names only keys that torchgen generates kernels for (its dispatch_keys "
     "list of the release)"},
    {"yaml-merge-key", E, "no YAML merge keys ('<<'): torchgen's loader cannot read them"},
    {"yaml-syntax", E, "the file is valid YAML"},
    {"yaml-tab", E, "indentation uses spaces, not tabs"},
});

// kFileRules and the schema rules, merged and sorted by id; built once.
const std::vector<RuleInfo>& all_rules() {
  static const std::vector<RuleInfo> rules = [] {
    std::vector<RuleInfo> out(kFileRules.begin(), kFileRules.end());
    for (const schema::SchemaRule& rule : schema::schema_rules()) {
      const Severity severity = rule.severity == schema::SchemaSeverity::Warning ? W : E;
      out.push_back(RuleInfo{rule.id, severity, rule.description});
    }
    std::sort(out.begin(), out.end(),
              [](const RuleInfo& a, const RuleInfo& b) { return a.id < b.id; });
    return out;
  }();
  return rules;
}

}  // namespace

std::span<const RuleInfo> lint_rule_catalog() { return all_rules(); }

const RuleInfo* find_lint_rule(std::string_view id) {
  const std::vector<RuleInfo>& rules = all_rules();
  auto it =
      std::lower_bound(rules.begin(), rules.end(), id,
                       [](const RuleInfo& rule, std::string_view key) { return rule.id < key; });
  return it != rules.end() && it->id == id ? &*it : nullptr;
}

}  // namespace schemac::lint
