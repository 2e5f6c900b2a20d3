// The two call finders, each filling a ScanResult from its language's tokens, and the
// NamedOperator they both make.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "schemac/custom_op_inference/python_module.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/sources/scan.h"
#include "schemac/tokens/calls.h"
#include "schemac/tokens/token.h"

namespace schemac::sources {

// A NamedOperator with no key or kernel (yet).
inline NamedOperator named_operator(tokens::SourcePosition position, std::string name,
                                    std::string ns, tokens::SourcePosition library,
                                    tokens::ConditionPath condition) {
  NamedOperator named;
  named.position = position;
  named.name = std::move(name);
  named.library_namespace = std::move(ns);
  named.library_position = library;
  named.condition = std::move(condition);
  return named;
}

// `stream`: the code with its macros expanded (tokens/cpp_expansion.h).
void find_cpp_registrations(const tokens::TokenStream& stream, ScanResult& out);
// c10's RegisterOperators API and torch::jit's (register_operators.cpp), in the same code.
void find_register_operators(const tokens::TokenStream& stream, ScanResult& out);

// The C++ function a kernel argument names: `fn`, `&ns::fn`, `&::fn`, `TORCH_FN(ns::fn)`; ""
// otherwise (a lambda, a template, a call).
std::string cpp_kernel_name(const std::vector<tokens::Token>& tokens, tokens::TokenRange range,
                            bool stable_abi = false);
// `imported` answers for the constants the file imports from other modules
// (custom_op_inference::PythonModule::imported_constant); `first_read`: the file on its own, the
// other files not known yet.
using ImportedConstant = custom_op_inference::PythonModule::ImportedConstant;
void find_python_registrations(const tokens::TokenStream& stream, const ScanOptions& options,
                               ScanResult& out, const ImportedConstant& imported, bool first_read);

// What reading a Python file again takes: its tokens and its options.
struct PythonRescan {
  tokens::TokenStream stream;
  ScanOptions options;
};

// Reads again the Python files whose names or schemas need constants imported from other files
// given with them (imported_constants.cpp).
void read_imported_constants(std::span<ScannedFile> files);

// Whether `path` is the file of Python module `module` ("a.b" is .../a/b.py or
// .../a/b/__init__.py); a relative module (".c", "..c") is found from `importer`'s folder.
bool is_module_file(const std::string& path, const std::string& module,
                    const std::string& importer = "");

}  // namespace schemac::sources
