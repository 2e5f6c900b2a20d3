// Semantic checks of one parsed schema: every problem, not just the first.
#pragma once

#include <span>
#include <vector>

#include "schemac/schema/model.h"
#include "schemac/schema/parser.h"

namespace schemac::schema {

// Duplicate argument names, positional arguments without a default after one with a default,
// defaults of the wrong type or length, alias annotations where they make no sense, malformed
// returns. Each error carries its own rule id and the offset of the offending text.
std::vector<SchemaError> check_schema(const FunctionSchema& schema);
// The one list of the device types c10::Device reads from a string, in any release (ort, maia).
std::span<const std::string_view> device_type_names();

}  // namespace schemac::schema
