// Element conversion between the storage types, usable on the host and in CUDA kernels:
// Half and BFloat16 go through float, anything to bool is "not zero".
#pragma once

#include <type_traits>

#include "schemac/core/scalar_type.h"

namespace schemac::kernels {

template <typename T>
struct is_reduced_float : std::false_type {};
template <>
struct is_reduced_float<core::Half> : std::true_type {};
template <>
struct is_reduced_float<core::BFloat16> : std::true_type {};

// The type arithmetic on T is done in: float for Half and BFloat16, T otherwise.
template <typename T>
using compute_t = std::conditional_t<is_reduced_float<T>::value, float, T>;

template <typename D, typename S>
SCHEMAC_HOST_DEVICE inline D convert(S s) {
  if constexpr (std::is_same_v<D, S>) {
    return s;
  } else if constexpr (is_reduced_float<S>::value) {
    return convert<D, float>(static_cast<float>(s));
  } else if constexpr (std::is_same_v<D, bool>) {
    return s != S(0);
  } else if constexpr (is_reduced_float<D>::value) {
    return D(static_cast<float>(s));
  } else {
    return static_cast<D>(s);
  }
}

}  // namespace schemac::kernels
