// The exception type of the dispatcher: registration conflicts, missing kernels, bad calls.
#pragma once

#include <stdexcept>
#include <string>
#include "schemac/dispatch/names_for_generated_code.h"

namespace schemac::dispatch {

class DispatchError : public std::runtime_error {
 public:
  explicit DispatchError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace schemac::dispatch
