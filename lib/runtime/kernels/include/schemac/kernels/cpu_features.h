// What the element-wise kernels ask of the CPU: the cache they can count on. (Which vector ISA
// mm runs with is lib/runtime/gemm's: schemac/gemm/gemm.h.)
#pragma once

#include <cstdint>

namespace schemac::kernels {

// The size of the last-level cache in bytes (sysfs, else sysconf; 32 MiB when neither says).
int64_t last_level_cache_bytes();
// How many bytes a kernel's operands may take and still be expected to stay in the cache: the
// last-level cache, but at most 4 MiB for each of the machine's CPUs. A virtual machine
// reports the whole L3 of its host (300 MiB on one seen here) though it owns a few cores' share of
// it. Kernels whose operands are larger write their output with non-temporal stores.
int64_t cache_resident_bytes();

}  // namespace schemac::kernels
