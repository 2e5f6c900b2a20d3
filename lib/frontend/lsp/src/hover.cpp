#include "schemac/lsp/hover.h"

#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/kernel_types/torch_types.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/sources/scan.h"

namespace schemac::lsp {
namespace {

// What a hover shows about one operator.
struct Definition {
  const schema::FunctionSchema* schema = nullptr;
  std::string ns;                    // the namespace it registers into, "" when unknown
  std::vector<std::string> kernels;  // the kernel names a YAML entry's dispatch binds
  bool const_ref_for_mutable_tensors = false;
  std::string lead;  // a line above the schema: "Inferred from the type hints ..."
};

std::string kernel_signature(const schema::FunctionSchema& schema, std::string_view kernel,
                             bool const_ref) {
  const bool symint = kernel.find("_symint") != std::string_view::npos;
  std::string why;
  std::optional<kernel_types::TorchSignature> sig =
      kernel_types::torch_native_signature(schema, const_ref, symint, &why);
  if (!sig) return fmt::format("// {}: no native signature: {}", kernel, why);
  std::vector<std::string> params;
  for (const kernel_types::CppParam& p : sig->params) params.push_back(p.type + " " + p.name);
  return fmt::format("{} {}({});", sig->return_type, kernel, fmt::join(params, ", "));
}

nlohmann::json render(const Definition& definition) {
  const schema::FunctionSchema& schema = *definition.schema;
  std::string name(schema.op.name);
  if (schema.op.ns().empty() && !definition.ns.empty()) name = definition.ns + "::" + name;
  if (!schema.op.overload.empty()) name += fmt::format(".{}", schema.op.overload);
  std::vector<std::string> kernels = definition.kernels;
  if (kernels.empty()) kernels.emplace_back(schema.op.base_name());
  std::string signatures;
  for (const std::string& kernel : kernels) {
    signatures += kernel_signature(schema, kernel, definition.const_ref_for_mutable_tensors) + "\n";
  }
  std::string text =
      fmt::format("**{}**\n\n{}```\n{}\n```\n\nKernel signature (PyTorch target):\n\n```cpp\n{}```",
                  name, definition.lead.empty() ? "" : definition.lead + "\n\n",
                  schema::print_schema(schema), signatures);
  return {{"contents", {{"kind", "markdown"}, {"value", text}}}};
}

nlohmann::json yaml_hover(const Document& document, Position position) {
  LineIndex index(document.text);
  if (index.line(position.line).find("func:") == std::string_view::npos) return nullptr;
  native_functions::NativeFunctionsLoad load =
      native_functions::load_native_functions(document.path, document.text);
  for (const native_functions::NativeFunction& function : load.file.functions) {
    const yaml::YamlNode* key = function.field_key("func");
    if (key == nullptr || key->line != position.line + 1 || !function.schema) continue;
    Definition definition{
        &*function.schema, {}, {}, function.use_const_ref_for_mutable_tensors, ""};
    // The kernels as written, a key that lint rejects included: the signature does not depend on
    // it.
    std::set<std::string> seen;
    const yaml::YamlNode* dispatch = function.field_value("dispatch");
    if (dispatch != nullptr && dispatch->is_mapping()) {
      for (const yaml::YamlEntry& entry : dispatch->entries) {
        if (entry.value.is_scalar() && seen.insert(entry.value.value).second)
          definition.kernels.push_back(entry.value.value);
      }
    }
    return render(definition);
  }
  return nullptr;
}

// "ns::name.overload" of a found schema.
std::string full_name_of(const sources::FoundSchema& found, const schema::FunctionSchema& schema) {
  const std::string ns = sources::resolved_namespace(found);
  std::string name(schema.op.base_name());
  if (!schema.op.overload.empty()) name += "." + std::string(schema.op.overload);
  return ns.empty() ? name : ns + "::" + name;
}

// "ns::name.overload" of an implementation, as written or in its block's namespace.
std::string full_name_of(const sources::NamedOperator& impl) {
  if (impl.name.find("::") != std::string::npos || impl.library_namespace.empty()) return impl.name;
  return impl.library_namespace + "::" + impl.name;
}

// On an m.impl: the operator it implements (its definition in the file when there is one, with
// the signature the kernel is written with), the key and the kernel.
nlohmann::json impl_hover(const sources::ScanResult& scan, const sources::NamedOperator& impl) {
  const std::string name = full_name_of(impl);
  const std::string registered = fmt::format(
      "Implementation for **{}**{}", impl.dispatch_key.empty() ? "its key" : impl.dispatch_key,
      impl.kernel.empty() ? "" : fmt::format(": `{}`", impl.kernel));
  for (const sources::FoundSchema& found : scan.schemas) {
    schema::ParseResult parsed = schema::parse_schema(found.text.text());
    if (!parsed.schema || full_name_of(found, *parsed.schema) != name) continue;
    Definition definition{
        &*parsed.schema, sources::resolved_namespace(found), {}, false, registered};
    if (!impl.kernel.empty()) definition.kernels.push_back(impl.kernel);
    return render(definition);
  }
  return {{"contents",
           {{"kind", "markdown"},
            {"value", fmt::format("**{}**\n\n{} (the operator is defined in another file)", name,
                                  registered)}}}};
}

nlohmann::json source_hover(const Document& document, Position position,
                            const sources::ScanOptions& options) {
  auto language = document.language == DocumentLanguage::cpp ? sources::Language::cpp
                                                             : sources::Language::python;
  sources::ScanResult scan = sources::scan_source(document.text, language, options);
  const uint32_t line = position.line + 1;
  for (const sources::FoundSchema& found : scan.schemas) {
    uint32_t last = found.text.position(found.text.size()).line;
    if (line < found.position.line || line > std::max(last, found.position.line)) continue;
    schema::ParseResult parsed = schema::parse_schema(found.text.text());
    if (!parsed.schema) return nullptr;
    Definition definition{&*parsed.schema, sources::resolved_namespace(found), {}, false, ""};
    if (found.inferred)
      definition.lead = "Inferred from the type hints, as `torch.library.infer_schema` does:";
    return render(definition);
  }
  for (const sources::NamedOperator& impl : scan.implementations) {
    if (impl.position.line == line) return impl_hover(scan, impl);
  }
  return nullptr;
}

}  // namespace

nlohmann::json hover(const Document& document, Position position,
                     const sources::ScanOptions& options) {
  switch (document.language) {
    case DocumentLanguage::yaml: return yaml_hover(document, position);
    case DocumentLanguage::cpp:
    case DocumentLanguage::python: return source_hover(document, position, options);
    case DocumentLanguage::other: break;
  }
  return nullptr;
}

}  // namespace schemac::lsp
