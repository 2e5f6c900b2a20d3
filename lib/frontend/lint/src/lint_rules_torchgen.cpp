// torchgen's own rejections of one entry (torchgen/model.py, NativeFunction.from_yaml and
// __post_init__), with the condition torchgen checks and a message that says what to do:
// a lone CompositeImplicitAutograd entry, factory functions without a dispatch section, out=
// functions with a method variant, '_out' in an operator name, structured_delegate or
// ufunc_inner_loop together with kernels they generate, precomputed without structured.
#include <algorithm>
#include <array>
#include <span>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/printer.h"

namespace schemac::lint {

using diagnostics::Diagnostic, native_functions::DispatchEntry, native_functions::NativeFunction,
    schema::Argument, schema::FunctionSchema;

std::string cpp_function_name(const FunctionSchema& schema) {
  std::string name(schema.op.base_name());
  if (!signature_facts(schema).out.empty()) name += "_out";
  return name;
}

namespace {

// torchgen generates the kernels of these keys itself for structured_delegate (the delegate's)
// and ufunc_inner_loop (the loops'), so the entry must not name kernels for them.
constexpr auto kStructuredKeys = std::to_array<std::string_view>({"CPU", "CUDA", "MPS", "XPU"});
constexpr auto kUfuncKeys = std::to_array<std::string_view>({"CPU", "CUDA"});

bool contains(std::span<const std::string_view> keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

std::vector<const Argument*> tensor_options(const FunctionSchema& s) {
  static constexpr std::pair<std::string_view, std::string_view> kOptions[] = {
      {"dtype", "ScalarType?"},
      {"layout", "Layout?"},
      {"device", "Device?"},
      {"pin_memory", "bool?"}};
  const auto& args = s.arguments;
  for (size_t i = 0; i + 4 <= args.size(); ++i) {
    bool all = true;
    for (size_t k = 0; k < 4 && all; ++k) {
      const Argument& a = args[i + k];
      all = a.kwarg_only &&
            a.name == kOptions[k].first;  // the names first: printing a type allocates
    }
    for (size_t k = 0; k < 4 && all; ++k) {
      all = schema::print_type(args[i + k].type) == kOptions[k].second;
    }
    if (all) return {&args[i], &args[i + 1], &args[i + 2], &args[i + 3]};
  }
  return {};
}

namespace {

bool has_tensor_options(const FunctionSchema& s) { return !tensor_options(s).empty(); }

bool has_tensor_argument(const FunctionSchema& s) {
  const SignatureFacts facts = signature_facts(s);
  for (const Argument& a : s.arguments) {
    if (std::find(facts.out.begin(), facts.out.end(), &a) != facts.out.end()) continue;
    if (a.type.is_tensor_like()) return true;
  }
  return false;
}

class TorchgenEntryRules {
 public:
  TorchgenEntryRules(Reporter& reporter, const NativeFunction& f, const LintOptions& options)
      : r_(reporter),
        f_(f),
        codegen_(options.torchgen_codegen),
        symint_kernels_(options.torch_version >= torch_releases::TorchVersion{1, 13}) {}

  void run() {
    if (!f_.schema) return;
    if (codegen_) {
      composite_implicit();
      factory();
    }
    out_variants();
    out_suffix();
    generated_kernels();
    if (f_.has_precomputed && !f_.structured) {
      r_.report(
          rules::precomputed_structured, field("precomputed"),
          "precomputed only works with structured: True (the values are computed by the structured "
          "meta function); add structured: True or drop precomputed");
    }
  }

 private:
  diagnostics::Location field(std::string_view name) const {
    return r_.file().field_location(f_, name);
  }

  std::vector<std::string_view> keys() const {
    std::vector<std::string_view> unique;
    for (const DispatchEntry& e : f_.dispatch)
      if (!contains(unique, e.key.name)) unique.push_back(e.key.name);
    return unique;
  }

  const DispatchEntry* entry(std::string_view key) const {
    for (const DispatchEntry& e : f_.dispatch)
      if (e.key.name == key) return &e;
    return nullptr;
  }

  // A dispatch section with only CompositeImplicitAutograd says what torchgen assumes without
  // one (a kernel named after the operator), or names the kernel otherwise, which torchgen
  // refuses unless the entry delegates or (from 1.13, BackendMetadata.supports_symint) it is a
  // '_symint' kernel.
  void composite_implicit() {
    const DispatchEntry* cia = entry("CompositeImplicitAutograd");
    if (!cia) return;
    const std::string expected = cpp_function_name(*f_.schema);
    const std::vector<std::string_view> all = keys();
    if (all.size() == 1 && cia->kernel.name == expected) {
      r_.report(
          rules::cia_redundant, cia->key.location,
          fmt::format(
              "this dispatch section only says 'CompositeImplicitAutograd: {}', which is what "
              "torchgen assumes without one; delete the dispatch section",
              expected));
      return;
    }
    const bool symint = cia->kernel.name.find("_symint") != std::string::npos;
    if (all.size() == 1 && !f_.structured_delegate && !(symint && symint_kernels_)) {
      Diagnostic& d = r_.report(
          rules::cia_kernel_name, cia->kernel.location,
          fmt::format(
              "a lone CompositeImplicitAutograd kernel must be named after the operator: torchgen "
              "expects '{}', not '{}'; rename the C++ function and delete the dispatch section{}",
              expected, cia->kernel.name, symint_kernels_ ? " (or name a '_symint' kernel)" : ""));
      d.fix = diagnostics::FixHint{cia->kernel.location, expected,
                                   "it renames a C++ function the code defines"};
    }
  }

  // Factory functions (new_*, *_like, or TensorOptions without a tensor argument) must not
  // decompose under __torch_dispatch__, so torchgen wants an explicit dispatch section.
  void factory() {
    if (f_.has_dispatch || f_.structured || f_.structured_delegate) return;
    const std::string_view name = f_.schema->op.base_name();
    std::string why;
    if (name.starts_with("new_")) {
      why = "its name starts with 'new_'";
    } else if (name.ends_with("_like")) {
      why = "its name ends with '_like'";
    } else if (has_tensor_options(*f_.schema) && !has_tensor_argument(*f_.schema)) {
      why = "it takes dtype/layout/device/pin_memory and no tensor";
    } else {
      return;
    }
    r_.report(rules::factory_dispatch, f_.location,
              fmt::format(
                  "'{}' is a factory function ({}) and has no dispatch section; torchgen requires "
                  "one (e.g. 'CompositeExplicitAutograd: {}') so that it is not decomposed under "
                  "__torch_dispatch__",
                  f_.schema->op.full(), why, name));
  }

  void out_variants() {
    if (signature_facts(*f_.schema).out.empty() || (f_.function_variant && !f_.method_variant))
      return;
    r_.report(
        rules::out_method, field("variants"),
        fmt::format("'{}' has out arguments and so must be 'variants: function' only; a method "
                    "variant breaks Python's binding of out=",
                    f_.schema->op.full()));
  }

  void out_suffix() {
    const std::string_view name = f_.schema->op.base_name();
    if (!name.ends_with("_out")) return;
    r_.report(
        rules::out_suffix_name, f_.location,
        fmt::format("operator name '{}' ends with '_out', which torchgen reserves; name the out= "
                    "variant with an overload instead: '{}.out'",
                    name, name.substr(0, name.size() - 4)));
  }

  void generated_kernels() {
    for (const DispatchEntry& e : f_.dispatch) {
      if (f_.structured_delegate && contains(kStructuredKeys, e.key.name)) {
        Diagnostic& d = r_.report(rules::delegate_dispatch, e.key.location,
                                  fmt::format("'{}' delegates to '{}', whose structured kernel "
                                              "torchgen uses for {}; a {} kernel here "
                                              "would never run: delete it",
                                              f_.schema->op.full(), f_.structured_delegate->name,
                                              e.key.name, e.key.name));
        d.notes.push_back(
            diagnostics::Note{f_.structured_delegate->location, "structured_delegate is set here"});
      }
      if (f_.has_ufunc_inner_loop && contains(kUfuncKeys, e.key.name)) {
        Diagnostic& d = r_.report(rules::ufunc_dispatch, e.key.location,
                                  fmt::format("ufunc_inner_loop makes torchgen generate the CPU "
                                              "and CUDA kernels; the explicit {} "
                                              "kernel conflicts with it: delete it",
                                              e.key.name));
        d.notes.push_back(
            diagnostics::Note{field("ufunc_inner_loop"), "ufunc_inner_loop is set here"});
      }
    }
  }

  Reporter& r_;
  const NativeFunction& f_;
  bool codegen_;
  bool symint_kernels_;  // 1.13 and newer take a lone '_symint' kernel
};

}  // namespace

void check_torchgen_entry_rules(Reporter& reporter, const NativeFunction& function,
                                const LintOptions& options) {
  TorchgenEntryRules(reporter, function, options).run();
}

}  // namespace schemac::lint
