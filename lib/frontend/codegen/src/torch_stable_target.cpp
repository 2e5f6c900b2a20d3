// PyTorch's stable ABI (`--target torch_stable`): STABLE_TORCH_LIBRARY code for libtorch's
// torch/csrc/stable/library.h, with kernels declared with the stable types (torch::stable::Tensor,
// torch::headeronly::HeaderOnlyArrayRef, ...) and boxed by TORCH_BOX. An extension built on it
// does not depend on libtorch's C++ ABI. libtorch converts each value of a stable kernel's stack
// by its schema type (shim_common.cpp's from_ivalue / to_ivalue), and fails the call on a type it
// has no conversion for; what the ABI cannot express is refused here, at the schema's type.
#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/kernel_declarations.h"
#include "schemac/codegen/target.h"
#include "schemac/codegen/torch_emitters.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/printer.h"

namespace schemac::codegen {
namespace {

using schema::BaseType;
using schema::Type;

// The first release with the stable registration API gen writes (TORCH_BOX; the stable
// conversions of strings, lists and devices), and the first whose StableLibrary::def takes tags.
constexpr torch_releases::TorchVersion kFirstStableRelease{2, 10};
constexpr torch_releases::TorchVersion kFirstStableTagsRelease{2, 12};

constexpr std::string_view kArrayRef = "torch::headeronly::HeaderOnlyArrayRef";

// The C++ type of a leaf the stable ABI converts, as an owned value; nullopt for the others.
std::optional<std::string> stable_leaf(const Type& t) {
  if (t.kind != Type::Kind::Base) return std::nullopt;
  switch (t.base) {
    case BaseType::Tensor: return "torch::stable::Tensor";
    case BaseType::Int:
    case BaseType::SymInt:  // converted as an int: a symbolic value cannot reach the kernel
    case BaseType::DeviceIndex: return "int64_t";
    case BaseType::Float: return "double";
    case BaseType::Bool: return "bool";
    case BaseType::Str: return "std::string";
    case BaseType::ScalarType: return "torch::headeronly::ScalarType";
    case BaseType::Layout: return "torch::headeronly::Layout";
    case BaseType::MemoryFormat: return "torch::headeronly::MemoryFormat";
    case BaseType::Device: return "torch::stable::Device";
    case BaseType::Generator: return "torch::stable::Generator";
    default: return std::nullopt;
  }
}

// An owned value of `t` (returns, list elements, optionals): std::vector for lists,
// std::optional for optionals.
std::optional<std::string> stable_owned(const Type& t) {
  if (t.is_optional() || t.is_list()) {
    std::optional<std::string> inner = stable_owned(t.element());
    if (!inner) return std::nullopt;
    return fmt::format("{}<{}>", t.is_optional() ? "std::optional" : "std::vector", *inner);
  }
  return stable_leaf(t);
}

bool is_plain_value(const Type& t) {
  return t.kind == Type::Kind::Base && !t.is_base(BaseType::Tensor) && !t.is_base(BaseType::Str) &&
         !t.is_base(BaseType::Device) && !t.is_base(BaseType::Generator);
}

// An argument's type: what TORCH_BOX unboxes (it strips const and references, unboxes a
// HeaderOnlyArrayRef<T> as std::vector<T> and a std::string_view as std::string) and passes on.
std::optional<std::string> stable_argument(const Type& t, bool written) {
  if (t.is_base(BaseType::Tensor))
    return written ? "torch::stable::Tensor&" : "const torch::stable::Tensor&";
  if (t.is_base(BaseType::Str)) return "std::string_view";
  if (t.kind == Type::Kind::Base) return stable_leaf(t);
  std::optional<std::string> owned = stable_owned(t);
  if (!owned) return std::nullopt;
  // A list is viewed; no view reads a std::vector<bool> or owns strings.
  const Type& list = t.is_optional() ? t.element() : t;
  if (list.is_list() && !list.element().is_base(BaseType::Bool) &&
      !list.element().is_base(BaseType::Str)) {
    std::optional<std::string> element = stable_owned(list.element());
    std::string view = fmt::format("{}<{}>", kArrayRef, *element);
    return t.is_optional() ? fmt::format("std::optional<{}>", view) : view;
  }
  if (t.is_optional() && is_plain_value(t.element())) return owned;
  return fmt::format("const {}&", *owned);
}

// Whether `t` holds a list of bool: the stable headers turn a std::vector<T> into a list through a
// HeaderOnlyArrayRef<T>, which refuses std::vector<bool>.
bool has_bool_list(const Type& t) {
  if (t.is_list() && t.element().is_base(BaseType::Bool)) return true;
  return t.is_wrapper() && has_bool_list(t.element());
}

// The node of `t` the stable ABI has no conversion for (the outermost), or nullptr.
const Type* unconvertible(const Type& t) {
  if (t.is_wrapper()) return unconvertible(t.element());
  return stable_leaf(t) ? nullptr : &t;
}

struct StableSignature {
  std::string return_type;
  std::vector<kernel_types::CppParam>
      params;  // in schema order: TORCH_BOX passes the stack as it is
};

StableSignature stable_signature(const schema::FunctionSchema& schema) {
  StableSignature sig;
  for (const schema::Argument& a : schema.arguments) {
    const Type& node = a.type.is_optional() ? a.type.element() : a.type;
    const bool written = node.alias != nullptr && node.alias->is_write;
    kernel_types::CppParam param;
    param.type = *stable_argument(a.type, written);
    param.name = kernel_types::cpp_identifier(a.name);
    sig.params.push_back(std::move(param));
  }
  kernel_types::make_parameter_names_unique(sig.params);
  std::vector<std::string> returns;
  for (const schema::Argument& r : schema.returns) returns.push_back(*stable_owned(r.type));
  if (returns.empty()) {
    sig.return_type = "void";
  } else if (returns.size() == 1) {
    sig.return_type = returns.front();
  } else {
    sig.return_type = fmt::format("std::tuple<{}>", fmt::join(returns, ", "));
  }
  return sig;
}

diagnostics::Diagnostic stable_error(diagnostics::Location location, std::string message) {
  diagnostics::Diagnostic d;
  d.rule = rules::stable_abi;
  d.location = std::move(location);
  d.message = std::move(message);
  return d;
}

// What the stable ABI of `release` cannot express in `op`, each at its place in the schema.
void check_operator(const GenOperator& op, torch_releases::TorchVersion release,
                    std::vector<diagnostics::Diagnostic>& out) {
  const std::string version = torch_releases::format_torch_version(release);
  if (op.schema.is_vararg || op.schema.is_varret) {
    out.push_back(stable_error(op.location, fmt::format("operator '{}' has varargs ('...'), which "
                                                        "a stable kernel's stack cannot hold",
                                                        op.full_name)));
  }
  for (const auto* list : {&op.schema.arguments, &op.schema.returns}) {
    const bool returns = list == &op.schema.returns;
    for (const schema::Argument& a : *list) {
      if (const Type* bad = unconvertible(a.type)) {
        out.push_back(stable_error(
            schema_location(op, bad->range),
            fmt::format("operator '{}': PyTorch {}'s stable ABI has no conversion of '{}' to or "
                        "from a StableIValue (its boxed kernels take Tensor, int, SymInt, float, "
                        "bool, str, ScalarType, Layout, MemoryFormat, Device, Generator, and lists "
                        "and optionals of them); register it with --target torch",
                        op.full_name, version, schema::print_type(*bad))));
      } else if (returns && has_bool_list(a.type)) {
        out.push_back(stable_error(
            schema_location(op, a.type.range),
            fmt::format("operator '{}': PyTorch {}'s stable headers return a list through a "
                        "HeaderOnlyArrayRef, which cannot view a std::vector<bool>; return the "
                        "mask as a Tensor or use --target torch",
                        op.full_name, version)));
      }
    }
  }
  if (op.needs_backend_select) {
    out.push_back(stable_error(
        op.location,
        fmt::format("operator '{}' is a factory (a device argument, no Tensor one) that needs a "
                    "BackendSelect kernel to pick its backend, and the stable ABI has no way to "
                    "redispatch; register it with --target torch",
                    op.full_name)));
  }
  if (!op.tags.empty() && release < kFirstStableTagsRelease) {
    out.push_back(stable_error(
        op.location, fmt::format("operator '{}' has tags, which the stable ABI's def() takes from "
                                 "PyTorch 2.12 (--torch-version {})",
                                 op.full_name, version)));
  }
}

std::string stable_impl_block(std::string_view ns, std::string_view key, const OperatorList& ops,
                              const std::set<std::string>& overloaded) {
  std::string body;
  const std::string stable_key = torch_key_name(key);
  for (const GenOperator* op : ops) {
    for (const KernelBinding& binding : op->kernels) {
      if (torch_key_name(binding.key) != stable_key) continue;
      std::string function = "&" + qualified_kernel(*op, binding);
      if (overloaded.count(function) != 0) {
        const StableSignature sig = stable_signature(op->schema);
        std::vector<std::string> types;
        for (const kernel_types::CppParam& p : sig.params) types.push_back(p.type);
        function = fmt::format("static_cast<{} (*)({})>({})", sig.return_type,
                               fmt::join(types, ", "), function);
      }
      fmt::format_to(std::back_inserter(body), "  m.impl({}, TORCH_BOX({}));\n",
                     cpp_string_literal(schema::operator_full_name(op->name, op->overload)),
                     function);
    }
  }
  if (body.empty()) return {};
  return fmt::format("STABLE_TORCH_LIBRARY_IMPL({}, {}, m) {{\n{}}}\n", ns, stable_key, body);
}

// Kernels declared with more than one parameter list: TORCH_BOX needs the one meant by a cast.
std::set<std::string> overloaded_kernels(const GenModel& model) {
  std::map<std::string, std::set<std::string>> params;
  for (const GenOperator& op : model.operators) {
    std::string types;
    for (const kernel_types::CppParam& p : stable_signature(op.schema).params)
      types += p.type + ",";
    for (const KernelBinding& binding : op.kernels)
      params["&" + qualified_kernel(op, binding)].insert(types);
  }
  std::set<std::string> out;
  for (const auto& [kernel, lists] : params)
    if (lists.size() > 1) out.insert(kernel);
  return out;
}

class TorchStableTarget final : public Target {
 public:
  std::string_view name() const override { return "torch_stable"; }
  lint::Profile lint_profile() const override { return lint::Profile::extension; }
  std::string_view description() const override {
    return "STABLE_TORCH_LIBRARY code and TORCH_BOX kernels declared with PyTorch's stable-ABI "
           "types, for an extension that does not depend on libtorch's C++ ABI (2.10 and later)";
  }

