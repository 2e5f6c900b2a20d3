// Element types of tensors (ScalarType), the 16-bit floating-point storage types (Half,
// BFloat16), and Scalar: a number passed to an operator (int64, double or bool).
//
// Half and BFloat16 are storage types: kernels load them as float, compute in float and store
// back, rounding to nearest even. Their conversions are usable from CUDA device code too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#if defined(__CUDACC__)
#define SCHEMAC_HOST_DEVICE __host__ __device__
#else
#define SCHEMAC_HOST_DEVICE
#endif

namespace schemac::core {

// ## ScalarType
// The order is the order of `all_scalar_types()`; names follow torch (`float32`, `int64`, ...).
enum class ScalarType : int8_t {
  Float,     // float32
  Double,    // float64
  Half,      // float16 (IEEE binary16)
  BFloat16,  // bfloat16 (upper half of a float32)
  Int,       // int32
  Long,      // int64
  Bool,      // bool, one byte holding 0 or 1
};

inline constexpr ScalarType kAllScalarTypes[] = {
    ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
    ScalarType::Int,   ScalarType::Long,   ScalarType::Bool,
};

std::size_t element_size(ScalarType t);
// "float32", "float64", "float16", "bfloat16", "int32", "int64", "bool".
std::string_view to_string(ScalarType t);
// Accepts the names above and torch's aliases ("float", "double", "half", "int", "long").
std::optional<ScalarType> parse_scalar_type(std::string_view name);

bool is_floating_point(ScalarType t);
bool is_integral(ScalarType t, bool include_bool);

// The result type of a binary operation between tensors of these types (torch.promote_types):
// bool < int32 < int64 < {float16, bfloat16} < float32 < float64; float16 with bfloat16 gives
// float32.
ScalarType promote_types(ScalarType a, ScalarType b);
// Whether a result of type `from` may be written into a tensor of type `to` (torch.can_cast):
// no float into an integer, nothing but bool into bool.
bool can_cast(ScalarType from, ScalarType to);

// ## 16-bit floating-point storage
struct Half {
  uint16_t bits = 0;
  Half() = default;
  SCHEMAC_HOST_DEVICE explicit Half(float f) : bits(from_float(f)) {}
  SCHEMAC_HOST_DEVICE operator float() const { return to_float(bits); }

  SCHEMAC_HOST_DEVICE static float to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    uint32_t out;
    if (exponent == 0x1f) {  // inf or nan
      out = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {  // normal
      out = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {  // signed zero
      out = sign;
    } else {  // subnormal: normalise
      exponent = 113;
      while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        --exponent;
      }
      out = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
    return bit_cast<float>(out);
  }

  SCHEMAC_HOST_DEVICE static uint16_t from_float(float f) {
    const uint32_t x = bit_cast<uint32_t>(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t abs = x & 0x7fffffffu;
    if (abs >= 0x7f800000u) {  // inf or nan (nan keeps a quiet bit)
      return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
    }
    if (abs >= 0x477ff000u) {  // rounds to a value above the largest half: inf
      return static_cast<uint16_t>(sign | 0x7c00u);
    }
    if (abs < 0x38800000u) {  // below the smallest normal half: subnormal or zero
      if (abs < 0x33000000u) return static_cast<uint16_t>(sign);  // below half the tiniest
      const uint32_t shift = 126 - (abs >> 23);                   // 14..24
      const uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
      uint32_t result = mantissa >> shift;
      const uint32_t rest = mantissa & ((1u << shift) - 1);
      const uint32_t halfway = 1u << (shift - 1);
      if (rest > halfway || (rest == halfway && (result & 1u))) ++result;
      return static_cast<uint16_t>(sign | result);
    }
    uint32_t result = ((abs - 0x38000000u) >> 13);  // rebias 127 -> 15
    const uint32_t rest = abs & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (result & 1u))) ++result;
    return static_cast<uint16_t>(sign | result);
  }

 private:
  // The same bits as another type of the same size, float <-> uint32_t (std::bit_cast, which
  // device code lacks).
  template <typename To, typename From>
  SCHEMAC_HOST_DEVICE static To bit_cast(From from) {
    static_assert(sizeof(To) == sizeof(From));
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<To, float>) {
      return __uint_as_float(from);
    } else {
      return __float_as_uint(from);
    }
#else
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
#endif
  }
  friend struct BFloat16;
};

struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  SCHEMAC_HOST_DEVICE explicit BFloat16(float f) : bits(from_float(f)) {}
  SCHEMAC_HOST_DEVICE operator float() const { return to_float(bits); }

  SCHEMAC_HOST_DEVICE static float to_float(uint16_t b) {
    return Half::bit_cast<float>(static_cast<uint32_t>(b) << 16);
  }
  SCHEMAC_HOST_DEVICE static uint16_t from_float(float f) {
    const uint32_t x = Half::bit_cast<uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // nan
    const uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);  // to nearest even
    return static_cast<uint16_t>((x + rounding) >> 16);
  }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2);

