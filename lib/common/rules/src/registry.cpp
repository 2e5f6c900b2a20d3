// The registry's lookups (rules.h) and the compile-time checks of its table.
#include <algorithm>
#include <array>

#include "schemac/rules/rules.h"

namespace schemac::rules {
namespace {

constexpr size_t kCount = std::size(table::kRules);

// A symbol is its id with '-' written as '_'.
constexpr bool spelt_alike(std::string_view symbol, std::string_view id) {
  if (symbol.size() != id.size()) return false;
  for (size_t i = 0; i < id.size(); ++i)
    if (symbol[i] != (id[i] == '-' ? '_' : id[i])) return false;
  return true;
}
#define RULE(symbol, id, ...) \
  static_assert(spelt_alike(#symbol, id), "rule_table.h: the symbol is not the id's spelling");
#include "schemac/rules/rule_table.h"
#undef RULE

constexpr bool lint_rules_first_and_sorted() {
  // yaml and schema rules come first, sorted by id (the order lint's catalogue and SARIF keep);
  // a family's rules sit together.
  for (size_t i = 1; i < kCount; ++i) {
    const RuleDef& a = table::kRules[i - 1];
    const RuleDef& b = table::kRules[i];
    const bool a_lint = a.family == Family::yaml || a.family == Family::schema;
    const bool b_lint = b.family == Family::yaml || b.family == Family::schema;
    if (!a_lint && b_lint) return false;
    if (a_lint && b_lint && !(a.id < b.id)) return false;
    if (!a_lint && !b_lint && a.family != b.family) {
      for (size_t j = 0; j + 1 < i; ++j)
        if (table::kRules[j].family == b.family) return false;
    }
  }
  return true;
}
static_assert(lint_rules_first_and_sorted(),
              "rule_table.h: lint's yaml and schema rules come first, sorted by id, and each "
              "other family's rules sit together");

// The table's indices sorted by id, for find_rule.
constexpr std::array<uint16_t, kCount> kById = [] {
  std::array<uint16_t, kCount> order{};
  for (size_t i = 0; i < kCount; ++i) order[i] = static_cast<uint16_t>(i);
  std::sort(order.begin(), order.end(),
            [](uint16_t a, uint16_t b) { return table::kRules[a].id < table::kRules[b].id; });
  return order;
}();

constexpr bool ids_unique() {
  for (size_t i = 1; i < kCount; ++i)
    if (table::kRules[kById[i - 1]].id == table::kRules[kById[i]].id) return false;
  return true;
}
static_assert(ids_unique(), "rule_table.h: a rule id is defined twice");

}  // namespace

const RuleDef* find_rule(std::string_view id) {
  auto it = std::lower_bound(
      kById.begin(), kById.end(), id,
      [](uint16_t index, std::string_view key) { return table::kRules[index].id < key; });
  return it != kById.end() && table::kRules[*it].id == id ? &table::kRules[*it] : nullptr;
}

std::optional<Rule> rule_named(std::string_view id) {
  const RuleDef* rule = find_rule(id);
  if (rule == nullptr) return std::nullopt;
  return Rule(static_cast<Id>(rule - std::begin(table::kRules)));
}

std::span<const RuleDef> family_rules(Family family) {
  const RuleDef* begin = std::find_if(std::begin(table::kRules), std::end(table::kRules),
                                      [&](const RuleDef& r) { return r.family == family; });
  const RuleDef* end = std::find_if(begin, std::end(table::kRules),
                                    [&](const RuleDef& r) { return r.family != family; });
  return {begin, end};
}

std::string_view doc_page(Family family) {
  switch (family) {
    case Family::compat: return "compat.md";
    case Family::parse: return "sources.md";
    case Family::audit: return "dispatch-inspect.md";
    case Family::yaml:
    case Family::schema:
    case Family::source:
    case Family::lint_meta:
    case Family::gen: break;
  }
  return "lint-rules.md";
}

std::string doc_anchor(const RuleDef& rule) {
  return std::string(doc_page(rule.family)) + "#" + std::string(rule.id);
}

}  // namespace schemac::rules
