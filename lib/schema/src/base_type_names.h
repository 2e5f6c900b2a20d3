// The spelling of every leaf type the model names (all of BaseType but Named), in one table: the
// parser looks type names up in it and the checks suggest from it. Private to lib/schema.
#pragma once

#include <cstring>
#include <string_view>

#include "schemac/schema/model.h"

namespace schemac::schema {

struct BaseTypeName {
  std::string_view name;
  BaseType type;
};

inline constexpr BaseTypeName kBaseTypeNames[] = {
    {"Tensor", BaseType::Tensor},
    {"int", BaseType::Int},
    {"float", BaseType::Float},
    {"bool", BaseType::Bool},
    {"str", BaseType::Str},
    {"Scalar", BaseType::Scalar},
    {"ScalarType", BaseType::ScalarType},
    {"Layout", BaseType::Layout},
    {"Device", BaseType::Device},
    {"DeviceIndex", BaseType::DeviceIndex},
    {"MemoryFormat", BaseType::MemoryFormat},
    {"Generator", BaseType::Generator},
    {"Storage", BaseType::Storage},
    {"Stream", BaseType::Stream},
    {"Dimname", BaseType::Dimname},
    {"complex", BaseType::Complex},
    {"SymInt", BaseType::SymInt},
    {"SymFloat", BaseType::SymFloat},
    {"SymBool", BaseType::SymBool},
    {"QScheme", BaseType::QScheme},
    {"Any", BaseType::Any},
    {"ConstQuantizerPtr", BaseType::ConstQuantizerPtr},
    {"Capsule", BaseType::Capsule},
    {"None", BaseType::NoneType},
    {"NoneType", BaseType::NoneType},
    {"Quantizer", BaseType::Quantizer},
    {"AnyClassType", BaseType::AnyClassType},
    {"AnyEnumType", BaseType::AnyEnumType},
};

// The leaf type a name spells; anything else is BaseType::Named. The first character and the
// length rule out nearly every entry before any comparison of the characters.
inline BaseType base_type_of(std::string_view name) {
  if (name.size() == 6 && std::memcmp(name.data(), "Tensor", 6) == 0) return BaseType::Tensor;
  for (const BaseTypeName& entry : kBaseTypeNames) {
    if (entry.name[0] == name[0] && entry.name.size() == name.size() &&
        std::memcmp(entry.name.data(), name.data(), name.size()) == 0) {
      return entry.type;
    }
  }
  return BaseType::Named;
}

}  // namespace schemac::schema
