// Finding operator schemas where extension authors write them: string literals passed to
// registration calls in C++ (`TORCH_LIBRARY` blocks, `m.def("...")`) and Python
// (`torch.library.Library(...).define("...")`, `torch.library.custom_op(..., schema="...")`), and
// the schemas Python custom ops infer from their type hints (`@torch.library.custom_op`).
// Each language has a real tokenizer (string-literal, comment and continuation rules); the call
// finder works on its tokens. Only literal text is taken: anything built at run time or by a
// macro is skipped and listed, never guessed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/custom_op_inference/inference_problem.h"
#include "schemac/sources/language.h"
#include "schemac/tokens/condition_path.h"
#include "schemac/tokens/cpp_macros.h"
#include "schemac/tokens/mapped_text.h"

namespace schemac::sources {

using tokens::SourcePosition;

// A schema string passed to a definition call.
struct FoundSchema {
  SourcePosition position;          // where the literal holding the signature starts
  tokens::MappedText text;          // the joined schema text, as PyTorch would receive it
  std::string library_namespace;    // of the enclosing TORCH_LIBRARY / Library(...); "" if unknown
  SourcePosition library_position;  // where that TORCH_LIBRARY / Library(...) is; 0 if none
  std::string call;                 // "def", "define", "library.define", "custom_op"
  bool inferred = false;            // custom_op / triton_op: the schema comes from type hints
  tokens::ConditionPath condition;
  bool in_function = false;           // Python: inside a function body (a test's own library, say)
  bool namespace_from_macro = false;  // the block's namespace came through a macro (-D, #define)
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
  std::string kernel;  // C++ implementations: the kernel function's name, when written plainly
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

struct ScanResult {
  std::vector<FoundSchema> schemas;
  std::vector<NamedOperator> named_definitions;
  std::vector<NamedOperator> implementations;
  std::vector<SkippedCall> skipped;
  std::vector<custom_op_inference::InferenceProblem> inference_problems;
  std::vector<KeyUse> keys;
  std::vector<CustomClass> classes;
};

// Never throws on any input; positions are inside `text` (or at its end). `macros`: the build's
// (-D, `defines:`) for C++, besides the file's own #defines and the built-in ones.
ScanResult scan_source(std::string_view text, Language language,
                       const tokens::MacroTable* macros = nullptr);

}  // namespace schemac::sources
