// A test library that defines a new operator and then `inspect_test::twice`, which
// cpp_ops_library.cpp defines too: loaded after it, the registry refuses the second definition
// (naming both sites) and the new operator must be undone as well.
#include "schemac/dispatch/library.h"

SCHEMAC_LIBRARY(duplicate_test, m) { m.def("fresh(Tensor self) -> Tensor"); }

SCHEMAC_LIBRARY_FRAGMENT(inspect_test, m) { m.def("twice(Tensor self) -> Tensor"); }
