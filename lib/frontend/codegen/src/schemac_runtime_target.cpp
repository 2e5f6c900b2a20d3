// The target of our runtime (`--target schemac`, the default): SCHEMAC_LIBRARY code for
// lib/runtime/dispatch, kernels declared with the runtime's native signatures (cpp_types.h), the
// typed handles and function API of Operators.h, and register_operators() in RegisterAll.cpp, which
// calls an anchor function in every registration file so that a static library keeps them all.
#include <fmt/format.h>

#include "schemac/codegen/backend_select_emitter.h"
#include "schemac/codegen/declarations_emitter.h"
#include "schemac/codegen/definitions_emitter.h"
#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/operators_emitter.h"
#include "schemac/codegen/registrations_emitter.h"
#include "schemac/codegen/target.h"

namespace schemac::codegen {
namespace {

std::string anchor_name(std::string_view file_name) {
  return "schemac_anchor_" + std::string(file_name.substr(0, file_name.rfind('.')));
}

std::string umbrella_file(const GenModel& model, const GenOptions& options,
                          const std::vector<std::string>& files) {
  std::string declarations;
  std::string calls;
  for (const std::string& file : files) {
    declarations += fmt::format("void {}();\n", anchor_name(file));
    calls += fmt::format("  detail::{}();\n", anchor_name(file));
  }
  const std::string& ns = options.umbrella_namespace;
  return fmt::format(
      "{}\n#include \"Operators.h\"\n\nnamespace {}::detail {{\n{}}}  // namespace {}::detail\n\n"
      "namespace {} {{\nvoid register_operators() {{\n{}}}\n}}  // namespace {}\n",
      banner(model), ns, declarations, ns, ns, calls, ns);
}

class SchemacRuntimeTarget final : public Target {
 public:
  std::string_view name() const override { return "schemac"; }
  lint::Profile lint_profile() const override { return lint::Profile::automatic; }
  std::string_view description() const override { return "our runtime, the default"; }

  std::vector<diagnostics::Diagnostic> check(const GenModel&, const GenOptions&) const override {
    return {};
  }

  std::string key_name(std::string_view key) const override { return std::string(key); }

  bool definitions_in_shards() const override { return true; }

  std::string registration_prologue(bool backend_select) const override {
    // BackendSelect kernels redispatch through the typed handles of Operators.h.
    return fmt::format(
        "#include \"schemac/dispatch/library.h\"\n\n{}#include \"NativeFunctions.h\"\n\n"
        "using namespace ::schemac::dispatch;  // NOLINT: generated code names runtime types "
        "briefly\n",
        backend_select ? "#include \"Operators.h\"\n" : "");
  }

  std::string registration_epilogue(std::string_view file_name,
                                    const GenOptions& options) const override {
    return fmt::format("\n\nnamespace {}::detail {{\nvoid {}() {{}}\n}}  // namespace {}::detail\n",
                       options.umbrella_namespace, anchor_name(file_name),
                       options.umbrella_namespace);
  }

  std::string schema_block(std::string_view ns, const OperatorList& ops,
                           DefinitionKind kind) const override {
    return emit_definition_block(ns, ops, kind);
  }

  std::string impl_block(std::string_view ns, std::string_view key, const OperatorList& ops,
                         const GenModel&, const GenOptions&) const override {
    return emit_impl_block(ns, key, ops);
  }

  std::string backend_select_block(std::string_view ns, const OperatorList& ops,
                                   const GenOptions&) const override {
    return emit_backend_select(ns, ops);
  }

  std::string declarations(const GenModel& model, const GenOptions&) const override {
    return emit_declarations(model);
  }

  std::vector<FileJob> extra_files(
      const GenModel& model, const GenOptions& options,
      const std::vector<std::string>& registration_files) const override {
    return {{"Operators.h",
             [&model, &options] { return emit_operators(model, options.umbrella_namespace); }},
            {"RegisterAll.cpp", [&model, &options, registration_files] {
               return umbrella_file(model, options, registration_files);
             }}};
  }
};

}  // namespace

const Target& schemac_runtime_target() {
  static const SchemacRuntimeTarget target;
  return target;
}
SCHEMAC_TARGET(schemac_runtime_target, "schemac", "NativeFunctions.h Operators.h RegisterAll.cpp");

}  // namespace schemac::codegen
