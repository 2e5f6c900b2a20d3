// Our runtime's library-implementation block per dispatch key, which registers each
// operator's kernel for that key (unboxed kernels through their native signature; boxed-only
// kernels through the boxed adapter).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"

namespace schemac::codegen {

// `SCHEMAC_LIBRARY_IMPL(ns, KEY, m) { m.impl("op", kernel, "kernel"); ... }` for the operators
// of `ops` (namespace `ns`) that bind a kernel to `key`; "" when none does. Blocks of CUDA keys
// are wrapped in `#ifdef SCHEMAC_HAVE_CUDA`.
std::string emit_impl_block(std::string_view ns, std::string_view key,
                            const std::vector<const GenOperator*>& ops);

}  // namespace schemac::codegen
