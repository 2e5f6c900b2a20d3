// Semantic checks of one parsed schema: every problem, not just the first.
#pragma once

#include <vector>

#include "schemac/schema/model.h"
#include "schemac/schema/parser.h"

namespace schemac::schema {

// Duplicate argument names, positional arguments without a default after one with a default,
// defaults of the wrong type or length, alias annotations where they make no sense, malformed
// returns. Each error carries its own rule id and the offset of the offending text.
std::vector<SchemaError> check_schema(const FunctionSchema& schema);

}  // namespace schemac::schema
