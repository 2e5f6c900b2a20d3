// Which vector instruction set the CPU kernels that pick one at run time (mm) use. The library
// is built for the baseline x86-64 ISA; AVX2+FMA and AVX-512 paths are chosen when the CPU has
// them.
#pragma once

#include <cstdint>
#include <string_view>

namespace schemac::kernels {

enum class CpuIsa { Baseline, Avx2, Avx512 };

std::string_view to_string(CpuIsa isa);  // "baseline", "avx2", "avx512"
// The best ISA this CPU supports (checked once).
CpuIsa detected_isa();
// The ISA mm uses: detected_isa() unless overridden; the override is clamped to what the CPU
// supports. For tests and benchmarks that compare the paths.
CpuIsa mm_isa();
void set_mm_isa(CpuIsa isa);

// The size of the last-level cache in bytes (sysfs, else sysconf; 32 MiB when neither says).
int64_t last_level_cache_bytes();
// How many bytes a kernel's operands may take and still be expected to stay in the cache: the
// last-level cache, but at most 4 MiB for each of the machine's CPUs. A virtual machine
// reports the whole L3 of its host (300 MiB on one seen here) though it owns a few cores' share of
// it. Kernels whose operands are larger write their output with non-temporal stores.
int64_t cache_resident_bytes();

}  // namespace schemac::kernels
