// generate (generate.h): the inputs loaded, through gen's gate, and the target's files made in
// memory. Nothing here touches the output folder (write_outputs.cpp does).
#include "schemac/generate/generate.h"

#include <cctype>

#include "schemac/codegen/checked_model.h"
#include "schemac/codegen/output_files.h"
#include "schemac/native_functions/native_functions.h"

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
  const codegen::Target& target = *request.target;
  codegen::GateOptions gate{{}, request.configs};
  gate.lint.profile = request.profile;  // --profile; else the config's, else the target's
  gate.lint.default_profile = target.lint_profile();
  gate.lint.torch_version = request.torch_version;
  codegen::GenOptions gen = request.gen;
  // A .schemac.yaml's namespace: is the namespace's default.
  std::vector<diagnostics::Diagnostic> unused;
  if (const config::Config* config =
          request.configs && !request.inputs.empty()
              ? request.configs->for_input(request.inputs.front().path, unused)
              : nullptr;
      config && config->namespace_name && !gen.namespace_given) {
    gen.umbrella_namespace = *config->namespace_name;
    gen.namespace_given = true;
  }
  codegen::ModelBuild build = codegen::build_checked_gen_model(inputs, gate, target, gen);
  Result result;
  result.diagnostics = std::move(build.diagnostics);
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
