// Finding operator schemas where extension authors write them: string literals passed to
// registration calls in C++ (`TORCH_LIBRARY` blocks, `m.def("...")`) and Python
// (`torch.library.Library(...).define("...")`, `torch.library.custom_op(..., schema="...")`), and
// the schemas Python custom ops infer from their type hints (`@torch.library.custom_op`).
// Each language has a real tokenizer (string-literal, comment and continuation rules); the call
// finder works on its tokens. Only static text is taken (literals; in Python also strings built
// from module constants): anything built at run time or by a macro is skipped and listed, never
// guessed. Python calls are recognised through the file's aliases and imports, and through
// registration helpers: vLLM's direct_register_custom_op built in, the project's own ones given
// in ScanOptions (.schemac.yaml's custom-op-helpers).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/custom_op_inference/inference_problem.h"
#include "schemac/sources/language.h"
#include "schemac/tokens/condition_path.h"
#include "schemac/tokens/cpp_macros.h"
#include "schemac/tokens/cpp_scopes.h"
#include "schemac/tokens/mapped_text.h"
#include "schemac/torch_releases/torch_release.h"

namespace schemac::sources {

using tokens::SourcePosition;

// A definition made through vLLM's direct_register_custom_op or a helper like it: it registers
// into a Library object that may be bound in another file. resolve_across_files() settles it.
struct HelperLibrary {
  std::string helper;      // the helper's name as called: "direct_register_custom_op"
  std::string module;      // the module it is imported from ("vllm.utils"); "" if unknown
  std::string target_lib;  // the name passed as target_lib=; "" when none
  std::string default_ns;  // the namespace .schemac.yaml gives the helper; "" when none
};

// How a schema was written, for the count of what was checked (tally.h).
enum class SchemaForm : uint8_t {
  literal,   // a schema string: m.def("..."), Library.define, custom_op(schema=...)
  inferred,  // from a Python function's type hints: custom_op, triton_op
  helper,    // through a registration helper (direct_register_custom_op, custom-op-helpers)
  legacy,    // c10's RegisterOperators (or torch::jit's) schema string
};

// A schema string passed to a definition call.
struct FoundSchema {
  SourcePosition position;          // where the literal holding the signature starts
  tokens::MappedText text;          // the joined schema text, as PyTorch would receive it
  std::string library_namespace;    // of the enclosing TORCH_LIBRARY / Library(...); "" if unknown
  SourcePosition library_position;  // where that TORCH_LIBRARY / Library(...) is; 0 if none
  std::string call;                 // "def", "define", "library.define", "custom_op"
  bool inferred = false;            // custom_op / triton_op: the schema comes from type hints
  SchemaForm form = SchemaForm::literal;
  tokens::ConditionPath condition;
  bool in_function = false;  // Python: inside a function body (a test's own library, say)
  std::optional<HelperLibrary> helper;  // registered through a helper: see HelperLibrary
  bool namespace_from_macro = false;    // the block's namespace came through a macro (-D, #define)
  bool stable_abi =
      false;  // defined in a STABLE_TORCH_LIBRARY(_FRAGMENT) block (PyTorch's stable ABI)
  // Python: named `<module>::<function>` by a helper (DefaultName::module_function): the
  // namespace is the file's module name, which resolve_across_files sets from its path.
  bool namespace_from_module = false;
};

// An operator named by a definition that gives no schema (`m.def("name", fn)`: PyTorch infers
// the schema from the function) or by an implementation (`m.impl("name", fn)`).
struct NamedOperator {
  SourcePosition position;
  std::string name;                 // as written, maybe "ns::name.overload"
  std::string library_namespace;    // "" if unknown
  SourcePosition library_position;  // the enclosing TORCH_LIBRARY / Library(...); 0 if none
  tokens::ConditionPath condition;
  bool in_function = false;           // Python: inside a function body
  bool namespace_from_macro = false;  // the block's namespace came through a macro (-D, #define)
  std::string dispatch_key;           // implementations: the key it registers to, when known
  std::string kernel;     // C++ implementations: the kernel function's name, when written plainly
  std::string cpp_scope;  // C++ implementations: the named namespace the call is in ("": global)
  std::optional<HelperLibrary> helper;  // defined through a helper: see HelperLibrary
  bool namespace_from_module = false;   // see FoundSchema
  // A definition by name whose schema PyTorch infers from the C++ kernel when the library loads
  // (m.def("name", fn), RegisterOperators' .op("ns::name", fn)).
  bool inferred_at_load = false;
};

// A dispatch key (TORCH_LIBRARY_IMPL, Library(ns, "IMPL", key), lib.impl(..., key)) or a device
// type (torch.library.impl(op, "cuda"), register_kernel(op, "cpu"), which take keys too) named
// by an implementation registration.
struct KeyUse {
  SourcePosition position;
  std::string name;  // the key or device type; a C++ device constant's without its `k`
  bool device_type = false;
  // How it is written at `position`: `name` itself ("CUDA", a Python string's text), or a C++
  // device constant `k` + name (torch::kCUDA); "" when the text there is not the name (a macro,
  // an escape): then no fix-it can be offered.
  std::string written;
};

// A custom class registered with `m.class_<T>("Name")` in a TORCH_LIBRARY block: schemas name it
// `__torch__.torch.classes.<namespace>.<Name>`.
struct CustomClass {
  SourcePosition position;
  std::string name;
  std::string library_namespace;  // "" if unknown
  tokens::ConditionPath condition;
};

// A registration call whose schema could not be read statically, and why.
struct SkippedCall {
  SourcePosition position;
  std::string reason;
};

// `NAME = Library("ns", ...)` at module level, with a literal namespace (Python).
struct LibraryBinding {
  std::string name;
  std::string ns;
  SourcePosition position;
};

// `def NAME(...)` of a helper in this file, and the namespace of the Library it registers into
// when no target_lib is given (`my_lib = target_lib or vllm_lib`, else the file's only Library).
struct HelperDefinition {
  std::string name;
  std::string default_ns;  // "" when not known
  SourcePosition position;
};

// A problem of the registration code itself, found while reading it: a registration PyTorch
// refuses when the library loads (rejected-at-load), macros that expand past schemac's bounds
// (macro-expansion-limit).
struct ScanProblem {
  SourcePosition position;
  std::string rule;  // the rule's id (lib/common/rules)
  std::string message;
  uint32_t length = 0;  // the characters it covers at `position`; 0: a point
};

// A module-level string constant of a Python file (`LIBRARY_NAME = "mylib"`), for the files given
// with it that import it.
struct ModuleConstant {
  std::string name;
  std::string value;
  friend bool operator==(const ModuleConstant&, const ModuleConstant&) = default;
};

struct PythonRescan;  // what reading a Python file again takes (scan.cpp)

struct ScanResult {
  std::vector<FoundSchema> schemas;
  std::vector<NamedOperator> named_definitions;
  std::vector<NamedOperator> implementations;
  std::vector<SkippedCall> skipped;
  std::vector<custom_op_inference::InferenceProblem> inference_problems;
  std::vector<KeyUse> keys;
  std::vector<LibraryBinding> libraries;
  std::vector<HelperDefinition> helper_definitions;
  std::vector<CustomClass> classes;
  std::vector<ScanProblem> problems;
  // C++: the functions declared at namespace scope, with their namespaces (tokens/cpp_scopes.h),
  // which adoption names kernels by.
  std::vector<tokens::CppFunction> functions;
  std::vector<ModuleConstant> constants;  // Python: the file's module-level string constants
  // Python: a name or schema needs a constant the file imports from another module; the files
  // given together are read again with each other's constants (resolve_across_files). Null when
  // nothing was imported.
  std::shared_ptr<const PythonRescan> rescan;
};

// What a project helper registering operators does, like which torch.library call.
enum class HelperKind : uint8_t { custom_op, triton_op, direct_register_custom_op, define };
// "custom_op", "triton_op", "direct_register_custom_op", "define"; none for anything else.
std::optional<HelperKind> helper_kind(std::string_view like);

// How a custom_op-like helper names an operator it is given no name for: after the function
// (in the helper's namespace), or `<module>::<function>`, the namespace being the name of the
// module the function is defined in (its file's name; a package's __init__.py: its folder's).
enum class DefaultName : uint8_t { function, module_function };
// "function", "module::function"; none for anything else.
std::optional<DefaultName> default_name(std::string_view text);

// A project's own registration helper (.schemac.yaml's custom-op-helpers).
struct CustomOpHelper {
  std::string name;  // the decorator or function, as called: `@custom_op_with_fake(...)`
  HelperKind like = HelperKind::custom_op;
  std::string ns;  // the namespace of names written without one; "" when none
  DefaultName default_name = DefaultName::function;
};

struct ScanOptions {
  std::vector<CustomOpHelper> helpers;  // besides the built-in direct_register_custom_op
  // The build's macros (-D, `defines:`) for C++, besides the file's own #defines and the
  // built-in ones; null: none.
  const tokens::MacroTable* macros = nullptr;
  // The release whose torch infers custom ops' schemas (--torch-version, torch-version:).
  torch_releases::TorchVersion torch_version = torch_releases::kNewestTorchVersion;
};

// Never throws on any input; positions are inside `text` (or at its end).
ScanResult scan_source(std::string_view text, Language language, const ScanOptions& options = {});

}  // namespace schemac::sources
