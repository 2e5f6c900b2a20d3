// The table of schema rules (schema_rules.h). Sorted by id.
#include "schemac/schema/schema_rules.h"

#include <algorithm>
#include <array>

namespace schemac::schema {
namespace {

constexpr auto E = SchemaSeverity::Error;
constexpr auto W = SchemaSeverity::Warning;

constexpr auto kSchemaRules = std::to_array<SchemaRule>({
    {"alias-on-value", W,
     "alias annotations sit only on types that can share memory (tensors, lists, objects)"},
    {"alias-unknown-set", W, "a returned alias set is one that an argument belongs to"},
    {"alias-write-mismatch", W, "a return that writes an alias set has an argument that writes it"},
    {"default-hex", W, "integer defaults are decimal (PyTorch reads 0x2F as 0)"},
    {"default-length", W, "a list default has as many elements as its fixed-size type"},
    {"default-none", W, "a None default belongs to an optional type"},
    {"default-order", E,
     "only a suffix of the positional arguments has defaults (PyTorch asserts)"},
    {"default-order-list", W,
     "a list-typed positional argument without a default does not follow one with a default "
     "(PyTorch exempts lists)"},
    {"default-type", W, "a default value fits its argument's type"},
    {"default-unreadable", E,
     "a default is a value PyTorch's parser reads for its argument's type"},
    {"duplicate-argument", W, "argument names are unique within a schema"},
    {"duplicate-return", W, "return names are unique within a schema"},
    {"fixed-size-list-position", E,
     "a fixed-size list [N] is the outermost type (or under a final ?)"},
    {"keyword-name", E,
     "operator, namespace, overload, alias set, argument, return and type variable names are not "
     "keywords of PyTorch's lexer"},
    {"kwarg-marker", W,
     "the schema's keyword-only marker '*' appears once, before a keyword-only argument"},
    {"reserved-overload-name", E, "overload names do not use reserved words such as 'default'"},
    {"schema-syntax", E, "func is a well-formed function schema"},
    {"union-members", E, "a Union has at least two different member types"},
    {"unknown-type", E, "argument and return types are known schema types"},
    {"vararg-default", E, "a schema with '...' has no argument defaults"},
});

constexpr bool sorted_by_id() {
  for (size_t i = 1; i < kSchemaRules.size(); ++i)
    if (!(kSchemaRules[i - 1].id < kSchemaRules[i].id)) return false;
  return true;
}
static_assert(sorted_by_id(), "kSchemaRules must be sorted by id");

}  // namespace

std::span<const SchemaRule> schema_rules() { return kSchemaRules; }

const SchemaRule* find_schema_rule(std::string_view id) {
  auto it =
      std::lower_bound(kSchemaRules.begin(), kSchemaRules.end(), id,
                       [](const SchemaRule& rule, std::string_view key) { return rule.id < key; });
  return it != kSchemaRules.end() && it->id == id ? &*it : nullptr;
}

}  // namespace schemac::schema
