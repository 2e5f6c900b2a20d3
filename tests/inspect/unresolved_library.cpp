// A test library that needs a symbol nothing defines: opening it with RTLD_NOW fails, and its
// registration never runs.
#include "schemac/dispatch/library.h"

extern "C" int schemac_inspect_test_symbol_that_nobody_defines(int);

namespace {
schemac::core::Tensor kernel(const schemac::core::Tensor& self) {
  (void)schemac_inspect_test_symbol_that_nobody_defines(1);
  return self;
}
}  // namespace

SCHEMAC_LIBRARY(unresolved_test, m) { m.def("op(Tensor self) -> Tensor", &kernel); }
