// Lays out the generated files of any target (output_files.h).
#include "schemac/codegen/output_files.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/support/parallel.h"

namespace schemac::codegen {
namespace {

// The operators of one file, by namespace (each namespace gets its own blocks).
using NamespaceOps = std::map<std::string, OperatorList>;

// The keys a file registers kernels for: those its operators bind, and BackendSelect when one of
// them is a factory that needs a BackendSelect kernel.
std::set<std::string> keys_of(const Target& target, const NamespaceOps& ops) {
  std::set<std::string> keys;
  for (const auto& [ns, list] : ops) {
    for (const GenOperator* op : list) {
      for (const KernelBinding& binding : op->kernels) keys.insert(target.key_name(binding.key));
      if (op->needs_backend_select) keys.insert(std::string(kBackendSelectKey));
    }
  }
  return keys;
}

// One registration file: per namespace, the definitions of `ops` (when `definitions` is set) and
// their kernels for each of `keys`.
std::string registration_file(const GenModel& model, const Target& target,
                              const GenOptions& options, std::string_view file_name,
                              const NamespaceOps& ops, std::optional<DefinitionKind> definitions,
                              const std::set<std::string>& keys) {
  std::string out = banner(model) + "\n" +
                    target.registration_prologue(keys.count(std::string(kBackendSelectKey)) != 0);
  auto add = [&out](const std::string& block) {
    if (!block.empty()) out += "\n" + block;
  };
  for (const auto& [ns, list] : ops) {
    if (definitions) add(target.schema_block(ns, list, *definitions));
    for (const std::string& key : keys) {
      std::string block = target.impl_block(ns, key, list, model, options);
      if (key == kBackendSelectKey) {
        // Kernels the YAML binds to BackendSelect are registered as written; other factories get
        // one.
        std::string generated = target.backend_select_block(ns, list, options);
        if (!generated.empty()) block += (block.empty() ? "" : "\n") + generated;
      }
      add(block);
    }
  }
  return out + target.registration_epilogue(file_name, options);
}

// A decimal number without sign or leading zeros at the front of `text`, consumed; nullopt when
// there is none or it does not fit.
std::optional<uint64_t> take_number(std::string_view& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 9 || (digits > 1 && text[0] == '0')) return std::nullopt;
  uint64_t value = 0;
  for (size_t i = 0; i < digits; ++i) value = value * 10 + static_cast<uint64_t>(text[i] - '0');
  text.remove_prefix(digits);
  return value;
}

bool take_literal(std::string_view& text, std::string_view literal) {
  if (!text.starts_with(literal)) return false;
  text.remove_prefix(literal.size());
  return true;
}

}  // namespace

std::vector<GeneratedFile> generate_files(const GenModel& model, const Target& target,
                                          const GenOptions& options) {
  const bool sharded = options.shards > 0;
  NamespaceOps all;
  std::vector<NamespaceOps> shards(sharded ? static_cast<size_t>(options.shards) : 0);
  for (const GenOperator& op : model.operators) {
    all[op.ns].push_back(&op);
    if (sharded) shards[fnv1a_64(op.full_name) % shards.size()][op.ns].push_back(&op);
  }
  // Every job runs before this function returns: capturing its locals by reference is safe.
  std::vector<FileJob> registrations;
  if (!sharded || !target.definitions_in_shards()) {
    registrations.push_back({"RegisterSchema.cpp", [&] {
                               return registration_file(model, target, options,
                                                        "RegisterSchema.cpp", all,
                                                        DefinitionKind::library, {});
                             }});
  }
  if (!sharded) {
    for (const std::string& key : keys_of(target, all)) {
      std::string name = "Register" + key + ".cpp";
      registrations.push_back({name, [&, name, key] {
                                 return registration_file(model, target, options, name, all,
                                                          std::nullopt, {key});
                               }});
    }
  } else {
    const std::optional<DefinitionKind> definitions =
        target.definitions_in_shards() ? std::optional(DefinitionKind::fragment) : std::nullopt;
    for (size_t i = 0; i < shards.size(); ++i) {
      std::string name = shard_file_name(static_cast<int>(i), options.shards);
      // `definitions` ends with this block, before the jobs run: copied.
      registrations.push_back({name, [&, name, i, definitions] {
                                 return registration_file(model, target, options, name, shards[i],
                                                          definitions, keys_of(target, shards[i]));
                               }});
    }
  }
  std::vector<std::string> registration_names;
  for (const FileJob& job : registrations) registration_names.push_back(job.name);

  // The declarations and the target's own files are the longest: they start first, so that no
  // thread is left with a long one at the end.
  std::vector<FileJob> jobs;
  jobs.push_back({"NativeFunctions.h", [&] { return target.declarations(model, options); }});
  for (FileJob& job : target.extra_files(model, options, registration_names))
    jobs.push_back(std::move(job));
  for (FileJob& job : registrations) jobs.push_back(std::move(job));
  std::vector<GeneratedFile> files(jobs.size());
  support::run_tasks(jobs.size(), [&](size_t i) {
    files[i] = GeneratedFile{jobs[i].name, jobs[i].emit()};
  });
  std::sort(files.begin(), files.end(),
            [](const GeneratedFile& a, const GeneratedFile& b) { return a.name < b.name; });
  return files;
}

std::string shard_file_name(int index, int count) {
  return fmt::format("Register_{}of{}.cpp", index, count);
}

bool is_shard_file_name(std::string_view name) {
  if (!take_literal(name, "Register_")) return false;
  std::optional<uint64_t> index = take_number(name);
  if (!index || !take_literal(name, "of")) return false;
  std::optional<uint64_t> count = take_number(name);
  return count && *index < *count && name == ".cpp";
}

}  // namespace schemac::codegen
