// Lays out the generated files (output_files.h).
#include "schemac/codegen/output_files.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "schemac/codegen/backend_select_emitter.h"
#include "schemac/codegen/declarations_emitter.h"
#include "schemac/codegen/definitions_emitter.h"
#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/operators_emitter.h"
#include "schemac/codegen/registrations_emitter.h"
#include "schemac/support/parallel.h"

namespace schemac::gen {
namespace {

using NamespaceOps = std::map<std::string, std::vector<const GenOperator*>>;

constexpr std::string_view kRegistrationPrologue =
    "#include \"schemac/dispatch/library.h\"\n\n"
    "#include \"NativeFunctions.h\"\n\n"
    "using namespace ::schemac::dispatch;  // NOLINT: generated code names runtime types briefly\n\n";

std::string anchor_name(std::string_view file_name) {
  std::string stem(file_name.substr(0, file_name.rfind('.')));
  return "schemac_anchor_" + stem;
}

std::string anchor_definition(const GenOptions& options, std::string_view file_name) {
  return fmt::format("\nnamespace {}::detail {{\nvoid {}() {{}}\n}}  // namespace {}::detail\n",
                     options.umbrella_namespace, anchor_name(file_name), options.umbrella_namespace);
}

std::set<std::string> keys_of(const NamespaceOps& ops) {
  std::set<std::string> keys;
  for (const auto& [ns, list] : ops) {
    for (const GenOperator* op : list) {
      for (const KernelBinding& binding : op->kernels) keys.insert(binding.key);
      if (needs_backend_select(*op)) keys.insert(std::string(kBackendSelectKey));
    }
  }
  return keys;
}

std::string registration_file(const GenModel& model, const GenOptions& options,
                              std::string_view file_name, const NamespaceOps& ops,
                              std::optional<DefinitionKind> definitions,
                              const std::set<std::string>& keys) {
  std::string out = banner(model) + "\n";
  out += kRegistrationPrologue;
  if (keys.count(std::string(kBackendSelectKey)) != 0) {
    out.insert(out.find("#include \"NativeFunctions.h\""), "#include \"Operators.h\"\n");
  }
  for (const auto& [ns, list] : ops) {
    if (definitions) out += emit_definition_block(ns, list, *definitions) + "\n";
    for (const std::string& key : keys) {
      std::string block = key == kBackendSelectKey ? emit_backend_select(ns, list)
                                                   : emit_impl_block(ns, key, list);
      if (!block.empty()) out += block + "\n";
    }
  }
  out += anchor_definition(options, file_name);
  return out;
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

// A file to write and the emitter that gives its bytes. Emitters only read the model, so the
// files are emitted at the same time, one thread per core.
struct FileJob {
  std::string name;
  std::function<std::string()> emit;
};

std::vector<GeneratedFile> run_jobs(const std::vector<FileJob>& jobs) {
  std::vector<GeneratedFile> files(jobs.size());
  schema::run_tasks(jobs.size(), [&](size_t i) { files[i] = GeneratedFile{jobs[i].name, jobs[i].emit()}; });
  return files;
}

}  // namespace

std::vector<GeneratedFile> generate_files(const GenModel& model, const GenOptions& options) {
  std::vector<FileJob> jobs;
  jobs.push_back({"NativeFunctions.h", [&] { return emit_declarations(model); }});
  jobs.push_back({"Operators.h", [&] { return emit_operators(model, options.umbrella_namespace); }});

  auto all = std::make_shared<NamespaceOps>();
  for (const GenOperator& op : model.operators) (*all)[op.ns].push_back(&op);
  std::vector<std::string> registration_files;
  if (options.shards <= 0) {
    registration_files.push_back("RegisterSchema.cpp");
    jobs.push_back({"RegisterSchema.cpp", [&, all] {
                      return registration_file(model, options, "RegisterSchema.cpp", *all, DefinitionKind::library, {});
                    }});
    for (const std::string& key : keys_of(*all)) {
      std::string name = "Register" + key + ".cpp";
      registration_files.push_back(name);
      jobs.push_back({name, [&, all, name, key] {
                        return registration_file(model, options, name, *all, std::nullopt, {key});
                      }});
    }
  } else {
    auto shards = std::make_shared<std::vector<NamespaceOps>>(options.shards);
    for (const GenOperator& op : model.operators) {
      (*shards)[fnv1a_64(op.full_name) % options.shards][op.ns].push_back(&op);
    }
    for (int i = 0; i < options.shards; ++i) {
      std::string name = shard_file_name(i, options.shards);
      registration_files.push_back(name);
      jobs.push_back({name, [&, shards, name, i] {
                        const NamespaceOps& shard = (*shards)[static_cast<size_t>(i)];
                        return registration_file(model, options, name, shard, DefinitionKind::fragment, keys_of(shard));
                      }});
    }
  }
  jobs.push_back({"RegisterAll.cpp", [&] { return umbrella_file(model, options, registration_files); }});
  // The longest emitters first, so that no thread is left with a long one at the end.
  std::stable_partition(jobs.begin(), jobs.end(), [](const FileJob& job) {
    return job.name == "Operators.h" || job.name == "NativeFunctions.h";
  });
  std::vector<GeneratedFile> files = run_jobs(jobs);
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

}  // namespace schemac::gen
