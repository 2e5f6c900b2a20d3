// Fuzzes `schemac gen` in memory: YAML -> native-functions model -> the checks gen runs before it
// writes -> every emitted file, with and without shards. Any input gives files or errors, never a
// crash, a hang or a leak; emission is deterministic, and no file is emitted for an input with
// errors (gen writes nothing then).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/output_files.h"
#include "schemac/native_functions/native_functions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac;
  std::string text(reinterpret_cast<const char*>(data), size);
  schema::NativeFunctionsLoad load = schema::load_native_functions("ops.yaml", std::move(text));
  std::vector<gen::GenInput> inputs{{"ops.yaml", &load.file}};
  gen::ModelBuild build = gen::build_checked_gen_model(inputs, "fuzz");
  bool errors = false;
  for (const schema::Diagnostic& d : load.diagnostics) errors = errors || d.severity == schema::Severity::error;
  for (const schema::Diagnostic& d : build.diagnostics) errors = errors || d.severity == schema::Severity::error;
  if (errors) return 0;
  std::vector<gen::GeneratedFile> files = gen::generate_files(build.model, gen::schemac_runtime_target(), {0, "fuzz"});
  std::vector<gen::GeneratedFile> again = gen::generate_files(build.model, gen::schemac_runtime_target(), {0, "fuzz"});
  if (files.size() != again.size()) __builtin_trap();
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].name != again[i].name || files[i].content != again[i].content) __builtin_trap();
  }
  std::vector<gen::GeneratedFile> shards = gen::generate_files(build.model, gen::schemac_runtime_target(), {3, "fuzz"});
  if (shards.empty()) __builtin_trap();
  return 0;
}
