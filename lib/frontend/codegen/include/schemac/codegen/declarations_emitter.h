// Our runtime's kernel declarations (NativeFunctions.h): for every kernel a dispatch entry
// names, its C++ declaration with types derived from the schema, in namespace `ns::native`.
#pragma once

#include <string>

#include "schemac/codegen/gen_model.h"

namespace schemac::codegen {

std::string emit_declarations(const GenModel& model);

}  // namespace schemac::codegen
