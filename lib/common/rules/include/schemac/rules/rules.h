// The rule registry: every rule schemac reports, defined once (rule_table.h) with its id, default
// severity, profiles, torchgen release window, fixability, summary and documentation anchor.
// Code reports a rule through its symbol, `rules::unknown_type`, never through its id's text, so
// a misspelt rule does not compile; the catalogues (`lint --list-rules`, `compat --list-rules`,
// SARIF's rules), the profile and release tables and the language server's codes are views of
// this table, and `decide` is the one place a finding's severity is decided.
#pragma once

#include <algorithm>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace schemac::rules {

enum class Severity : uint8_t { error, warning, note };

// Who reports a rule, and so which list it is in.
enum class Family : uint8_t {
  yaml,       // lint: native-functions, backend and executorch YAML files
  schema,     // lint: the schema parser and checks (func: strings, registration code)
  source,     // lint: registration code across files
  lint_meta,  // lint: the run itself (suppression comments, .schemac.yaml)
  gen,        // gen's checks of a target
  compat,     // schemac compat
  parse,      // schemac parse --source
  audit,      // dispatch-inspect audit: a built library's dispatch tables
};

// A PyTorch release (torchgen's), as lib/frontend/torch_releases counts them.
struct Release {
  int major = 0;
  int minor = 0;
  auto operator<=>(const Release&) const = default;
};

// The releases whose torchgen has a rule: `since` up to `until` (nullopt: every release from
// `since` on); an error up to `error_until`, its default severity after it.
struct ReleaseWindow {
  std::optional<Release> since;
  std::optional<Release> until;
  std::optional<Release> error_until;

  constexpr ReleaseWindow until_release(int major, int minor) const {
    ReleaseWindow w = *this;
    w.until = Release{major, minor};
    return w;
  }
  constexpr ReleaseWindow errors_until(int major, int minor) const {
    ReleaseWindow w = *this;
    w.error_until = Release{major, minor};
    return w;
  }
  constexpr bool limited() const { return since || until || error_until; }
  constexpr bool contains(Release r) const {
    return !(since && r < *since) && !(until && *until < r);
  }
};

// What a rule is in lint's two profiles (docs/lint-rules.md, "Profiles").
struct Profiles {
  bool in_tree = true;
  bool extension = true;
  std::optional<Severity> extension_severity;  // when it differs from the default
};

struct RuleDef {
  std::string_view id;
  Family family;
  Severity severity;
  Profiles profiles;
  ReleaseWindow releases;
  bool fixable;         // some of its findings carry a fix-it
  bool subset_warning;  // a warning in a vendor's subset of PyTorch's operators
  std::string_view summary;
};

// The names rule_table.h's columns use.
namespace table {
inline constexpr Severity E = Severity::error, W = Severity::warning, N = Severity::note;
inline constexpr Family yaml = Family::yaml, schema = Family::schema, source = Family::source,
                        lint_meta = Family::lint_meta, gen = Family::gen, compat = Family::compat,
                        parse = Family::parse, audit = Family::audit;
inline constexpr Profiles both{}, in_tree_only{true, false, std::nullopt},
    extension_warning{true, true, Severity::warning};
constexpr ReleaseWindow any_release() { return {}; }
constexpr ReleaseWindow since(int major, int minor) {
  return ReleaseWindow{Release{major, minor}, std::nullopt, std::nullopt};
}
enum Traits : unsigned { plain = 0, fixable = 1, subset_warning = 2 };

inline constexpr RuleDef kRules[] = {
#define RULE(symbol, id, family, severity, profiles, releases, traits, summary) \
  RuleDef{id,                                                                   \
          family,                                                               \
          severity,                                                             \
          profiles,                                                             \
          releases,                                                             \
          ((traits)&fixable) != 0,                                              \
          ((traits)&subset_warning) != 0,                                       \
          summary},
#include "schemac/rules/rule_table.h"
#undef RULE
};
}  // namespace table

enum class Id : uint16_t {
#define RULE(symbol, ...) symbol,
#include "schemac/rules/rule_table.h"
#undef RULE
};

// A rule, by its symbol. Converts to its id's text where a diagnostic or a message wants one.
class Rule {
 public:
  constexpr explicit Rule(Id id) : id_(id) {}
  constexpr Id id() const { return id_; }
  constexpr const RuleDef& def() const { return table::kRules[static_cast<size_t>(id_)]; }
  constexpr std::string_view name() const { return def().id; }
  constexpr operator std::string_view() const { return name(); }
  operator std::string() const { return std::string(name()); }
  friend constexpr bool operator==(Rule a, Rule b) { return a.id_ == b.id_; }
  friend constexpr bool operator==(Rule a, std::string_view b) { return a.name() == b; }

 private:
  Id id_;
};

// One constant per rule: rules::unknown_type, rules::group_out_alone, ...
#define RULE(symbol, ...) inline constexpr Rule symbol{Id::symbol};
#include "schemac/rules/rule_table.h"
#undef RULE

// Every rule, in the table's order.
constexpr std::span<const RuleDef> all_rules() { return table::kRules; }
// The rule named `id`, or nullptr.
const RuleDef* find_rule(std::string_view id);
// The same as a Rule (what code reports a finding by, when its id comes as text: a schema
// error's), or nothing.
std::optional<Rule> rule_named(std::string_view id);
// The rules of `family`, in the table's order.
std::span<const RuleDef> family_rules(Family family);

// Where a rule is documented, relative to docs/: "lint-rules.md#unknown-type".
std::string doc_anchor(const RuleDef& rule);
// The page of a family's rules: "lint-rules.md", "compat.md", "sources.md".
std::string_view doc_page(Family family);

// Lint's profiles, as the registry knows them (lib/frontend/lint adds the automatic choice).
enum class Profile : uint8_t { in_tree, extension };

// Everything a finding's severity depends on besides its rule.
struct Circumstances {
  Profile profile = Profile::in_tree;
  std::optional<Release> release;      // nullopt: no release chosen (the window is not checked)
  bool vendor_subset = false;          // the file is a vendor's subset of PyTorch's operators
  std::optional<Severity> configured;  // a .schemac.yaml's `severity:` for the rule
};
// What decided the outcome (the last step that changed it).
enum class Because : uint8_t { rule, profile, release, vendor_subset, configured };
struct Verdict {
  std::optional<Severity> severity;  // nullopt: the rule does not apply
  Because because = Because::rule;
};
// The one decision of a finding's severity: the rule's default, then its profile, its release
// window, the vendor-subset relaxation and last the configuration.
Verdict decide(const RuleDef& rule, const Circumstances& circumstances);

// The entry of `id` in `sorted` (a catalogue sorted by its `id` field), or nullptr.
template <typename Entry>
const Entry* find_by_id(std::span<const Entry> sorted, std::string_view id) {
  auto it =
      std::lower_bound(sorted.begin(), sorted.end(), id,
                       [](const Entry& entry, std::string_view key) { return entry.id < key; });
  return it != sorted.end() && it->id == id ? &*it : nullptr;
}

}  // namespace schemac::rules
