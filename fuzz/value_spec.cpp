// Fuzzes the `--arg` value specs of `dispatch-inspect trace` (cpu:float32[2,3], 3, [0,1], None,
// float16, ...): any text gives a value or an error naming the spec, never a crash, a hang, a
// leak or a huge allocation; a value can always be described.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "schemac/value_specs/value_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view spec(reinterpret_cast<const char*>(data), size);
  schemac::value_specs::ValueSpecResult result = schemac::value_specs::parse_value_spec(spec);
  if (result.ok()) {
    if (schemac::value_specs::describe_value(*result.value).empty()) __builtin_trap();
  } else if (result.error.empty()) {
    __builtin_trap();
  }
  return 0;
}
