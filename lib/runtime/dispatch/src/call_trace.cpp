// The call tracer hook (call_trace.h).
#include "schemac/dispatch/call_trace.h"

#include "schemac/dispatch/operator_handle.h"

namespace schemac::dispatch {

namespace detail {
std::atomic<CallTracer*> g_call_tracer{nullptr};

TracedCall::TracedCall(CallTracer* tracer, const OperatorHandle& op, keys::DispatchKeySet ks)
    : tracer_(tracer) {
  tracer_->on_enter(op, ks, op.entry().entry_for(ks));
}
}  // namespace detail

CallTracer* set_call_tracer(CallTracer* tracer) {
  return detail::g_call_tracer.exchange(tracer, std::memory_order_acq_rel);
}

}  // namespace schemac::dispatch
