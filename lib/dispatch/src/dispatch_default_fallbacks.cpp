// The backend fallbacks a fresh runtime starts with, modelled on the newest PyTorch set. The
// autograd fallbacks are fallthrough here (as in PyTorch 1.13), so that tables read as
// PythonDispatcher shows them.
#include <fmt/format.h>

#include "schemac/dispatch/dispatcher.h"

namespace schemac::dispatch {
namespace {

constexpr const char* kThisFile = "lib/dispatch/src/dispatch_default_fallbacks.cpp";

// A boxed fallback that stands for a layer this runtime does not implement (Python, functorch,
// named tensors, ...): it reports that the layer is not available.
void unavailable_layer_fallback(const OperatorHandle&, DispatchKeySet ks, Stack*) {
  throw DispatchError(fmt::format("the '{}' layer has no implementation in this runtime",
                                  to_string(ks.highest_priority_key())));
}

void add(Dispatcher& d, DispatchKey key, KernelFunction kernel, int line) {
  d.fallback(key, std::move(kernel), "", fmt::format("{}:{}", kThisFile, line)).release();
}

}  // namespace

void register_default_fallbacks(Dispatcher& d) {
  const auto fallthrough = KernelFunction::make_fallthrough();
  const auto layer = KernelFunction::make_from_boxed(&unavailable_layer_fallback);
  add(d, DispatchKey::BackendSelect, fallthrough, __LINE__);
  add(d, DispatchKey::Python, layer, __LINE__);
  add(d, DispatchKey::FuncTorchDynamicLayerBackMode, layer, __LINE__);
  add(d, DispatchKey::Functionalize, layer, __LINE__);
  add(d, DispatchKey::Named, layer, __LINE__);
  add(d, DispatchKey::Conjugate, layer, __LINE__);
  add(d, DispatchKey::Negative, layer, __LINE__);
  add(d, DispatchKey::ZeroTensor, layer, __LINE__);
  add(d, DispatchKey::ADInplaceOrView, fallthrough, __LINE__);
  add(d, DispatchKey::AutogradOther, fallthrough, __LINE__);
  for (uint8_t b = 1; b <= kNumBackends; ++b)
    add(d, to_runtime_per_backend_key(DispatchKey::AutogradFunctionality, static_cast<BackendComponent>(b)),
        fallthrough, __LINE__);
  add(d, DispatchKey::AutogradNestedTensor, fallthrough, __LINE__);
  add(d, DispatchKey::Tracer, layer, __LINE__);
  for (DispatchKey autocast : autocast_keyset()) add(d, autocast, fallthrough, __LINE__);
  add(d, DispatchKey::FuncTorchBatched, layer, __LINE__);
  add(d, DispatchKey::BatchedNestedTensor, layer, __LINE__);
  add(d, DispatchKey::FuncTorchVmapMode, fallthrough, __LINE__);
  add(d, DispatchKey::Batched, layer, __LINE__);
  add(d, DispatchKey::VmapMode, fallthrough, __LINE__);
  add(d, DispatchKey::FuncTorchGradWrapper, layer, __LINE__);
  add(d, DispatchKey::PythonTLSSnapshot, layer, __LINE__);
  add(d, DispatchKey::FuncTorchDynamicLayerFrontMode, layer, __LINE__);
  add(d, DispatchKey::PreDispatch, fallthrough, __LINE__);
  add(d, DispatchKey::PythonDispatcher, layer, __LINE__);
}

}  // namespace schemac::dispatch
