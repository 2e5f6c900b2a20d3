// The name adoption writes for a C++ kernel (registrations_yaml.h): the function an m.impl names,
// looked up among the functions the inputs declare at namespace scope as C++ looks a name up from
// where the call is (the call's namespace, then each enclosing one), and written with its
// namespace, so that generated code in another file names the same function. A function only its
// own file can call (an anonymous namespace, `static`), or one in the global namespace (gen
// declares a kernel written without a namespace in `<ns>::native`), is refused with the reason.
#pragma once

#include <span>
#include <string>

#include "schemac/sources/registration_lint.h"

namespace schemac::adopt {

struct KernelName {
  std::string name;     // what the YAML's dispatch line says ("" when refused)
  std::string refusal;  // why it cannot be written ("" when it can)
};

// `impl` is an implementation found in `file`; a kernel none of `files` declares is written as
// the code writes it.
KernelName kernel_name(const sources::NamedOperator& impl, const std::string& file,
                       std::span<const sources::ScannedFile> files);

}  // namespace schemac::adopt
