// Calls: operator handles, key extraction from the stack, signature checks of typed handles, and
// the error for a missing kernel.
#include <fmt/format.h>

#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/operator_handle.h"

namespace schemac::dispatch {

using core::to_string, keys::DispatchKey, keys::DispatchKeySet, keys::to_string;

uint64_t dispatch_argument_bits(const OperatorSignature& schema) {
  const size_t n = schema.arguments.size();
  uint64_t bits = 0;
  for (size_t i = 0; i < n && i < 64; ++i) {
    if (schema.arguments[i].dispatches) bits |= uint64_t{1} << (n - 1 - i);
  }
  return bits;
}

OperatorHandle::OperatorHandle(OperatorEntry* entry) : entry_(entry) {
  if (const OperatorSignature* s = entry_ != nullptr ? entry_->schema() : nullptr) {
    dispatch_args_ = dispatch_argument_bits(*s);
    dispatch_args_known_ = true;
  }
}

std::optional<OperatorHandle> OperatorHandle::find(std::string_view full_name) {
  return find(Dispatcher::singleton(), full_name);
}

std::optional<OperatorHandle> OperatorHandle::find(Dispatcher& dispatcher,
                                                   std::string_view full_name) {
  OperatorEntry* entry = dispatcher.find(full_name);
  if (entry == nullptr) return std::nullopt;
  return OperatorHandle(entry);
}

const std::string& OperatorHandle::name() const { return entry_->name(); }
const std::string& OperatorHandle::overload() const { return entry_->overload(); }
std::string OperatorHandle::full_name() const { return entry_->full_name(); }
bool OperatorHandle::has_schema() const { return entry_->has_schema(); }

const OperatorSignature& OperatorHandle::schema() const {
  const OperatorSignature* s = entry_->schema();  // read once: another thread may undefine it
  if (s == nullptr)
    throw DispatchError(
        fmt::format("operator '{}' has no schema: it has kernels but was never "
                    "defined with def()",
                    full_name()));
  return *s;
}

void OperatorHandle::call_boxed_general(Stack* stack) const {
  DispatchKeySet ks = apply_tls(argument_key_set(*stack));
  const KernelFunction& kernel = entry_->mask_and_lookup(ks);
  if (CallTracer* tracer = detail::active_call_tracer()) [[unlikely]] {
    detail::TracedCall traced(tracer, *this, ks);
    return kernel.call_boxed(*this, ks, stack);
  }
  kernel.call_boxed(*this, ks, stack);
}

DispatchKeySet OperatorHandle::argument_key_set_without_schema(const Stack& stack) const {
  const OperatorSignature* s = entry_->schema();  // read once: another thread may undefine it
  uint64_t bits = s ? dispatch_argument_bits(*s) : 0;
  DispatchKeySet ks;
  const size_t size = stack.size();
  while (bits != 0) {
    const unsigned depth = static_cast<unsigned>(__builtin_ctzll(bits));
    bits &= bits - 1;
    if (depth >= size) break;  // a short stack: the kernel reports it
    ks |= stack[size - 1 - depth].dispatch_key_set();
  }
  return ks;
}

void OperatorHandle::check_signature(size_t num_args, size_t num_returns,
                                     std::string_view signature) const {
  if (entry_ == nullptr) throw DispatchError("typed() was called on an empty operator handle");
  const OperatorSignature* schema = entry_->schema();
  if (schema == nullptr) return;
  const OperatorSignature& s = *schema;
  if (!s.is_vararg && s.arguments.size() != num_args)
    throw DispatchError(
        fmt::format("typed(): the C++ signature {} has {} arguments but the schema of '{}' has {}",
                    signature, num_args, full_name(), s.arguments.size()));
  if (!s.is_varret && s.returns.size() != num_returns)
    throw DispatchError(
        fmt::format("typed(): the C++ signature {} has {} returns but the schema of '{}' has {}",
                    signature, num_returns, full_name(), s.returns.size()));
}

namespace detail {

void throw_missing_kernel(const OperatorHandle& op, DispatchKeySet ks) {
  const DispatchKey key = ks.highest_priority_key();
  if (key == DispatchKey::Undefined) {
    throw DispatchError(fmt::format(
        "There were no tensor arguments to this function (e.g., you passed an empty list of "
        "Tensors), but no fallback function is registered for schema {}. This usually means that "
        "this function requires a non-empty list of Tensors, or that you (the operator writer) "
        "forgot to register a fallback function.",
        op.full_name()));
  }
  std::string keys;
  for (DispatchKey k : op.entry().keys_with_kernels_now()) {
    if (!keys.empty()) keys += ", ";
    keys += to_string(k);
  }
  throw DispatchError(fmt::format(
      "Could not run '{}' with arguments from the '{}' backend. '{}' is only available for these "
      "backends: [{}].",
      op.full_name(), to_string(key), op.full_name(), keys));
}

}  // namespace detail

}  // namespace schemac::dispatch
