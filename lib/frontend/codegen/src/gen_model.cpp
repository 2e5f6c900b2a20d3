// Builds the model `schemac gen` writes from (gen_model.h).
#include "schemac/codegen/gen_model.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/kernel_types/cpp_types.h"
#include "schemac/keys/dispatch_key_names.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

namespace schemac::codegen {
namespace {

// `myops::scale_cpu` -> {"scale_cpu", "myops"}; a leading `::` is dropped.
KernelBinding binding_of(const std::string& key, std::string_view kernel) {
  if (kernel.starts_with("::")) kernel.remove_prefix(2);
  const size_t colons = kernel.rfind("::");
  if (colons == std::string_view::npos) return {key, std::string(kernel), ""};
  return {key, std::string(kernel.substr(colons + 2)), std::string(kernel.substr(0, colons))};
}

std::vector<KernelBinding> kernels_of(const native_functions::NativeFunction& function,
                                      const schema::FunctionSchema& schema) {
  std::vector<KernelBinding> kernels;
  if (function.manual_kernel_registration) return kernels;
  if (function.has_dispatch) {
    for (const native_functions::DispatchEntry& entry : function.dispatch) {
      kernels.push_back(binding_of(entry.key.name, entry.kernel.name));
    }
  } else if (!function.structured_delegate) {
    // The README's default: a CompositeImplicitAutograd kernel named after the operator.
    kernels.push_back({"CompositeImplicitAutograd", default_kernel_name(schema), ""});
  }
  std::sort(kernels.begin(), kernels.end(),
            [](const KernelBinding& a, const KernelBinding& b) { return a.key < b.key; });
  return kernels;
}

// A per-backend runtime key (CPU, CUDA, Meta, ...), synonyms resolved (CPUTensorId).
bool is_backend_key(std::string_view key) {
  const keys::DispatchKeyName* entry = keys::find_dispatch_key(key);
  if (entry != nullptr && entry->kind == keys::DispatchKeyKind::synonym)
    entry = keys::find_dispatch_key(entry->same_as);
  return entry != nullptr && entry->kind == keys::DispatchKeyKind::backend;
}

// Whether two entries of one operator define the same thing: schema, kernels, variants, tags.
bool same_definition(const GenOperator& a, const GenOperator& b) {
  auto kernels = [](const GenOperator& op) {
    std::vector<std::string> out;
    for (const KernelBinding& k : op.kernels) out.push_back(k.key + ":" + written_kernel(k));
    return out;
  };
  return a.canonical == b.canonical && kernels(a) == kernels(b) &&
         a.function_variant == b.function_variant && a.method_variant == b.method_variant &&
         a.use_const_ref_for_mutable_tensors == b.use_const_ref_for_mutable_tensors &&
         a.tags == b.tags;
}

// The operator's name as a func that does not parse writes it: what precedes its '('.
std::string written_name(const std::string& func) {
  const size_t open = func.find('(');
  if (open == 0 || open == std::string::npos) return func;
  return func.substr(0, func.find_last_not_of(' ', open - 1) + 1);
}

}  // namespace

bool needs_backend_select(const GenOperator& op) {
  if (op.boxed_only || op.name.ends_with("_like") || op.name.starts_with("new_")) return false;
  const auto& args = op.schema.arguments;
  const bool has_device = std::any_of(args.begin(), args.end(), [](const schema::Argument& a) {
    const schema::Type& t = a.type.is_optional() ? a.type.element() : a.type;
    return a.name == "device" && t.is_base(schema::BaseType::Device);
  });
  const bool has_tensor = std::any_of(
      args.begin(), args.end(), [](const schema::Argument& a) { return a.type.is_tensor_like(); });
  const bool has_backend_kernel =
      std::any_of(op.kernels.begin(), op.kernels.end(),
                  [](const KernelBinding& k) { return is_backend_key(k.key); });
  const bool binds_backend_select =
      std::any_of(op.kernels.begin(), op.kernels.end(),
                  [](const KernelBinding& k) { return k.key == kBackendSelectKey; });
  return has_device && !has_tensor && has_backend_kernel && !binds_backend_select;
}

bool is_out_overload(const schema::FunctionSchema& schema) {
  return std::any_of(schema.arguments.begin(), schema.arguments.end(),
                     [](const schema::Argument& a) { return a.kwarg_only && a.type.is_mutable(); });
}

std::string default_kernel_name(const schema::FunctionSchema& schema) {
  std::string name(schema.op.base_name());
  if (is_out_overload(schema)) name += "_out";
  return name;
}

std::string kernel_namespace(const GenOperator& op, const KernelBinding& binding) {
  return binding.cpp_namespace.empty() ? op.ns + "::native" : binding.cpp_namespace;
}

std::string qualified_kernel(const GenOperator& op, const KernelBinding& binding) {
  return kernel_namespace(op, binding) + "::" + binding.kernel;
}

diagnostics::Location schema_location(const GenOperator& op, schema::TextRange range) {
  if (op.file == nullptr || op.function == nullptr) return op.location;
  return op.file->func_location(*op.function, range);
}

std::string written_kernel(const KernelBinding& binding) {
  return binding.cpp_namespace.empty() ? binding.kernel
                                       : binding.cpp_namespace + "::" + binding.kernel;
}

uint64_t fnv1a_64(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

ModelBuild build_gen_model(const std::vector<GenInput>& inputs,
                           std::string_view default_namespace) {
  ModelBuild build;
  std::map<std::string, size_t> defined_at;  // full name -> index in the model's operators
  for (const GenInput& input : inputs) {
    build.model.inputs.push_back(input.display_path);
    for (const native_functions::NativeFunction& function : input.file->functions) {
      // The loader keeps no schema PyTorch rejects (lint reports why; a config or a suppression
      // may silence it, but gen cannot write it).
      if (!function.schema) {
        schema::ParseResult parsed = schema::parse_schema(function.func);
        build.unwritten.push_back({function.func.empty() ? std::string("(an entry without func)")
                                                         : written_name(function.func),
                                   function.location,
                                   function.func.empty() ? std::string("it has no func")
                                   : parsed.error
                                       ? fmt::format("PyTorch rejects its schema: {} [{}]",
                                                     parsed.error->message, parsed.error->rule)
                                       : std::string("its schema is not usable"),
                                   {}});
        continue;
      }
      GenOperator op;
      op.schema = *function.schema;
      op.ns = op.schema.op.ns();
      op.namespace_written = !op.ns.empty();
      if (op.ns.empty()) op.ns = std::string(default_namespace);
      op.name = op.schema.op.base_name();
      op.overload = op.schema.op.overload;
      schema::set_operator_name(op.schema, fmt::format("{}::{}", op.ns, op.name));
      op.full_name = op.schema.op.full();
      op.canonical = schema::print_schema(op.schema);
      op.input = input.display_path;
      op.function_variant = function.function_variant;
      op.method_variant = function.method_variant;
      op.use_const_ref_for_mutable_tensors = function.use_const_ref_for_mutable_tensors;
      op.boxed_only = !kernel_types::has_unboxed_signature(op.schema);
      if (!op.boxed_only) {
        op.signature =
            kernel_types::native_signature(op.schema, op.use_const_ref_for_mutable_tensors);
      }
      op.kernels = kernels_of(function, op.schema);
      op.needs_backend_select = needs_backend_select(op);
      for (const native_functions::LocatedName& tag : function.tags) op.tags.push_back(tag.name);
      op.location = function.location;
      op.file = input.file;
      op.function = &function;
      // One definition per operator (lint's duplicate rules report the others): the same
      // definition again loses nothing; a different one cannot be written beside the first.
      auto [it, inserted] = defined_at.emplace(op.full_name, build.model.operators.size());
      if (!inserted) {
        const GenOperator& first = build.model.operators[it->second];
        if (!same_definition(first, op)) {
          build.unwritten.push_back(
              {op.full_name,
               function.location,
               "it is defined again, differently (one definition per operator is written)",
               {{first.location, "first defined here"}}});
        }
        continue;
      }
      build.model.operators.push_back(std::move(op));
    }
  }
  // Sorted by full name: the order is decided on indexes, then each operator moves once.
  std::vector<GenOperator>& operators = build.model.operators;
  std::vector<size_t> order(operators.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return operators[a].full_name < operators[b].full_name; });
  std::vector<GenOperator> sorted;
  sorted.reserve(operators.size());
  for (size_t i : order) sorted.push_back(std::move(operators[i]));
  operators = std::move(sorted);
  std::vector<std::string> handles = handle_struct_names(build.model);
  for (size_t i = 0; i < handles.size(); ++i)
    build.model.operators[i].handle_name = std::move(handles[i]);
  return build;
}

}  // namespace schemac::codegen
