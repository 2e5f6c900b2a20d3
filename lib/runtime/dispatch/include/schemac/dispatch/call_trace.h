// CallTracer: an observer of every kernel the dispatcher runs, for `dispatch-inspect trace`.
//
// Off by default. When no tracer is installed, a call pays one relaxed load of a global pointer
// and a branch predicted not taken (bench/dispatch measures the call path with it). When one is
// installed, each call and redispatch of an OperatorHandle tells it, before the kernel runs, the
// key set the call dispatched on (after thread-local state and the fallthrough mask) and the
// table entry it chose, and tells it again when the kernel returns or throws, so nested calls
// can be shown as a tree.
//
// A tracer sees the calls of every thread; install one only while nothing else calls operators,
// or make it thread-safe.
#pragma once

#include <atomic>

#include "schemac/keys/dispatch_key_set.h"

namespace schemac::dispatch {

class OperatorHandle;
struct TableEntry;

class CallTracer {
 public:
  virtual ~CallTracer() = default;
  // Before the kernel of `entry` runs for `op`, dispatched with key set `ks`.
  virtual void on_enter(const OperatorHandle& op, keys::DispatchKeySet ks,
                        const TableEntry& entry) = 0;
  // After that kernel returned or threw.
  virtual void on_leave() = 0;
};

// Installs `tracer` (nullptr: tracing off) and returns the previous one.
CallTracer* set_call_tracer(CallTracer* tracer);

namespace detail {
extern std::atomic<CallTracer*> g_call_tracer;
inline CallTracer* active_call_tracer() { return g_call_tracer.load(std::memory_order_relaxed); }

// Brackets one traced kernel call.
class TracedCall {
 public:
  TracedCall(CallTracer* tracer, const OperatorHandle& op, keys::DispatchKeySet ks);
  TracedCall(const TracedCall&) = delete;
  TracedCall& operator=(const TracedCall&) = delete;
  ~TracedCall() { tracer_->on_leave(); }

 private:
  CallTracer* tracer_;
};
}  // namespace detail

}  // namespace schemac::dispatch