  std::vector<diagnostics::Diagnostic> check(const GenModel& model,
                                             const GenOptions& options) const override {
    std::vector<diagnostics::Diagnostic> out;
    if (options.torch_version < kFirstStableRelease) {
      const diagnostics::Location at = !model.operators.empty() ? model.operators.front().location
                                       : model.inputs.empty()
                                           ? diagnostics::Location{}
                                           : diagnostics::Location::at(model.inputs.front(), 1, 1);
      out.push_back(stable_error(
          at, fmt::format("PyTorch {} has no stable ABI for operators: STABLE_TORCH_LIBRARY with "
                          "TORCH_BOX kernels needs 2.10 or later (--torch-version); use --target "
                          "torch for this release",
                          torch_releases::format_torch_version(options.torch_version))));
      return out;
    }
    for (const GenOperator& op : model.operators) check_operator(op, options.torch_version, out);
    // Namespaces, as for the torch target (a custom class fails the type check above).
    for (diagnostics::Diagnostic& d : check_torch_model(model, options))
      if (d.rule == rules::torch_namespace) out.push_back(std::move(d));
    return out;
  }

  std::string key_name(std::string_view key) const override { return torch_key_name(key); }
  bool definitions_in_shards() const override { return false; }

  std::string registration_prologue(bool) const override {
    return "#include <torch/csrc/stable/library.h>\n\n#include \"NativeFunctions.h\"\n";
  }
  std::string registration_epilogue(std::string_view, const GenOptions&) const override {
    return {};
  }

