#include "schemac/core/scalar_type.h"

#include <fmt/format.h>

namespace schemac::core {

std::size_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return 4;
    case ScalarType::Double: return 8;
    case ScalarType::Half: return 2;
    case ScalarType::BFloat16: return 2;
    case ScalarType::Int: return 4;
    case ScalarType::Long: return 8;
    case ScalarType::Bool: return 1;
  }
  return 1;
}

std::string_view to_string(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "float32";
    case ScalarType::Double: return "float64";
    case ScalarType::Half: return "float16";
    case ScalarType::BFloat16: return "bfloat16";
    case ScalarType::Int: return "int32";
    case ScalarType::Long: return "int64";
    case ScalarType::Bool: return "bool";
  }
  return "unknown";
}

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

namespace {
// Rank in the promotion lattice; Half and BFloat16 share a rank and meet at Float.
int promotion_rank(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return 0;
    case ScalarType::Int: return 1;
    case ScalarType::Long: return 2;
    case ScalarType::Half: return 3;
    case ScalarType::BFloat16: return 3;
    case ScalarType::Float: return 4;
    case ScalarType::Double: return 5;
  }
  return 0;
}
}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) return a;
  const int ra = promotion_rank(a);
  const int rb = promotion_rank(b);
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
