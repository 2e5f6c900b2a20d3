// A test library that registers through the C++ API (library.h): two operators in namespace
// `inspect_test` with CPU kernels, an Autograd kernel and an ADInplaceOrView kernel that
// redispatch below themselves, and a math (CompositeImplicitAutograd) kernel.
#include "schemac/dispatch/library.h"
#include "schemac/dispatch/local_dispatch_key_set.h"
#include "schemac/dispatch/operator_handle.h"

namespace {

using schemac::keys::DispatchKey;
using schemac::keys::DispatchKeySet;
using schemac::core::Tensor;

Tensor twice_cpu(const Tensor& self) { return self; }

Tensor twice_autograd(DispatchKeySet ks, const Tensor& self) {
  static const auto op = schemac::dispatch::OperatorHandle::find("inspect_test::twice")->typed<Tensor(const Tensor&)>();
  return op.redispatch(ks & schemac::dispatch::keys_below(DispatchKey::AutogradCPU), self);
}

Tensor twice_inplace_or_view(DispatchKeySet ks, const Tensor& self) {
  static const auto op = schemac::dispatch::OperatorHandle::find("inspect_test::twice")->typed<Tensor(const Tensor&)>();
  return op.redispatch(ks & schemac::dispatch::keys_below(DispatchKey::ADInplaceOrView), self);
}

Tensor decomposed(const Tensor& self) {
  static const auto op = schemac::dispatch::OperatorHandle::find("inspect_test::twice")->typed<Tensor(const Tensor&)>();
  return op.call(self);
}

}  // namespace

SCHEMAC_LIBRARY(inspect_test, m) {
  m.def("twice(Tensor self) -> Tensor");
  m.def("decomposed(Tensor self) -> Tensor", &decomposed);
}

SCHEMAC_LIBRARY_IMPL(inspect_test, CPU, m) { m.impl("twice", &twice_cpu, "twice_cpu"); }

SCHEMAC_LIBRARY_IMPL(inspect_test, Autograd, m) { m.impl("twice", &twice_autograd, "twice_autograd"); }

SCHEMAC_LIBRARY_IMPL(inspect_test, ADInplaceOrView, m) {
  m.impl("twice", &twice_inplace_or_view, "twice_inplace_or_view");
}
