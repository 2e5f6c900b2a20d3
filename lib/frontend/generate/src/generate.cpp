// generate (generate.h): the inputs loaded, through gen's gate, and the target's files made in
// memory. Nothing here touches the output folder (write_outputs.cpp does).
#include "schemac/generate/generate.h"

#include <cctype>

#include "schemac/codegen/output_files.h"
#include "schemac/generate/checked_model.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/rules/rules.h"

namespace schemac::generate {
namespace {

namespace fs = std::filesystem;

// The path banners show: relative to the source root, '/'-separated; the file name alone when
// the input is outside the root (never an absolute path).
std::string display_path(const std::string& input, const std::string& source_root) {
  std::error_code ec;
  fs::path absolute = fs::weakly_canonical(fs::absolute(input, ec), ec);
  fs::path root = fs::weakly_canonical(fs::absolute(source_root, ec), ec);
  fs::path relative = absolute.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..")
    return fs::path(input).filename().generic_string();
  return relative.generic_string();
}

// The torch target writes inputs marked for the stable ABI (codegen::kStableAbiMarker) with the
// torch_stable target; inputs that mix marked and unmarked files are refused (they would need
// both targets).
const codegen::Target& target_for_inputs(const Request& request,
                                         std::vector<diagnostics::Diagnostic>& out) {
  const codegen::Target& requested = *request.target;
  const codegen::Target* stable = codegen::find_target("torch_stable");
  if (requested.name() != "torch" || stable == nullptr) return requested;
  const Input* marked = nullptr;
  const Input* unmarked = nullptr;
  uint32_t marker_line = 0;
  for (const Input& input : request.inputs) {
    if (uint32_t line = codegen::stable_abi_marker_line(input.text)) {
      if (marked == nullptr) {
        marked = &input;
        marker_line = line;
      }
    } else if (unmarked == nullptr) {
      unmarked = &input;
    }
  }
  if (marked == nullptr) return requested;
  if (unmarked == nullptr) return *stable;
  diagnostics::Diagnostic d;
  d.rule = rules::stable_abi;
  d.location = diagnostics::Location::at(marked->path, marker_line, 1);
  d.message = "'" + marked->path + "' is marked for PyTorch's stable ABI ('" +
              std::string(codegen::kStableAbiMarker) + "') and '" + unmarked->path +
              "' is not: generate them in two runs (--target torch_stable, --target torch)";
  out.push_back(std::move(d));
  return requested;
}

}  // namespace

std::string namespace_problem(std::string_view ns) {
  bool ok = !ns.empty() && !(ns[0] >= '0' && ns[0] <= '9');
  for (char c : ns) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  return ok ? std::string() : "namespace '" + std::string(ns) + "' is not a C++ identifier";
}

Result generate(const Request& request) {
  std::vector<native_functions::NativeFunctionsLoad> loads;
  loads.reserve(request.inputs.size());
  for (const Input& input : request.inputs)
    loads.push_back(native_functions::load_native_functions(input.path, input.text));
  std::vector<codegen::GenInput> inputs;
  for (size_t i = 0; i < loads.size(); ++i) {
    inputs.push_back({display_path(request.inputs[i].path, request.source_root), &loads[i].file,
                      &loads[i].diagnostics});
  }
  // The gate: what `schemac lint` says of the inputs (each one's .schemac.yaml included), the
  // model and the target's checks.
  Result result;
  const codegen::Target& target = target_for_inputs(request, result.diagnostics);
  generate::GateOptions gate{{}, request.configs};
  gate.lint.profile = request.profile;  // --profile; else the config's, else the target's
  gate.lint.default_profile = target.lint_profile();
  gate.lint.torch_version = request.torch_version;
  codegen::GenOptions gen = request.gen;
  // The first input's .schemac.yaml: its namespace: is the namespace's default, its
  // torch-version: the release the code is written for when --torch-version is not given.
  std::vector<diagnostics::Diagnostic> unused;
  const config::Config* config =
      request.configs && !request.inputs.empty()
          ? request.configs->for_input(request.inputs.front().path, unused)
          : nullptr;
  if (config && config->namespace_name && !gen.namespace_given) {
    gen.umbrella_namespace = *config->namespace_name;
    gen.namespace_given = true;
  }
  if (request.torch_version) {
    gen.torch_version = *request.torch_version;
  } else if (config && config->torch_version) {
    // An unknown release is the config's finding (the gate reports it); the newest stays.
    if (auto version = torch_releases::parse_torch_version(*config->torch_version))
      gen.torch_version = *version;
  }
  codegen::ModelBuild build = generate::build_checked_gen_model(inputs, gate, target, gen);
  result.diagnostics.insert(result.diagnostics.end(), build.diagnostics.begin(),
                            build.diagnostics.end());
  diagnostics::sort_diagnostics(result.diagnostics);
  result.counts = diagnostics::count_diagnostics(result.diagnostics);
  if (result.counts.errors == 0) result.files = codegen::generate_files(build.model, target, gen);
  return result;
}

std::vector<std::string> output_paths(const std::string& output_dir,
                                      const std::vector<codegen::GeneratedFile>& files) {
  std::vector<std::string> paths;
  for (const codegen::GeneratedFile& file : files)
    paths.push_back((fs::path(output_dir) / file.name).generic_string());
  return paths;
}

}  // namespace schemac::generate
