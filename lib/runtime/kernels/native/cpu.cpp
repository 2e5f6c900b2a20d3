// The CPU entry points that the registration generated from examples/ops.yaml binds (declared
// in the generated NativeFunctions.h), each calling the CPU kernel of lib/runtime/kernels.
#include "NativeFunctions.h"
#include "device_entry_points.h"

namespace aten::native {

SCHEMAC_DEVICE_ENTRY_POINTS(cpu)

}  // namespace aten::native
