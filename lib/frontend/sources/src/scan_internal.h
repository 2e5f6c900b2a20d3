// The two call finders, each filling a ScanResult from its language's tokens, and the
// NamedOperator they both make.
#pragma once

#include <string>
#include <utility>

#include "schemac/sources/scan.h"
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

void find_cpp_registrations(const tokens::TokenStream& stream, const tokens::MacroTable& macros,
                            ScanResult& out);
void find_python_registrations(const tokens::TokenStream& stream, const ScanOptions& options,
                               ScanResult& out);

}  // namespace schemac::sources
