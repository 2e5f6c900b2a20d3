// The preprocessor branches a C++ token sits in, as the C++ lexer records them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace schemac::tokens {

// The preprocessor branches a C++ definition sits in: (group, branch) pairs from the outermost
// #if to the innermost. Two definitions in different branches of one #if never both compile.
using ConditionPath = std::vector<std::pair<uint32_t, uint32_t>>;
bool mutually_exclusive(const ConditionPath& a, const ConditionPath& b);

}  // namespace schemac::tokens
