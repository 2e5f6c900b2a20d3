// The exception type of the dispatcher: registration conflicts, missing kernels, bad calls.
#pragma once

#include <stdexcept>
#include <string>

namespace schemac::dispatch {

class DispatchError : public std::runtime_error {
 public:
  explicit DispatchError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace schemac::dispatch
