// A test library whose second registration block throws after the first one registered: loading
// it must fail and leave no operator of namespace `throwing_test` behind.
#include <stdexcept>

#include "schemac/dispatch/library.h"

SCHEMAC_LIBRARY(throwing_test, m) { m.def("fine(Tensor self) -> Tensor"); }

SCHEMAC_LIBRARY_FRAGMENT(throwing_test, m) {
  m.def("also_fine(Tensor self) -> Tensor");
  throw std::runtime_error("boom: this registration block throws on purpose");
}
