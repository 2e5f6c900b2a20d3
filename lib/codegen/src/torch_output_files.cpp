// The files of the PyTorch target, and its model check (torch_emitters.h).
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/torch_emitters.h"

namespace schemac::gen {
namespace {

using NamespaceOps = std::map<std::string, std::vector<const GenOperator*>>;

constexpr std::string_view kPrologue = "#include <torch/library.h>\n\n#include \"NativeFunctions.h\"\n";
constexpr std::string_view kBackendSelectIncludes =
    "#include <ATen/core/dispatch/Dispatcher.h>\n#include <c10/core/TensorOptions.h>\n";
constexpr std::string_view kBackendSelect = "BackendSelect";

std::set<std::string> torch_keys_of(const NamespaceOps& ops) {
  std::set<std::string> keys;
  for (const auto& [ns, list] : ops) {
    for (const GenOperator* op : list) {
      for (const KernelBinding& binding : op->kernels) keys.insert(torch_key_name(binding.key));
      if (needs_torch_backend_select(*op)) keys.insert(std::string(kBackendSelect));
    }
  }
  return keys;
}

std::string schema_file(const GenModel& model, const NamespaceOps& ops) {
  std::string out = banner(model) + "\n" + std::string(kPrologue);
  for (const auto& [ns, list] : ops) out += "\n" + emit_torch_library_block(ns, list);
  return out;
}

std::string impl_file(const GenModel& model, const NamespaceOps& ops, const std::set<std::string>& keys) {
  std::string out = banner(model) + "\n" + std::string(kPrologue);
  if (keys.count(std::string(kBackendSelect)) != 0) out += kBackendSelectIncludes;
  for (const auto& [ns, list] : ops) {
    for (const std::string& key : keys) {
      // BackendSelect kernels the YAML names are registered as written; other factories get one.
      std::string block = emit_torch_impl_block(ns, key, list, model);
      if (key == kBackendSelect) {
        std::string generated = emit_torch_backend_select(ns, list);
        if (!generated.empty()) block += (block.empty() ? "" : "\n") + generated;
      }
      if (!block.empty()) out += "\n" + block;
    }
  }
  return out;
}

}  // namespace

std::vector<schema::Diagnostic> check_torch_model(const GenModel& model) {
  std::vector<schema::Diagnostic> diagnostics;
  for (const GenOperator& op : model.operators) {
    std::string why;
    if (op.kernels.empty() ||
        torch_native_signature(op.schema, op.use_const_ref_for_mutable_tensors, false, &why)) {
      continue;
    }
    schema::Diagnostic d;
    d.rule = "torch-signature";
    d.location = op.location;
    d.message = fmt::format("'{}' binds kernels but has no torchgen native signature: {}", op.full_name, why);
    diagnostics.push_back(std::move(d));
  }
  return diagnostics;
}

std::vector<GeneratedFile> generate_torch_files(const GenModel& model, const GenOptions& options) {
  NamespaceOps all;
  for (const GenOperator& op : model.operators) all[op.ns].push_back(&op);
  std::vector<GeneratedFile> files;
  files.push_back({"NativeFunctions.h", emit_torch_declarations(model)});
  files.push_back({"RegisterSchema.cpp", schema_file(model, all)});
  if (options.shards <= 0) {
    for (const std::string& key : torch_keys_of(all)) {
      files.push_back({"Register" + key + ".cpp", impl_file(model, all, {key})});
    }
  } else {
    std::vector<NamespaceOps> shards(static_cast<size_t>(options.shards));
    for (const GenOperator& op : model.operators) {
      shards[fnv1a_64(op.full_name) % static_cast<uint64_t>(options.shards)][op.ns].push_back(&op);
    }
    for (int i = 0; i < options.shards; ++i) {
      const NamespaceOps& shard = shards[static_cast<size_t>(i)];
      files.push_back({shard_file_name(i, options.shards), impl_file(model, shard, torch_keys_of(shard))});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const GeneratedFile& a, const GeneratedFile& b) { return a.name < b.name; });
  return files;
}

}  // namespace schemac::gen
