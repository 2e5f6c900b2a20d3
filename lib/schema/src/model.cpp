// The few computed members of the schema model (model.h).
#include "schemac/schema/model.h"

namespace schemac::schema {

bool Type::is_tensor_like() const {
  switch (kind) {
    case Kind::Base:
      return base == BaseType::Tensor;
    case Kind::Optional:
      return element().is_tensor_like();
    case Kind::List:
      // Tensor[] and Tensor?[], but not Tensor[]? nor nested lists.
      return element().is_base(BaseType::Tensor) ||
             (element().is_optional() && element().element().is_base(BaseType::Tensor));
  }
  return false;
}

const AliasInfo* Type::any_alias() const {
  if (alias) return &*alias;
  if (kind != Kind::Base && !elem.empty()) return elem.front().any_alias();
  return nullptr;
}

std::string OperatorName::base_name() const {
  auto colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

std::string OperatorName::ns() const {
  auto colons = name.rfind("::");
  return colons == std::string::npos ? std::string() : name.substr(0, colons);
}

}  // namespace schemac::schema
