// A test library that changes `inspect_test::twice` (cpp_ops_library.cpp) when loaded after it: a
// newer CPU kernel shadows twice_cpu, and a Meta kernel appears. `dispatch-inspect diff` compares
// the table before and after loading it.
#include "schemac/dispatch/library.h"

namespace {

using schemac::core::Tensor;

Tensor twice_cpu_fast(const Tensor& self) { return self; }
Tensor twice_meta(const Tensor& self) { return self; }

}  // namespace

SCHEMAC_LIBRARY_IMPL(inspect_test, CPU, m) { m.impl("twice", &twice_cpu_fast, "twice_cpu_fast"); }

SCHEMAC_LIBRARY_IMPL(inspect_test, Meta, m) { m.impl("twice", &twice_meta, "twice_meta"); }
