// The release-bound forms of a schema and the ones a release does not read (schema_releases.h).
#include "schemac/schema_releases/schema_releases.h"

#include <algorithm>

#include <fmt/format.h>

#include "schemac/torch_releases/dtype_names.h"

namespace schemac::schema_releases {

using schema::Argument, schema::BaseType, schema::DefaultValue, schema::Type,
    torch_releases::SchemaForm, torch_releases::TorchVersion, torch_releases::format_torch_version;

namespace {

// Whether a leaf's name is a type variable as PyTorch's parser reads one: a lower-case name that
// is no known type (a custom class is `__torch__.torch.classes...`).
bool is_type_variable(const Type& leaf) {
  return leaf.base == BaseType::Named && !leaf.name.empty() && leaf.name[0] >= 'a' &&
         leaf.name[0] <= 'z';
}

void find_in_type(const Type& type, bool custom_operator, std::vector<FormUse>& out) {
  if (type.kind == Type::Kind::Base) {
    if (custom_operator && is_type_variable(type)) {
      out.push_back({SchemaForm::custom_type_variable, type.range, type.name});
    }
    if (type.base == BaseType::Dimname) {
      out.push_back({SchemaForm::dimname_type, type.range, type.name});
    } else if (type.base == BaseType::DeviceIndex) {
      out.push_back({SchemaForm::device_index_type, type.range, type.name});
    } else if (type.base == BaseType::SymBool) {
      out.push_back({SchemaForm::sym_bool_type, type.range, type.name});
    }
    return;
  }
  if (type.kind == Type::Kind::Await) out.push_back({SchemaForm::await_type, type.range, "Await"});
  if (type.is_wrapper()) {
    find_in_type(type.element(), custom_operator, out);
    return;
  }
  for (const Type& item : type.contained()) find_in_type(item, custom_operator, out);
}

// A dtype name as the default of a ScalarType (or of its optional, or an element of its list)
// other than the two every release reads, float and long.
void find_in_default(const Argument& argument, std::vector<FormUse>& out) {
  const Type* element = &argument.type;
  while (element->is_optional()) element = &element->element();
  const bool list = element->is_list();
  if (list) element = &element->element();
  while (element->is_optional()) element = &element->element();
  if (!element->is_base(BaseType::ScalarType)) return;
  const std::span<const std::string_view> names = torch_releases::dtype_names();
  auto check = [&](const DefaultValue& item) {
    if (item.kind == DefaultValue::Kind::Identifier && item.text != "float" &&
        item.text != "long" && std::find(names.begin(), names.end(), item.text) != names.end())
      out.push_back({SchemaForm::dtype_name_default, item.range, item.text});
  };
  const DefaultValue& value = *argument.default_value;
  if (list && value.kind == DefaultValue::Kind::List) {
    for (const DefaultValue& item : value.items) check(item);
  } else {
    check(value);
  }
}

// What to write instead, for a release that does not read the form.
std::string_view instead(SchemaForm form) {
  switch (form) {
    case SchemaForm::dimname_type:
      return "named tensors are gone: take a dimension as 'int', or its name as 'str'";
    case SchemaForm::dtype_name_default:
      return "older releases read only float, long and complex as dtype names: give the "
             "ScalarType's number, or no default";
    case SchemaForm::device_index_type: return "take the device index as 'int'";
    case SchemaForm::sym_bool_type: return "take 'bool'";
    case SchemaForm::await_type: return "return the value itself";
    case SchemaForm::custom_type_variable:
      return "write the type the operator takes (Tensor, int, Any, ...): PyTorch reads type "
             "variables only in aten and prim operators";
  }
  return "";
}

// The known release just before `version` (`version` itself when it is the first).
TorchVersion release_before(TorchVersion version) {
  const std::span<const TorchVersion> known = torch_releases::known_torch_versions();
  const auto it = std::lower_bound(known.begin(), known.end(), version);
  return it == known.begin() ? version : *std::prev(it);
}

}  // namespace

std::vector<FormUse> find_release_forms(const schema::FunctionSchema& schema, std::string_view ns) {
  if (ns.empty()) ns = schema.op.ns();
  const bool custom_operator = !ns.empty() && ns != "aten" && ns != "prim";
  std::vector<FormUse> out;
  for (const Argument& argument : schema.arguments) {
    find_in_type(argument.type, custom_operator, out);
    if (argument.default_value) find_in_default(argument, out);
  }
  for (const Argument& result : schema.returns) find_in_type(result.type, custom_operator, out);
  return out;
}

std::vector<ReleaseProblem> release_problems(const schema::FunctionSchema& schema,
                                             TorchVersion release, std::string_view ns) {
  std::vector<ReleaseProblem> out;
  for (const FormUse& use : find_release_forms(schema, ns)) {
    if (torch_releases::reads_schema_form(release, use.form)) continue;
    const torch_releases::SchemaFormReleases& releases =
        torch_releases::schema_form_releases(use.form);
    if (releases.removed_in && *releases.removed_in <= release) {
      out.push_back(
          {use.range, fmt::format("{} was removed in PyTorch {}: PyTorch {} rejects '{}' "
                                  "(PyTorch {} and older read it); {}",
                                  releases.name, format_torch_version(*releases.removed_in),
                                  format_torch_version(release), use.text,
                                  format_torch_version(release_before(*releases.removed_in)),
                                  instead(use.form))});
    } else {
      out.push_back(
          {use.range, fmt::format("{} ('{}') is read from PyTorch {} on: PyTorch {} "
                                  "rejects it; {}",
                                  releases.name, use.text, format_torch_version(*releases.since),
                                  format_torch_version(release), instead(use.form))});
    }
  }
  return out;
}

}  // namespace schemac::schema_releases