  std::string schema_block(std::string_view ns, const OperatorList& ops,
                           DefinitionKind) const override {
    std::string out = fmt::format(
        "{}({}, m) {{\n",
        is_libtorch_namespace(ns) ? "STABLE_TORCH_LIBRARY_FRAGMENT" : "STABLE_TORCH_LIBRARY", ns);
    for (const GenOperator* op : ops) {
      std::string schema =
          cpp_string_literal(std::string_view(op->canonical).substr(ns.size() + 2));
      std::vector<std::string> tags;
      for (const std::string& tag : op->tags) tags.push_back("at::Tag::" + tag);
      if (tags.empty()) {
        fmt::format_to(std::back_inserter(out), "  m.def({});\n", schema);
      } else {
        fmt::format_to(std::back_inserter(out), "  m.def({}, {{{}}});\n", schema,
                       fmt::join(tags, ", "));
      }
    }
    return out + "}\n";
  }

  std::string impl_block(std::string_view ns, std::string_view key, const OperatorList& ops,
                         const GenModel& model, const GenOptions&) const override {
    return stable_impl_block(ns, key, ops, overloaded_kernels(model));
  }

  // check() refuses the factories that would need one.
  std::string backend_select_block(std::string_view, const OperatorList&,
                                   const GenOptions&) const override {
    return {};
  }

