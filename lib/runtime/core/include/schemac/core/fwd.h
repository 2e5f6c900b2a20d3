// Forward declarations of lib/runtime/core's types, for headers of other libraries that name them
// without needing their definitions (a library's types are declared only in its own headers).
#pragma once

namespace schemac::core {

class IValue;
class Tensor;

}  // namespace schemac::core
