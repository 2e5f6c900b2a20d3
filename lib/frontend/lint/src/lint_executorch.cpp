// executorch's kernel YAML (kernels/portable/functions.yaml, custom_ops.yaml; torchgen/executorch):
//   - op: add.out                   # an ATen operator, by name
//     kernels:
//       - arg_meta: null            # the default kernel
//         kernel_name: torch::executor::add_out
//   - func: my_op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)   # a custom operator
//     type_alias: {T0: [Double]}    # dtype lists that arg_meta names
//     dim_order_alias: {D0: [0, 1, 2, 3]}
//     kernels:
//       - arg_meta: {self: [T0, D0], out: [T0, D0]}
//         kernel_name: custom::my_op_out
// An entry may also use the fields of native_functions.yaml (tags:, variants:, ...).
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/check.h"
#include "schemac/schema/parser.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::Note, yaml::YamlDocument, yaml::YamlNode,
    yaml::node_location;

namespace {

constexpr auto kEtFields =
    std::to_array<std::string_view>({"op", "func", "kernels", "type_alias", "dim_order_alias"});
constexpr auto kKernelKeys = std::to_array<std::string_view>({"arg_meta", "kernel_name"});
// ScalarType names as executorch writes them in type_alias.
// clang-format off
constexpr auto kDtypes = std::to_array<std::string_view>({
    "Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double", "ComplexHalf",
    "ComplexFloat", "ComplexDouble", "Bool", "QInt8", "QUInt8", "QInt32", "BFloat16", "QUInt4x2",
    "QUInt2x4", "Bits1x8", "Bits2x4", "Bits4x2", "Bits8", "Bits16", "Float8_e5m2", "Float8_e4m3fn",
    "Float8_e5m2fnuz", "Float8_e4m3fnuz", "UInt16", "UInt32", "UInt64"
});
// clang-format on

bool is_name(std::string_view t) {
  if (t.empty() || std::isdigit(static_cast<unsigned char>(t[0]))) return false;
  return std::all_of(t.begin(), t.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
}

class ExecutorchRules {
 public:
  ExecutorchRules(const YamlDocument& doc) : doc_(doc) {}

  std::vector<Diagnostic> run() {
    if (!doc_.root || doc_.root->is_null()) return std::move(out_);
    if (!doc_.root->is_sequence()) {
      report(rules::executorch_shape, node_location(doc_, *doc_.root, 1),
             "an executorch kernel YAML is a list of '- op:' or '- func:' entries");
      return std::move(out_);
    }
    for (const YamlNode& entry : doc_.root->items) check_entry(entry);
    return std::move(out_);
  }

 private:
  Diagnostic& report(rules::Rule rule, diagnostics::Location location, std::string message) {
    return lint::report_rule(out_, rule, std::move(location), std::move(message));
  }

  void check_entry(const YamlNode& entry) {
    if (!entry.is_mapping()) {
      report(rules::executorch_shape, node_location(doc_, entry, 1),
             "each entry is a mapping with 'op:' or 'func:'");
      return;
    }
    const YamlNode* op = entry.find("op");
    const YamlNode* func = entry.find("func");
    if (!op == !func) {
      report(rules::executorch_shape, node_location(doc_, entry, 1),
             op ? "an entry has 'op:' (an ATen operator) or 'func:' (a custom operator), not both"
                : "an entry needs 'op:' (an ATen operator) or 'func:' (a custom operator schema)");
      return;
    }
    std::set<std::string> arguments;
    std::string name;
    if (op) {
      std::string_view bare = op->is_scalar() ? std::string_view(op->value) : std::string_view();
      if (const size_t ns = bare.find("::"); ns != std::string_view::npos)
        bare.remove_prefix(ns + 2);  // aten::
      if (!op->is_scalar() || !is_name(bare) || std::count(bare.begin(), bare.end(), '.') > 1) {
        report(rules::executorch_op_name, node_location(doc_, *op),
               "'op' is an operator name: [namespace::]name[.overload]");
        return;
      }
      name = op->value;
    } else if (!check_func(*func, arguments, name)) {
      return;
    }
    if (auto [it, inserted] = seen_.emplace(name, op ? op : func); !inserted) {
      Diagnostic& d = report(
          rules::executorch_duplicate_op, node_location(doc_, op ? *op : *func),
          fmt::format("'{}' has a second entry; executorch's codegen keeps one of them", name));
      d.notes.push_back(Note{node_location(doc_, *it->second), "first entry here"});
    }
    const auto native_fields = native_functions::native_function_field_names();
    for (const auto& [key, value] : entry.entries) {
      const bool et = std::find(kEtFields.begin(), kEtFields.end(), key.value) != kEtFields.end();
      const bool native =
          std::find(native_fields.begin(), native_fields.end(), key.value) != native_fields.end();
      if (et || native) continue;
      std::vector<std::string_view> known(kEtFields.begin(), kEtFields.end());
      known.insert(known.end(), native_fields.begin(), native_fields.end());
      Diagnostic& d = report(rules::executorch_unknown_field, node_location(doc_, key),
                             fmt::format("unknown field '{}'", key.value));
      if (auto guess = support::did_you_mean(key.value, known)) {
        d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
        d.fix = diagnostics::FixHint{node_location(doc_, key), *guess};
      }
    }
    std::set<std::string> aliases;
    if (const YamlNode* t = entry.find("type_alias")) aliases_of(*t, "type_alias", true, aliases);
    if (const YamlNode* d = entry.find("dim_order_alias"))
      aliases_of(*d, "dim_order_alias", false, aliases);
    if (const YamlNode* kernels = entry.find("kernels"))
      check_kernels(*kernels, aliases, arguments);
  }

  bool check_func(const YamlNode& func, std::set<std::string>& arguments, std::string& name) {
    if (!func.is_scalar()) {
      report(rules::executorch_shape, node_location(doc_, func, 1), "'func' is a schema string");
      return false;
    }
    schema::ParseResult parsed = schema::parse_schema(func.value);
    if (!parsed.ok()) {
      const schema::SchemaError& e = *parsed.error;
      auto [line, column] =
          yaml::scalar_position(doc_, func, std::min<size_t>(e.offset, func.value.size()));
      report(rules::rule_named(e.rule).value_or(rules::schema_syntax),
             diagnostics::Location::at(doc_.file, line, column, e.length), e.message);
      return false;
    }
    for (const schema::Argument& a : parsed.schema->arguments) arguments.emplace(a.name);
    name = parsed.schema->op.full();
    return true;
  }

  void aliases_of(const YamlNode& node, std::string_view field, bool dtypes,
                  std::set<std::string>& aliases) {
    if (!node.is_mapping()) {
      report(rules::executorch_field_type, node_location(doc_, node, 1),
             fmt::format("'{}' maps alias names to lists", field));
      return;
    }
    for (const auto& [key, value] : node.entries) {
      aliases.insert(key.value);
      if (!value.is_sequence()) {
        report(rules::executorch_field_type, node_location(doc_, value.is_null() ? key : value, 1),
               fmt::format("alias '{}' of '{}' must be a list", key.value, field));
        continue;
      }
      for (const YamlNode& item : value.items) {
        const bool ok =
            item.is_scalar() &&
            (dtypes ? std::find(kDtypes.begin(), kDtypes.end(), item.value) != kDtypes.end()
                    : !item.value.empty() &&
                          std::all_of(item.value.begin(), item.value.end(), ::isdigit));
        if (ok) continue;
        Diagnostic& d = report(
            rules::executorch_field_type, node_location(doc_, item),
            dtypes ? fmt::format("'{}' is not a dtype name (Float, Double, Long, ...)", item.value)
                   : fmt::format("'{}' is not a dimension index", item.value));
        if (dtypes) {
          if (auto guess = support::did_you_mean(item.value, kDtypes))
            d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
        }
      }
    }
  }

  void check_kernels(const YamlNode& kernels, const std::set<std::string>& aliases,
                     const std::set<std::string>& arguments) {
    if (!kernels.is_sequence()) {
      report(rules::executorch_field_type, node_location(doc_, kernels, 1),
             "'kernels' is a list of {arg_meta, kernel_name} mappings");
      return;
    }
    const YamlNode* default_kernel = nullptr;
    for (const YamlNode& k : kernels.items) {
      if (!k.is_mapping()) {
        report(rules::executorch_field_type, node_location(doc_, k, 1),
               "each kernel is a mapping with 'arg_meta' and 'kernel_name'");
        continue;
      }
      for (const auto& [key, value] : k.entries) {
        if (std::find(kKernelKeys.begin(), kKernelKeys.end(), key.value) == kKernelKeys.end())
          report(rules::executorch_unknown_field, node_location(doc_, key),
                 fmt::format("unknown kernel field '{}' (arg_meta, kernel_name)", key.value));
      }
      const YamlNode* kernel_name = k.find("kernel_name");
      if (!kernel_name || !kernel_name->is_scalar() || kernel_name->value.empty())
        report(rules::executorch_kernel, node_location(doc_, kernel_name ? *kernel_name : k, 1),
               "a kernel needs a 'kernel_name' (a C++ function)");
      const YamlNode* meta = k.find("arg_meta");
      if (!meta || meta->is_null()) {
        if (default_kernel) {
          Diagnostic& d = report(rules::executorch_kernel, node_location(doc_, k, 1),
                                 "a second default kernel (arg_meta: null); only one is used");
          d.notes.push_back(
              Note{node_location(doc_, *default_kernel, 1), "the first default kernel"});
        }
        default_kernel = &k;
        continue;
      }
      if (!meta->is_mapping()) {
        report(rules::executorch_field_type, node_location(doc_, *meta, 1),
               "'arg_meta' is null or maps argument names to alias lists");
        continue;
      }
      for (const auto& [arg, list] : meta->entries) {
        if (!arguments.empty() && !arguments.contains(arg.value))
          report(rules::executorch_kernel, node_location(doc_, arg),
                 fmt::format("arg_meta names '{}', which is not an argument of the schema",
                             arg.value));
        for (const YamlNode& alias : list.items) {
          if (alias.is_scalar() && !aliases.contains(alias.value))
            report(rules::executorch_kernel, node_location(doc_, alias),
                   fmt::format("'{}' is not defined in this entry's type_alias or dim_order_alias",
                               alias.value));
        }
      }
    }
  }

  const YamlDocument& doc_;
  std::map<std::string, const YamlNode*> seen_;
  std::vector<Diagnostic> out_;
};

}  // namespace

std::vector<Diagnostic> check_executorch_yaml(const YamlDocument& document, const LintOptions&) {
  return ExecutorchRules(document).run();
}

}  // namespace schemac::lint
