// The C++ namespaces of a file and the functions declared or defined at namespace scope, as far as
// naming a kernel from another file needs: `namespace gemm { Tensor prepack(...); }` is
// `gemm::prepack`; a function in an anonymous namespace or declared `static` has internal linkage
// (only its own file can call it). Class bodies, function bodies and other braces are skipped;
// `extern "C" { ... }` and `inline namespace` are read through.
#pragma once

#include <string>
#include <vector>

#include "schemac/tokens/token.h"

namespace schemac::tokens {

struct CppFunction {
  SourcePosition position;    // its name
  std::string name;           // unqualified
  std::string cpp_namespace;  // "gemm", "a::b"; "" for the global one (anonymous ones add nothing)
  bool anonymous = false;     // inside an anonymous namespace
  bool is_static = false;     // declared `static`
  bool defined = false;       // its body is here (not only a declaration)
};

// A namespace block: from its `{` to its `}`.
struct CppNamespaceBlock {
  SourcePosition begin;
  SourcePosition end;
  std::string name;  // the named namespace it is, in full ("a::b"); anonymous blocks add nothing
};

struct CppScopes {
  std::vector<CppFunction> functions;
  std::vector<CppNamespaceBlock> blocks;  // outer blocks before the blocks inside them
  // The named namespace code at `position` is in ("" for the global one).
  std::string namespace_at(SourcePosition position) const;
};

// The code's stream (0) of `stream`; #define bodies are not read.
CppScopes read_cpp_scopes(const TokenStream& stream);

}  // namespace schemac::tokens
