// The backend fallbacks a fresh runtime starts with, modelled on the newest PyTorch set. The
// autograd fallbacks are fallthrough here (as in PyTorch 1.13), so that tables read as
// PythonDispatcher shows them.
#include <fmt/format.h>

#include "schemac/dispatch/dispatcher.h"

namespace schemac::dispatch {
namespace {

constexpr const char* kThisFile = "lib/runtime/dispatch/src/dispatch_default_fallbacks.cpp";

// A boxed fallback that stands for a layer this runtime does not implement (Python, functorch,
// named tensors, ...): it reports that the layer is not available.
void unavailable_layer_fallback(const OperatorHandle&, keys::DispatchKeySet ks, Stack*) {
  throw DispatchError(fmt::format("the '{}' layer has no implementation in this runtime",
                                  to_string(ks.highest_priority_key())));
}

void add(Dispatcher& d, keys::DispatchKey key, KernelFunction kernel, int line) {
  d.fallback(key, std::move(kernel), "", fmt::format("{}:{}", kThisFile, line)).release();
}

}  // namespace

void register_default_fallbacks(Dispatcher& d) {
  const auto fallthrough = KernelFunction::make_fallthrough();
  const auto layer = KernelFunction::make_from_boxed(&unavailable_layer_fallback);
  add(d, keys::DispatchKey::BackendSelect, fallthrough, __LINE__);
  add(d, keys::DispatchKey::Python, layer, __LINE__);
  add(d, keys::DispatchKey::FuncTorchDynamicLayerBackMode, layer, __LINE__);
  add(d, keys::DispatchKey::Functionalize, layer, __LINE__);
  add(d, keys::DispatchKey::Named, layer, __LINE__);
  add(d, keys::DispatchKey::Conjugate, layer, __LINE__);
  add(d, keys::DispatchKey::Negative, layer, __LINE__);
  add(d, keys::DispatchKey::ZeroTensor, layer, __LINE__);
  add(d, keys::DispatchKey::ADInplaceOrView, fallthrough, __LINE__);
  add(d, keys::DispatchKey::AutogradOther, fallthrough, __LINE__);
  for (uint8_t b = 1; b <= keys::kNumBackends; ++b)
    add(d,
        keys::to_runtime_per_backend_key(keys::DispatchKey::AutogradFunctionality,
                                         static_cast<keys::BackendComponent>(b)),
        fallthrough, __LINE__);
  add(d, keys::DispatchKey::AutogradNestedTensor, fallthrough, __LINE__);
  add(d, keys::DispatchKey::Tracer, layer, __LINE__);
  for (keys::DispatchKey autocast : keys::autocast_keyset())
    add(d, autocast, fallthrough, __LINE__);
  add(d, keys::DispatchKey::FuncTorchBatched, layer, __LINE__);
  add(d, keys::DispatchKey::BatchedNestedTensor, layer, __LINE__);
  add(d, keys::DispatchKey::FuncTorchVmapMode, fallthrough, __LINE__);
  add(d, keys::DispatchKey::Batched, layer, __LINE__);
  add(d, keys::DispatchKey::VmapMode, fallthrough, __LINE__);
  add(d, keys::DispatchKey::FuncTorchGradWrapper, layer, __LINE__);
  add(d, keys::DispatchKey::PythonTLSSnapshot, layer, __LINE__);
  add(d, keys::DispatchKey::FuncTorchDynamicLayerFrontMode, layer, __LINE__);
  add(d, keys::DispatchKey::PreDispatch, fallthrough, __LINE__);
  add(d, keys::DispatchKey::PythonDispatcher, layer, __LINE__);
}

}  // namespace schemac::dispatch
