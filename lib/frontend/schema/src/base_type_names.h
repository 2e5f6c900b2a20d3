// The spelling of every leaf type the model names (all of BaseType but Named), in one table: the
// parser looks type names up in it and the checks suggest from it. Private to lib/frontend/schema.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "schemac/schema/model.h"

namespace schemac::schema {

struct BaseTypeName {
  std::string_view name;
  BaseType type;
};

// clang-format off
inline constexpr BaseTypeName kBaseTypeNames[] = {
    {"Tensor", BaseType::Tensor}, {"int", BaseType::Int}, {"float", BaseType::Float},
    {"bool", BaseType::Bool}, {"str", BaseType::Str}, {"Scalar", BaseType::Scalar},
    {"ScalarType", BaseType::ScalarType}, {"Layout", BaseType::Layout},
    {"Device", BaseType::Device}, {"DeviceIndex", BaseType::DeviceIndex},
    {"MemoryFormat", BaseType::MemoryFormat}, {"Generator", BaseType::Generator},
    {"Storage", BaseType::Storage}, {"Stream", BaseType::Stream}, {"Dimname", BaseType::Dimname},
    {"complex", BaseType::Complex}, {"SymInt", BaseType::SymInt}, {"SymFloat", BaseType::SymFloat},
    {"SymBool", BaseType::SymBool}, {"QScheme", BaseType::QScheme}, {"Any", BaseType::Any},
    {"ConstQuantizerPtr", BaseType::ConstQuantizerPtr}, {"Capsule", BaseType::Capsule},
    {"None", BaseType::NoneType}, {"NoneType", BaseType::NoneType},
    {"Quantizer", BaseType::Quantizer}, {"AnyClassType", BaseType::AnyClassType},
    {"AnyEnumType", BaseType::AnyEnumType},
};
// clang-format on

// A hash table of the names above and the container keywords of the type grammar, with no two
// names in one slot (checked when it is built): one comparison tells a name's type. The hash of a
// name is its length and its first and last characters.
struct TypeNameSlot {
  char name[24] = {};      // NUL-padded, so that 16 bytes can be loaded from it
  uint8_t size = 0;        // 0: an empty slot
  bool container = false;  // Future, RRef, Await, Dict, Union: the head of a container type
  BaseType type = BaseType::Named;
};
constexpr size_t type_name_slot(char first, char last, size_t size) {
  return (size + static_cast<unsigned char>(first) * 3u + static_cast<unsigned char>(last) * 59u) &
         127u;
}
inline constexpr auto kTypeNameSlots = [] {
  std::array<TypeNameSlot, 128> slots{};
  auto add = [&](std::string_view name, BaseType type, bool container) {
    TypeNameSlot& slot = slots[type_name_slot(name.front(), name.back(), name.size())];
    if (slot.size != 0) throw "two type names share a slot: change type_name_slot";
    for (size_t i = 0; i < name.size(); ++i) slot.name[i] = name[i];
    slot.size = static_cast<uint8_t>(name.size());
    slot.container = container;
    slot.type = type;
  };
  for (const BaseTypeName& entry : kBaseTypeNames) add(entry.name, entry.type, false);
  for (std::string_view keyword : {"Future", "RRef", "Await", "Dict", "Union"}) {
    add(keyword, BaseType::Named, true);
  }
  return slots;
}();

// The slot of `name` when it is one of the table's names, else null.
inline const TypeNameSlot* find_type_name(std::string_view name) {
  const TypeNameSlot& slot = kTypeNameSlots[type_name_slot(name.front(), name.back(), name.size())];
  if (slot.size != name.size() || std::memcmp(slot.name, name.data(), name.size()) != 0) {
    return nullptr;
  }
  return &slot;
}

// The leaf type a name spells; anything else is BaseType::Named.
inline BaseType base_type_of(std::string_view name) {
  const TypeNameSlot* slot = find_type_name(name);
  return slot && !slot->container ? slot->type : BaseType::Named;
}

}  // namespace schemac::schema
