// BackendSelect kernels of our runtime for factory operators (GenOperator::needs_backend_select):
// an operator with no Tensor argument cannot get its dispatch key from its arguments, so a kernel
// on BackendSelect computes it from `device` (CPU when absent) and redispatches to that backend.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"

namespace schemac::codegen {

// The kernels and their `SCHEMAC_LIBRARY_IMPL(ns, BackendSelect, m)` block for the operators of
// `ops` (namespace `ns`) that need one; "" when none does. The code uses Operators.h.
std::string emit_backend_select(std::string_view ns, const std::vector<const GenOperator*>& ops);

}  // namespace schemac::codegen
