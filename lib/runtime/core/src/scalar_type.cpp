#include "schemac/core/scalar_type.h"

#include <iterator>

#include <fmt/format.h>

namespace schemac::core {

namespace {
// What each scalar type is, in the order of the enum: its name, its size in bytes, and its rank
// in the promotion lattice (Half and BFloat16 share a rank and meet at Float).
struct ScalarTypeFacts {
  std::string_view name;
  std::size_t size;
  int rank;
};
constexpr ScalarTypeFacts kFacts[] = {
    {"float32", 4, 4},   // Float
    {"float64", 8, 5},   // Double
    {"float16", 2, 3},   // Half
    {"bfloat16", 2, 3},  // BFloat16
    {"int32", 4, 1},     // Int
    {"int64", 8, 2},     // Long
    {"bool", 1, 0},      // Bool
};
static_assert(std::size(kFacts) == static_cast<std::size_t>(ScalarType::Bool) + 1);

const ScalarTypeFacts& facts(ScalarType t) {
  static constexpr ScalarTypeFacts kUnknown{"unknown", 1, 0};
  const auto i = static_cast<std::size_t>(t);
  return i < std::size(kFacts) ? kFacts[i] : kUnknown;
}
}  // namespace

std::size_t element_size(ScalarType t) { return facts(t).size; }

std::string_view to_string(ScalarType t) { return facts(t).name; }

std::optional<ScalarType> parse_scalar_type(std::string_view name) {
  struct Alias {
    std::string_view name;
    ScalarType type;
  };
  static constexpr Alias kAliases[] = {
      {"float32", ScalarType::Float},     {"float", ScalarType::Float},
      {"float64", ScalarType::Double},    {"double", ScalarType::Double},
      {"float16", ScalarType::Half},      {"half", ScalarType::Half},
      {"bfloat16", ScalarType::BFloat16}, {"int32", ScalarType::Int},
      {"int", ScalarType::Int},           {"int64", ScalarType::Long},
      {"long", ScalarType::Long},         {"bool", ScalarType::Bool},
  };
  for (const Alias& a : kAliases)
    if (a.name == name) return a.type;
  return std::nullopt;
}

bool is_floating_point(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half ||
         t == ScalarType::BFloat16;
}

bool is_integral(ScalarType t, bool include_bool) {
  return t == ScalarType::Int || t == ScalarType::Long || (include_bool && t == ScalarType::Bool);
}

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) return a;
  const int ra = facts(a).rank;
  const int rb = facts(b).rank;
  if (ra == rb) return ScalarType::Float;  // Half with BFloat16
  return ra > rb ? a : b;
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_point(from) && is_integral(to, /*include_bool=*/true)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

std::string Scalar::to_string() const {
  switch (kind_) {
    case Kind::Integer: return fmt::format("{}", i_);
    case Kind::Boolean: return i_ != 0 ? "True" : "False";
    case Kind::Floating: break;
  }
  std::string text = fmt::format("{}", d_);
  if (text.find_first_of(".eE") == std::string::npos &&
      text.find_first_of("ni") == std::string::npos)
    text += ".";
  return text;
}

}  // namespace schemac::core
