// The two call finders, each filling a ScanResult from its language's tokens.
#pragma once

#include "schemac/sources/scan.h"
#include "token.h"

namespace schemac::sources {

void find_cpp_registrations(const TokenStream& stream, ScanResult& out);
void find_python_registrations(const TokenStream& stream, ScanResult& out);

}  // namespace schemac::sources