// The C++ type that stores one element of each ScalarType.
template <ScalarType T>
struct CppTypeOf;
template <>
struct CppTypeOf<ScalarType::Float> {
  using type = float;
};
template <>
struct CppTypeOf<ScalarType::Double> {
  using type = double;
};
template <>
struct CppTypeOf<ScalarType::Half> {
  using type = Half;
};
template <>
struct CppTypeOf<ScalarType::BFloat16> {
  using type = BFloat16;
};
template <>
struct CppTypeOf<ScalarType::Int> {
  using type = int32_t;
};
template <>
struct CppTypeOf<ScalarType::Long> {
  using type = int64_t;
};
template <>
struct CppTypeOf<ScalarType::Bool> {
  using type = bool;
};
template <ScalarType T>
using cpp_type_t = typename CppTypeOf<T>::type;

template <typename C>
constexpr ScalarType scalar_type_of();
template <>
constexpr ScalarType scalar_type_of<float>() {
  return ScalarType::Float;
}
template <>
constexpr ScalarType scalar_type_of<double>() {
  return ScalarType::Double;
}
template <>
constexpr ScalarType scalar_type_of<Half>() {
  return ScalarType::Half;
}
template <>
constexpr ScalarType scalar_type_of<BFloat16>() {
  return ScalarType::BFloat16;
}
template <>
constexpr ScalarType scalar_type_of<int32_t>() {
  return ScalarType::Int;
}
template <>
constexpr ScalarType scalar_type_of<int64_t>() {
  return ScalarType::Long;
}
template <>
constexpr ScalarType scalar_type_of<bool>() {
  return ScalarType::Bool;
}

// Calls `fn.template operator()<C>()` with C the C++ element type of `t`:
//   visit_scalar_type(t, [&]<typename C>() { ... });
template <typename Fn>
decltype(auto) visit_scalar_type(ScalarType t, Fn&& fn) {
  switch (t) {
    case ScalarType::Float: return fn.template operator()<float>();
    case ScalarType::Double: return fn.template operator()<double>();
    case ScalarType::Half: return fn.template operator()<Half>();
    case ScalarType::BFloat16: return fn.template operator()<BFloat16>();
    case ScalarType::Int: return fn.template operator()<int32_t>();
    case ScalarType::Long: return fn.template operator()<int64_t>();
    case ScalarType::Bool: break;
  }
  return fn.template operator()<bool>();
}

// ## Scalar
// A number given to an operator (the schema type `Scalar`): an integer, a double or a bool.
class Scalar {
 public:
  enum class Kind : uint8_t { Integer, Floating, Boolean };

  Scalar() : Scalar(int64_t{0}) {}
  Scalar(int64_t v) : kind_(Kind::Integer), i_(v) {}       // NOLINT: implicit
  Scalar(int v) : Scalar(static_cast<int64_t>(v)) {}       // NOLINT: implicit
  Scalar(double v) : kind_(Kind::Floating), d_(v) {}       // NOLINT: implicit
  Scalar(float v) : Scalar(static_cast<double>(v)) {}      // NOLINT: implicit
  Scalar(bool v) : kind_(Kind::Boolean), i_(v ? 1 : 0) {}  // NOLINT: implicit

  Kind kind() const { return kind_; }
  bool is_integral() const { return kind_ == Kind::Integer; }
  bool is_floating_point() const { return kind_ == Kind::Floating; }
  bool is_boolean() const { return kind_ == Kind::Boolean; }

  int64_t to_int64() const { return kind_ == Kind::Floating ? static_cast<int64_t>(d_) : i_; }
  double to_double() const { return kind_ == Kind::Floating ? d_ : static_cast<double>(i_); }
  bool to_bool() const { return kind_ == Kind::Floating ? d_ != 0.0 : i_ != 0; }

  // The value converted to the element type C (via float for Half and BFloat16).
  template <typename C>
  C to() const {
    if constexpr (std::is_same_v<C, bool>) {
      return to_bool();
    } else if constexpr (std::is_integral_v<C>) {
      return static_cast<C>(to_int64());
    } else if constexpr (std::is_same_v<C, Half> || std::is_same_v<C, BFloat16>) {
      return C(static_cast<float>(to_double()));
    } else {
      return static_cast<C>(to_double());
    }
  }

  // The dtype torch gives a tensor made from this number: int64, float32 or bool... except that
  // for promotion a Scalar is a "wrapped number" (see kernels); this is its own type.
  ScalarType type() const {
    return kind_ == Kind::Integer    ? ScalarType::Long
           : kind_ == Kind::Floating ? ScalarType::Double
                                     : ScalarType::Bool;
  }

  // "2", "2.5", "True": the way a schema default would print it.
  std::string to_string() const;

  friend bool operator==(const Scalar& a, const Scalar& b) {
    if (a.kind_ != b.kind_) return false;
    return a.kind_ == Kind::Floating ? a.d_ == b.d_ : a.i_ == b.i_;
  }

 private:
  Kind kind_;
  union {
    int64_t i_;
    double d_;
  };
};

}  // namespace schemac::core
