// A test library with kernels no call can reach (the audit's unreachable-kernel rule): `both` has
// a CompositeExplicitAutograd kernel and a CompositeImplicitAutograd one, and any
// CompositeExplicitAutograd kernel stops math kernels on every key, so the second never runs;
// `twice` registers two CPU kernels, the newer shadowing the older. `fine` has one kernel per
// alias that each fill entries, and is not flagged.
#include "schemac/dispatch/library.h"

namespace {

using schemac::core::Tensor;

Tensor both_default(const Tensor& self) { return self; }
Tensor both_math(const Tensor& self) { return self; }
Tensor twice_old(const Tensor& self) { return self; }
Tensor twice_new(const Tensor& self) { return self; }
Tensor fine_default(const Tensor& self) { return self; }
Tensor fine_autograd(const Tensor& self) { return self; }

}  // namespace

SCHEMAC_LIBRARY(inspect_unreachable, m) {
  m.def("both(Tensor self) -> Tensor");
  m.def("twice(Tensor self) -> Tensor");
  m.def("fine(Tensor self) -> Tensor");
}

SCHEMAC_LIBRARY_IMPL(inspect_unreachable, CompositeExplicitAutograd, m) {
  m.impl("both", &both_default, "both_default");
  m.impl("fine", &fine_default, "fine_default");
}

SCHEMAC_LIBRARY_IMPL(inspect_unreachable, CompositeImplicitAutograd, m) { m.impl("both", &both_math, "both_math"); }

SCHEMAC_LIBRARY_IMPL(inspect_unreachable, Autograd, m) { m.impl("fine", &fine_autograd, "fine_autograd"); }

SCHEMAC_LIBRARY_IMPL(inspect_unreachable, CPU, m) { m.impl("twice", &twice_old, "twice_old"); }

SCHEMAC_LIBRARY_IMPL(inspect_unreachable, CPU, m) { m.impl("twice", &twice_new, "twice_new"); }
