// Our runtime's library-definition block, which defines operators with their canonical schemas.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/target.h"

namespace schemac::codegen {

// `SCHEMAC_LIBRARY(ns, m) { m.def("..."); ... }` (or SCHEMAC_LIBRARY_FRAGMENT) for `ops`,
// which all have namespace `ns`.
std::string emit_definition_block(std::string_view ns, const std::vector<const GenOperator*>& ops,
                                  DefinitionKind kind);

}  // namespace schemac::codegen
