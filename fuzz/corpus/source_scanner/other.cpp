// A second file for the rules across files: a duplicate of an operator that bindings.cpp
// defines, and a schema whose namespace differs from its block's.
#include <torch/library.h>

TORCH_LIBRARY_FRAGMENT(myops, m) {
  m.def("scale(Tensor x, float factor=2.0) -> Tensor");
#ifdef USE_ROCM
  m.def("rocm_only(Tensor x) -> Tensor");
#else
  m.def("rocm_only(Tensor x) -> Tensor");
#endif
  m.def("elsewhere::moved(Tensor x) -> Tensor");
}
