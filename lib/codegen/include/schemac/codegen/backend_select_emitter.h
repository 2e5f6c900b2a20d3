// BackendSelect kernels for factory operators, derived from the schema as torchgen derives
// them: an operator with no Tensor argument, a `device` argument and a kernel for a backend key
// cannot get its dispatch key from its arguments, so a kernel on BackendSelect computes it from
// `device` (CPU when absent) and redispatches to that backend.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"

namespace schemac::gen {

// The key name the registration files use for these kernels.
inline constexpr std::string_view kBackendSelectKey = "BackendSelect";

// Whether `op` gets a BackendSelect kernel.
bool needs_backend_select(const GenOperator& op);

// The kernels and their `SCHEMAC_LIBRARY_IMPL(ns, BackendSelect, m)` block for the operators of
// `ops` (namespace `ns`) that need one; "" when none does. The code uses Operators.h.
std::string emit_backend_select(std::string_view ns, const std::vector<const GenOperator*>& ops);

}  // namespace schemac::gen
