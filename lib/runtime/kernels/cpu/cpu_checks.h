// Argument checks shared by the CPU kernels.
#pragma once

#include <fmt/format.h>

#include "schemac/core/tensor.h"

namespace schemac::kernels::cpu {

// Throws TensorError unless `t` is a defined CPU tensor.
inline void check_cpu(const char* op, const char* arg, const core::Tensor& t) {
  if (!t.defined())
    throw core::TensorError(fmt::format("{}: argument '{}' is an undefined tensor", op, arg));
  if (!t.is_cpu())
    throw core::TensorError(fmt::format("{}: expected argument '{}' on cpu, got a tensor on {}", op,
                                        arg, t.device().to_string()));
}

}  // namespace schemac::kernels::cpu
