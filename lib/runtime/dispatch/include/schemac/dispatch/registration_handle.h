// RegistrationHandle: a move-only RAII token for one registration (def, impl or fallback).
// Destroying it (or calling reset()) undoes that registration; the kernel registered before it
// on the same key becomes active again (stack semantics).
#pragma once

#include <functional>
#include <utility>

namespace schemac::dispatch {

class RegistrationHandle {
 public:
  RegistrationHandle() = default;
  explicit RegistrationHandle(std::function<void()> undo) : undo_(std::move(undo)) {}
  RegistrationHandle(const RegistrationHandle&) = delete;
  RegistrationHandle& operator=(const RegistrationHandle&) = delete;
  RegistrationHandle(RegistrationHandle&& other) noexcept : undo_(std::exchange(other.undo_, {})) {}
  RegistrationHandle& operator=(RegistrationHandle&& other) noexcept {
    if (this != &other) {
      reset();
      undo_ = std::exchange(other.undo_, {});
    }
    return *this;
  }
  ~RegistrationHandle() { reset(); }

  // Undoes the registration now (once).
  void reset() {
    if (auto undo = std::exchange(undo_, {})) undo();
  }
  // Keeps the registration for the life of the registry.
  void release() { undo_ = {}; }
  bool active() const { return static_cast<bool>(undo_); }

 private:
  std::function<void()> undo_;
};

}  // namespace schemac::dispatch
