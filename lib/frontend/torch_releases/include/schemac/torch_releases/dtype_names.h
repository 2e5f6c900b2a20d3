// The dtype names PyTorch's schema parser reads as a ScalarType default (`ScalarType
// dtype=bfloat16`): the newest release's c10::getStringToDtypeMap. Releases read them from 2.5
// (torch_release.h, SchemaForm::dtype_name_default); the names grew with the dtypes.
#pragma once

#include <span>
#include <string_view>

namespace schemac::torch_releases {

std::span<const std::string_view> dtype_names();

}  // namespace schemac::torch_releases
