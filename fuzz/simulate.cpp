// Fuzzes `dispatch-inspect simulate --script` in-process: any script runs on a fresh registry and
// gives tables or located step errors, never a crash, a hang or a leak. The first byte picks the
// output format.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "simulate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using schemac::inspect::TableFormat;
  if (size == 0) return 0;
  const TableFormat formats[] = {TableFormat::Text, TableFormat::Torch, TableFormat::Json};
  const TableFormat format = formats[data[0] % 3];
  std::string_view script(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::ostringstream out;
  std::ostringstream err;
  const int code = schemac::inspect::simulate_script(script, "fuzz.txt", format, out, err);
  if (code != 0 && code != 1) __builtin_trap();
  if (code == 1 && err.str().empty()) __builtin_trap();  // a failed step says why
  return 0;
}
