// The compat allow-list: a YAML list of entries that accept known breaking changes,
//   - operator: add.Tensor        # required: the operator as OLD names it
//     rule: renamed-argument      # optional: only findings of this rule (all of them when absent)
//     reason: "..."               # required: why the break is acceptable
//     expires: 2026-06-30         # optional: the last day the entry applies
// and how it is applied to findings. An entry past its date accepts nothing and is an error
// itself, so a temporary exception cannot outlive its plan.
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "schemac/compat/compat.h"
#include "schemac/rules/rules.h"
#include "schemac/support/did_you_mean.h"
#include "schemac/yaml/yaml_loader.h"

namespace schemac::compat {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Note, yaml::YamlNode,
    yaml::node_location;

std::string Date::text() const { return fmt::format("{:04}-{:02}-{:02}", year, month, day); }

std::optional<Date> parse_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto number = [&](size_t begin, size_t count) -> std::optional<int> {
    int value = 0;
    for (size_t i = begin; i < begin + count; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  std::optional<int> year = number(0, 4), month = number(5, 2), day = number(8, 2);
  if (!year || !month || !day || *month < 1 || *month > 12 || *day < 1) return std::nullopt;
  bool leap = (*year % 4 == 0 && *year % 100 != 0) || *year % 400 == 0;
  constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int last = kDays[static_cast<size_t>(*month - 1)] + (*month == 2 && leap ? 1 : 0);
  if (*day > last) return std::nullopt;
  return Date{*year, *month, *day};
}

namespace {

constexpr std::array<std::string_view, 4> kFields = {"operator", "rule", "reason", "expires"};

// A finding of `rule` with the rule's default severity (a config may decide another).
Diagnostic error(rules::Rule rule, Location location, std::string message) {
  return Diagnostic{rule.def().severity, rule, std::move(location), std::move(message), {}, {}};
}

bool is_blank(std::string_view text) {
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// The rule ids an entry may name: the breaking changes, not the allow-list's own rules.
std::vector<std::string_view> finding_rule_ids() {
  std::vector<std::string_view> ids;
  for (const diagnostics::RuleInfo& rule : compat_rule_catalog()) {
    if (!rule.id.starts_with("allow-")) ids.push_back(rule.id);
  }
  return ids;
}

class AllowListReader {
 public:
  AllowListReader(const yaml::YamlDocument& document, AllowListLoad& out)
      : doc_(document), out_(out) {}

  void read() {
    if (!doc_.root || doc_.root->is_null()) return;  // an empty allow-list accepts nothing
    if (!doc_.root->is_sequence()) {
      report(error(rules::allow_invalid_entry, node_location(doc_, *doc_.root, 1),
                   "an allow-list is a list of '- operator: NAME' entries"));
      return;
    }
    for (const YamlNode& item : doc_.root->items) read_entry(item);
  }

 private:
  void report(Diagnostic diagnostic) { out_.diagnostics.push_back(std::move(diagnostic)); }

  void read_entry(const YamlNode& item) {
    Location where = node_location(doc_, item, 1);
    if (!item.is_mapping()) {
      report(error(rules::allow_invalid_entry, where,
                   "an allow-list entry is a mapping with operator, reason and optionally rule and "
                   "expires"));
      return;
    }
    bool ok = check_fields(item);
    AllowEntry entry;
    entry.location = where;
    ok = required_text(item, "operator", entry.operator_name, where, rules::allow_missing_operator,
                       "allow-list entry has no operator") &&
         ok;
    std::string label = entry.operator_name.empty()
                            ? std::string("allow-list entry")
                            : fmt::format("allow-list entry for '{}'", entry.operator_name);
    const YamlNode* reason = item.find("reason");
    ok = required_text(item, "reason", entry.reason, reason ? node_location(doc_, *reason) : where,
                       rules::allow_missing_reason, fmt::format("{} has no reason", label)) &&
         ok;
    if (const YamlNode* rule = item.find("rule"); rule && rule->is_scalar()) {
      ok = check_rule(*rule, label) && ok;
      entry.rule = rule->value;
    }
    if (const YamlNode* expires = item.find("expires"); expires && expires->is_scalar()) {
      entry.expires = parse_date(expires->value);
      entry.expires_location = node_location(doc_, *expires);
      if (!entry.expires) {
        report(error(rules::allow_invalid_date, entry.expires_location,
                     fmt::format("{} has expiry '{}', which is not a YYYY-MM-DD date", label,
                                 expires->value)));
        ok = false;
      }
    }
    if (ok) out_.entries.push_back(std::move(entry));
  }

  // The fields whose absence has its own message ("has no reason"); an empty one reads as absent.
  static bool is_required(std::string_view field) {
    return field == "operator" || field == "reason";
  }

  // Unknown fields (with a suggestion) and fields that are not plain strings.
  // Reads the required text field `field` of `item` into `out`. A missing, empty or blank one is
  // reported (rule `missing_rule`, at `missing_at`); a value that is no text was reported by
  // check_fields. Returns whether `out` was set.
  bool required_text(const YamlNode& item, std::string_view field, std::string& out,
                     Location missing_at, rules::Rule missing_rule, std::string missing_message) {
    const YamlNode* node = item.find(field);
    if (node && node->is_scalar() && !is_blank(node->value)) {
      out = node->value;
      return true;
    }
    if (!node || node->is_scalar() || node->is_null()) {
      report(error(missing_rule, std::move(missing_at), std::move(missing_message)));
    }
    return false;
  }

  bool check_fields(const YamlNode& item) {
    bool ok = true;
    for (const auto& [key, value] : item.entries) {
      bool known = false;
      for (std::string_view field : kFields) known = known || key.value == field;
      if (!known) {
        Diagnostic d = error(rules::allow_unknown_field, node_location(doc_, key),
                             fmt::format("unknown allow-list field '{}'", key.value));
        if (std::optional<std::string> guess = support::did_you_mean(key.value, kFields)) {
          d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
        }
        report(std::move(d));
        ok = false;
      } else if (!value.is_scalar() && !(value.is_null() && is_required(key.value))) {
        report(error(rules::allow_invalid_entry, node_location(doc_, value, 1),
                     fmt::format("allow-list field '{}' takes a string", key.value)));
        ok = false;
      }
    }
    return ok;
  }

  bool check_rule(const YamlNode& rule, const std::string& label) {
    std::vector<std::string_view> ids = finding_rule_ids();
    for (std::string_view id : ids) {
      if (rule.value == id) return true;
    }
    Diagnostic d = error(rules::allow_unknown_rule, node_location(doc_, rule),
                         fmt::format("{} names unknown rule '{}'", label, rule.value));
    if (std::optional<std::string> guess = support::did_you_mean(rule.value, ids)) {
      d.notes.push_back(Note{{}, fmt::format("did you mean '{}'?", *guess)});
    }
    report(std::move(d));
    return false;
  }

  const yaml::YamlDocument& doc_;
  AllowListLoad& out_;
};

// Operator names compare without the default `aten::` namespace.
std::string_view without_aten(std::string_view name) {
  return name.starts_with("aten::") ? name.substr(6) : name;
}

bool entry_matches(const AllowEntry& entry, const CompatFinding& finding) {
  return without_aten(entry.operator_name) == without_aten(finding.operator_name) &&
         (!entry.rule || *entry.rule == finding.diagnostic.rule);
}

std::string entry_label(const AllowEntry& entry) {
  return entry.rule ? fmt::format("allow-list entry for '{}' (rule '{}')", entry.operator_name,
                                  *entry.rule)
                    : fmt::format("allow-list entry for '{}'", entry.operator_name);
}

}  // namespace

AllowListLoad load_allow_list(std::string file, std::string text) {
  AllowListLoad result;
  yaml::YamlLoadResult yaml = yaml::load_yaml(std::move(file), std::move(text));
  result.diagnostics = std::move(yaml.diagnostics);
  AllowListReader(yaml.document, result).read();
  return result;
}

AllowOutcome apply_allow_list(std::vector<CompatFinding> findings,
                              std::span<const AllowEntry> entries, Date today) {
  AllowOutcome outcome;
  std::vector<size_t> uses(entries.size(), 0);
  auto expired = [&](const AllowEntry& entry) { return entry.expires && *entry.expires < today; };
  for (CompatFinding& finding : findings) {
    bool accepted = false;
    for (size_t i = 0; i < entries.size() && !accepted; ++i) {
      if (!expired(entries[i]) && entry_matches(entries[i], finding)) {
        ++uses[i];
        accepted = true;
      }
    }
    if (accepted) {
      ++outcome.allowed;
    } else {
      outcome.diagnostics.push_back(std::move(finding.diagnostic));
    }
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    const AllowEntry& entry = entries[i];
    if (expired(entry)) {
      Diagnostic d = error(rules::allow_expired, entry.expires_location,
                           fmt::format("{} expired on {} (today is {})", entry_label(entry),
                                       entry.expires->text(), today.text()));
      d.notes.push_back(Note{entry.location, fmt::format("its reason was: {}", entry.reason)});
      outcome.diagnostics.push_back(std::move(d));
    } else if (uses[i] == 0) {
      outcome.diagnostics.push_back(
          error(rules::allow_unused, entry.location,
                fmt::format("{} matches no finding", entry_label(entry))));
    }
  }
  return outcome;
}

}  // namespace schemac::compat
