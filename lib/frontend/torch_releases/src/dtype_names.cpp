// The dtype names of the newest release's parser (dtype_names.h), in a file of their own: the
// schema parser links only this (and so does the runtime, which links the parser).
#include "schemac/torch_releases/dtype_names.h"

#include <array>

namespace schemac::torch_releases {

namespace {

// clang-format off
constexpr auto kDtypeNames = std::to_array<std::string_view>({
    "uint8", "int8", "int16", "short", "int32", "int", "int64", "long", "float16", "half",
    "float32", "float", "float64", "double", "complex32", "chalf", "complex64", "cfloat",
    "complex128", "cdouble", "bool", "qint8", "quint8", "qint32", "bfloat16", "quint4x2",
    "quint2x4", "bits1x8", "bits2x4", "bits4x2", "bits8", "bits16", "float8_e5m2",
    "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz", "uint16", "uint32", "uint64",
    "uint1", "uint2", "uint3", "uint4", "uint5", "uint6", "uint7", "int1", "int2", "int3",
    "int4", "int5", "int6", "int7", "float8_e8m0fnu", "float4_e2m1fn_x2"});
// clang-format on

}  // namespace

std::span<const std::string_view> dtype_names() { return kDtypeNames; }

}  // namespace schemac::torch_releases
