// A native-functions file (native_functions.yaml format) read into entries whose every field
// remembers where it was written. Reading checks the shape of each field (a bool where a bool
// belongs, known variants, known dispatch keys, ...); the rules that relate fields and entries
// to each other are in lint_rules.h.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/schema/model.h"
#include "schemac/yaml/yaml_loader.h"

namespace schemac::native_functions {

using diagnostics::Location;

// A name written in the file, with where it was written.
struct LocatedName {
  std::string name;
  Location location;
};

// One `KEY: kernel` pair of a dispatch section. `CPU, CUDA: fn` gives two of them.
struct DispatchEntry {
  LocatedName key;
  LocatedName kernel;
  std::string written_as;  // the whole YAML key the name came from: "CPU, CUDA"
};

struct NativeFunction {
  const yaml::YamlNode* node =
      nullptr;        // the entry's mapping (points into NativeFunctionsFile::document)
  Location location;  // the entry itself (its first key)

  std::string func;  // the schema text
  const yaml::YamlNode* func_node = nullptr;
  std::optional<schema::FunctionSchema> schema;  // set when `func` parsed without errors

  bool function_variant = true;  // `variants:` absent means "function"
  bool method_variant = false;
  bool has_dispatch = false;  // a `dispatch:` section was written (maybe empty)
  std::vector<DispatchEntry> dispatch;
  bool structured = false;
  std::optional<LocatedName> structured_delegate;
  std::optional<LocatedName> structured_inherits;
  bool has_precomputed = false;
  std::vector<LocatedName> precomputed_arguments;  // the `arg` of each `arg -> ...` line
  bool has_ufunc_inner_loop = false;
  std::vector<LocatedName> autogen;
  std::vector<LocatedName> tags;
  std::optional<LocatedName> device_check;  // NoCheck or ExactSame
  bool device_guard = true;
  bool manual_kernel_registration = false;
  bool manual_cpp_binding = false;
  bool use_const_ref_for_mutable_tensors = false;
  std::optional<LocatedName> python_module;
  std::optional<LocatedName> category_override;
  std::vector<LocatedName> cpp_no_default_args;

  // The key node of field `name`, or nullptr when the entry does not have it.
  const yaml::YamlNode* field_key(std::string_view name) const;
  const yaml::YamlNode* field_value(std::string_view name) const;
};

struct NativeFunctionsFile {
  yaml::YamlDocument document;
  std::vector<NativeFunction> functions;  // entries that are mappings, in file order

  // Where the bytes `range` of an entry's func string are in the file.
  Location func_location(const NativeFunction& function, schema::TextRange range) const;
  // Where the field `name` of an entry is (its key), or the entry's location when absent.
  Location field_location(const NativeFunction& function, std::string_view name) const;
};

struct NativeFunctionsLoad {
  NativeFunctionsFile file;
  std::vector<diagnostics::Diagnostic> diagnostics;
};

// Every field this format knows, in the order the README describes them.
std::span<const std::string_view> native_function_field_names();

// Reads and shape-checks a native-functions file. Parses every func with the schema parser and
// reports its errors at the offending character.
NativeFunctionsLoad load_native_functions(std::string file, std::string text);
// The same from a file already read as YAML.
NativeFunctionsLoad load_native_functions(yaml::YamlLoadResult loaded);

}  // namespace schemac::native_functions
