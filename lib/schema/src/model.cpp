// The few computed members of the schema model (model.h).
#include "schemac/schema/model.h"

#include <cstring>

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

std::string_view OperatorName::base_name() const {
  auto colons = name.rfind("::");
  return colons == std::string_view::npos ? name : name.substr(colons + 2);
}

std::string_view OperatorName::ns() const {
  auto colons = name.rfind("::");
  return colons == std::string_view::npos ? std::string_view() : name.substr(0, colons);
}

std::string OperatorName::full() const {
  std::string out(name);
  if (!overload.empty()) {
    out.push_back('.');
    out.append(overload);
  }
  return out;
}

namespace {

// Calls `visit` on every name view of a type: its own and its alias sets', then its element's.
template <typename Visit>
void for_each_name(Type& type, Visit& visit) {
  visit(type.name);
  if (type.alias) {
    for (std::string_view& set : type.alias->before) visit(set);
    for (std::string_view& set : type.alias->after) visit(set);
  }
  for (Type& element : type.elem) for_each_name(element, visit);
}

template <typename Visit>
void for_each_name(FunctionSchema& schema, Visit& visit) {
  visit(schema.text);
  visit(schema.op.name);
  visit(schema.op.overload);
  for (auto* list : {&schema.arguments, &schema.returns}) {
    for (Argument& argument : *list) {
      visit(argument.name);
      for_each_name(argument.type, visit);
    }
  }
}

}  // namespace

void set_operator_name(FunctionSchema& schema, std::string_view name) {
  // One new block: the old text, then the name. Views into the old block move to the same offset
  // in the new one; views into anything else (a literal) stay.
  const char* old_begin = schema.text.data();
  const size_t old_size = schema.text.size();
  std::shared_ptr<char[]> block = std::make_shared_for_overwrite<char[]>(old_size + name.size());
  if (old_size) std::memcpy(block.get(), old_begin, old_size);
  if (!name.empty()) std::memcpy(block.get() + old_size, name.data(), name.size());
  auto rebase = [&](std::string_view& view) {
    if (old_size == 0 || view.data() < old_begin || view.data() >= old_begin + old_size) return;
    view = std::string_view(block.get() + (view.data() - old_begin), view.size());
  };
  for_each_name(schema, rebase);
  schema.op.name = std::string_view(block.get() + old_size, name.size());
  schema.text_storage = std::move(block);
}

}  // namespace schemac::schema
