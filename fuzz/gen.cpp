// Fuzzes `schemac gen` in memory: YAML -> native-functions model -> the checks gen runs before it
// writes -> every emitted file, with and without shards. Any input gives files or errors, never a
// crash, a hang or a leak; emission is deterministic, and no file is emitted for an input with
// errors (gen writes nothing then).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "schemac/codegen/output_files.h"
#include "schemac/generate/checked_model.h"
#include "schemac/native_functions/native_functions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac;
  std::string text(reinterpret_cast<const char*>(data), size);
  native_functions::NativeFunctionsLoad load =
      native_functions::load_native_functions("ops.yaml", std::move(text));
  std::vector<codegen::GenInput> inputs{{"ops.yaml", &load.file}};
  const codegen::Target& target = *codegen::find_target("schemac");
  codegen::ModelBuild build = generate::build_checked_gen_model(inputs, {}, target, {0, "fuzz"});
  bool errors = false;
  for (const diagnostics::Diagnostic& d : load.diagnostics)
    errors = errors || d.severity == diagnostics::Severity::error;
  for (const diagnostics::Diagnostic& d : build.diagnostics)
    errors = errors || d.severity == diagnostics::Severity::error;
  if (errors) return 0;
  std::vector<codegen::GeneratedFile> files =
      codegen::generate_files(build.model, target, {0, "fuzz"});
  std::vector<codegen::GeneratedFile> again =
      codegen::generate_files(build.model, target, {0, "fuzz"});
  if (files.size() != again.size()) __builtin_trap();
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].name != again[i].name || files[i].content != again[i].content) __builtin_trap();
  }
  std::vector<codegen::GeneratedFile> shards =
      codegen::generate_files(build.model, target, {3, "fuzz"});
  if (shards.empty()) __builtin_trap();
  return 0;
}
