// The few computed members of the schema model (model.h), and set_operator_name.
#include "schemac/schema/model.h"

#include <algorithm>

#include "schema_storage.h"

namespace schemac::schema {

bool operator==(const AliasInfo& a, const AliasInfo& b) {
  return std::ranges::equal(a.before, b.before) && std::ranges::equal(a.after, b.after) &&
         a.is_write == b.is_write && a.has_arrow == b.has_arrow && a.is_fresh == b.is_fresh;
}

bool Type::is_tensor_like() const {
  switch (kind) {
    case Kind::Base: return base == BaseType::Tensor;
    case Kind::Optional: return element().is_tensor_like();
    case Kind::List:
      // Tensor[] and Tensor?[], but not Tensor[]? nor nested lists.
      return element().is_base(BaseType::Tensor) ||
             (element().is_optional() && element().element().is_base(BaseType::Tensor));
    default: return false;
  }
}

const AliasInfo* Type::any_alias() const {
  for (const Type* node = this;; node = node->elem) {
    if (node->alias) return node->alias;
    if (!node->is_wrapper()) return nullptr;
  }
}

// PyTorch reads an element's annotation first and wraps it for each `[]` after it
// (SchemaTypeParser::parseFakeAndRealType); `?` changes nothing and containers other than lists
// keep their contained annotations to themselves.
std::optional<ArgumentAlias> argument_alias(const Type& type) {
  switch (type.kind) {
    case Type::Kind::Optional: return argument_alias(type.element());
    case Type::Kind::List: {
      std::optional<ArgumentAlias> inner = argument_alias(type.element());
      const AliasInfo* inner_info = type.element().any_alias();
      if (type.alias) {
        return ArgumentAlias{type.alias->before, type.alias->after, type.alias->is_write,
                             inner ? inner_info : nullptr};
      }
      if (!inner) return std::nullopt;
      return ArgumentAlias{{}, {}, inner->is_write, inner_info};
    }
    case Type::Kind::Base:
    case Type::Kind::Dict:
    case Type::Kind::Union:
      if (!type.alias) return std::nullopt;
      return ArgumentAlias{type.alias->before, type.alias->after, type.alias->is_write, nullptr};
    default: return std::nullopt;
  }
}

std::string operator_full_name(std::string_view name, std::string_view overload) {
  std::string out(name);
  if (!overload.empty()) {
    out.push_back('.');
    out.append(overload);
  }
  return out;
}

void set_operator_name(FunctionSchema& schema, std::string_view name) {
  // A new storage that extends the old one (keeping it alive) with a copy of the name.
  auto storage = std::make_shared<SchemaStorage>(std::move(schema.storage));
  schema.op.name = storage->copy(name);
  schema.storage = std::move(storage);
}

}  // namespace schemac::schema