  std::string declarations(const GenModel& model, const GenOptions&) const override {
    KernelDeclarations decls;
    for (const GenOperator& op : model.operators) {
      const StableSignature sig = stable_signature(op.schema);
      std::vector<std::string> types, params;
      for (const kernel_types::CppParam& p : sig.params) {
        types.push_back(p.type);
        params.push_back(p.type + " " + p.name);
      }
      for (const KernelBinding& binding : op.kernels) {
        decls.add_typed(kernel_namespace(op, binding), binding.kernel, sig.return_type,
                        fmt::format("{}", fmt::join(types, ", ")),
                        fmt::format("{}", fmt::join(params, ", ")), op.canonical);
      }
    }
    std::string out = banner(model);
    out +=
        "// The kernels the stable-ABI registrations bind (TORCH_BOX), declared with PyTorch's "
        "stable types:\n"
        "// implement each one.\n"
        "#pragma once\n\n"
        "#include <cstdint>\n#include <optional>\n#include <string>\n#include <string_view>\n"
        "#include <tuple>\n#include <vector>\n\n"
        "#include <torch/csrc/stable/device.h>\n"
        "#include <torch/csrc/stable/generator.h>\n"
        "#include <torch/csrc/stable/tensor.h>\n"
        "#include <torch/headeronly/core/Layout.h>\n"
        "#include <torch/headeronly/core/MemoryFormat.h>\n"
        "#include <torch/headeronly/core/ScalarType.h>\n"
        "#include <torch/headeronly/util/HeaderOnlyArrayRef.h>\n";
    for (const std::string& ns : decls.namespaces()) {
      fmt::format_to(std::back_inserter(out), "\nnamespace {} {{\n\n{}\n}}  // namespace {}\n", ns,
                     decls.render(ns), ns);
    }
    return out;
  }

  std::vector<FileJob> extra_files(const GenModel&, const GenOptions&,
                                   const std::vector<std::string>&) const override {
    return {};
  }
};

}  // namespace

uint32_t stable_abi_marker_line(std::string_view yaml_text) {
  uint32_t number = 1;
  for (size_t begin = 0; begin < yaml_text.size(); ++number) {
    size_t end = std::min(yaml_text.find('\n', begin), yaml_text.size());
    std::string_view line = yaml_text.substr(begin, end - begin);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
      line.remove_suffix(1);
    if (line == kStableAbiMarker) return number;
    begin = end + 1;
  }
  return 0;
}

const Target& torch_stable_target() {
  static const TorchStableTarget target;
  return target;
}
SCHEMAC_TARGET(torch_stable_target, "torch_stable", "NativeFunctions.h RegisterSchema.cpp");

}  // namespace schemac::codegen
