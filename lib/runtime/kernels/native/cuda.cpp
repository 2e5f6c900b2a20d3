// The CUDA entry points that the registration generated from examples/ops.yaml binds (declared
// in the generated NativeFunctions.h), each calling the CUDA kernel of lib/runtime/kernels (which
// throws when the library was built without CUDA; the CUDA registrations are compiled only with
// it).
#include "NativeFunctions.h"
#include "device_entry_points.h"

namespace aten::native {

SCHEMAC_DEVICE_ENTRY_POINTS(cuda)

}  // namespace aten::native
