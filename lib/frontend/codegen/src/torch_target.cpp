// The PyTorch target (`--target torch`): TORCH_LIBRARY code for libtorch's torch/library.h, with
// kernels declared with torchgen's native signatures (torch_emitters.h). Its registrations run
// when the extension's shared library is loaded, so it writes no files of its own.
#include <cctype>
#include <tuple>

#include <fmt/format.h>

#include "schemac/codegen/target.h"
#include "schemac/codegen/torch_emitters.h"
#include "schemac/rules/rules.h"

namespace schemac::codegen {
namespace {

class TorchTarget final : public Target {
 public:
  std::string_view name() const override { return "torch"; }
  lint::Profile lint_profile() const override { return lint::Profile::extension; }
  std::string_view description() const override {
    return "TORCH_LIBRARY code and kernels declared with torchgen's native signatures, for a "
           "PyTorch extension";
  }

  std::vector<diagnostics::Diagnostic> check(const GenModel& model,
                                             const GenOptions& options) const override {
    return check_torch_model(model, options);
  }

  std::string key_name(std::string_view key) const override { return torch_key_name(key); }

  // A namespace has one TORCH_LIBRARY: RegisterSchema.cpp defines every operator.
  bool definitions_in_shards() const override { return false; }

  std::string registration_prologue(bool backend_select) const override {
    return fmt::format(
        "#include <torch/library.h>\n\n#include \"NativeFunctions.h\"\n{}",
        backend_select
            ? "#include <ATen/core/dispatch/Dispatcher.h>\n#include <c10/core/TensorOptions.h>\n"
            : "");
  }

  std::string registration_epilogue(std::string_view, const GenOptions&) const override {
    return {};
  }

  std::string schema_block(std::string_view ns, const OperatorList& ops,
                           DefinitionKind) const override {
    return emit_torch_library_block(ns, ops);
  }

  std::string impl_block(std::string_view ns, std::string_view key, const OperatorList& ops,
                         const GenModel& model, const GenOptions& options) const override {
    return emit_torch_impl_block(ns, key, ops, model, options.torch_version);
  }

  std::string backend_select_block(std::string_view ns, const OperatorList& ops,
                                   const GenOptions& options) const override {
    return emit_torch_backend_select(ns, ops, options.torch_version);
  }

  std::string declarations(const GenModel& model, const GenOptions& options) const override {
    return emit_torch_declarations(model, options.torch_version);
  }

  std::vector<FileJob> extra_files(const GenModel&, const GenOptions&,
                                   const std::vector<std::string>&) const override {
    return {};
  }
};

}  // namespace

namespace {

// libtorch parses a schema when TORCH_LIBRARY's static initializer runs and aborts the process
// ("Unknown custom class type") when a custom class it names is not registered yet; generated
// code cannot be ordered after the extension's own m.class_<T>(...), so such operators are
// refused, each at its entry.
void custom_classes(const GenModel& model, std::vector<diagnostics::Diagnostic>& out) {
  constexpr std::string_view kPrefix = "__torch__.torch.classes.";
  for (const GenOperator& op : model.operators) {
    size_t at = op.canonical.find(kPrefix);
    if (at == std::string::npos) continue;
    size_t end = at + kPrefix.size();
    while (end < op.canonical.size() &&
           (std::isalnum(static_cast<unsigned char>(op.canonical[end])) ||
            op.canonical[end] == '_' || op.canonical[end] == '.')) {
      ++end;
    }
    diagnostics::Diagnostic d;
    d.rule = rules::torch_custom_class;
    d.location = op.location;
    d.message = fmt::format(
        "operator '{}' names the custom class '{}': libtorch aborts loading a library whose "
        "TORCH_LIBRARY runs before the class is registered, and generated code cannot be ordered "
        "after your m.class_<...>(...); define this operator in the file that registers the class",
        op.full_name, op.canonical.substr(at + kPrefix.size(), end - at - kPrefix.size()));
    out.push_back(std::move(d));
  }
}

}  // namespace

std::vector<diagnostics::Diagnostic> check_torch_model(const GenModel& model,
                                                       const GenOptions& options) {
  std::vector<diagnostics::Diagnostic> out;
  custom_classes(model, out);
  if (options.namespace_given) return out;
  // One error for the file, at its first operator without a namespace, with how many there are.
  const GenOperator* first = nullptr;
  size_t count = 0;
  for (const GenOperator& op : model.operators) {
    if (op.namespace_written) continue;
    if (first == nullptr || std::tie(op.location.file, op.location.line) <
                                std::tie(first->location.file, first->location.line)) {
      first = &op;
    }
    ++count;
  }
  if (first == nullptr) return out;
  diagnostics::Diagnostic d;
  d.rule = rules::torch_namespace;
  d.location = first->location;
  d.message = fmt::format(
      "operator '{}'{} has no namespace: PyTorch registers operators per namespace, so name one in "
      "the func "
      "('myops::{}') or pass --namespace NS",
      schema::operator_full_name(first->name, first->overload),
      count > 1 ? fmt::format(" (and {} more)", count - 1) : "", first->name);
  out.push_back(std::move(d));
  return out;
}

const Target& torch_target() {
  static const TorchTarget target;
  return target;
}
SCHEMAC_TARGET(torch_target, "torch", "NativeFunctions.h RegisterSchema.cpp");

}  // namespace schemac::codegen
