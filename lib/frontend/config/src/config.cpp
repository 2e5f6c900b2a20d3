// Reading .schemac.yaml with the located YAML reader, and applying the result to diagnostics.
#include "schemac/config/config.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/rules/rules.h"
#include "schemac/support/did_you_mean.h"
#include "schemac/yaml/yaml_loader.h"

namespace schemac::config {
namespace {

using diagnostics::Diagnostic;
using diagnostics::Location;
using yaml::YamlNode;

constexpr auto kKeys = std::to_array<std::string_view>(
    {"select", "ignore", "severity", "per-path", "tags", "profile", "torch-version", "namespace",
     "custom-op-helpers", "exclude", "docs-url", "defines"});
constexpr auto kSeverities = std::to_array<std::string_view>({"error", "warning", "off"});
constexpr std::string_view kRule = rules::config;

class Reader {
 public:
  Reader(yaml::YamlDocument& doc, ConfigLoad& out) : doc_(doc), out_(out) {
    for (const rules::RuleDef& r : rules::all_rules()) rules_.push_back(r.id);
  }

  void read(const YamlNode& root) {
    if (!root.is_mapping()) {
      error(root,
            "a .schemac.yaml is a mapping of settings (select, ignore, severity, per-path, ...)");
      return;
    }
    for (const yaml::YamlEntry& e : root.entries) {
      const std::string& key = e.key.value;
      if (key == "select") {
        rule_list(e.value, out_.config.select);
      } else if (key == "ignore") {
        rule_list(e.value, out_.config.ignore);
      } else if (key == "severity") {
        severity(e.value);
      } else if (key == "per-path") {
        per_path(e.value);
      } else if (key == "tags") {
        if (auto v = text(e.value)) out_.config.tags = relative_to_config(*v);
      } else if (key == "profile") {
        if (auto v = one_of(e.value, std::to_array<std::string_view>({"in-tree", "extension"})))
          out_.config.profile = v;
      } else if (key == "torch-version") {
        out_.config.torch_version = text(e.value);
      } else if (key == "namespace") {
        out_.config.namespace_name = text(e.value);
      } else if (key == "custom-op-helpers") {
        custom_op_helpers(e.value);
      } else if (key == "exclude") {
        patterns(e.value, out_.config.exclude);
      } else if (key == "docs-url") {
        if (auto v = text(e.value)) {
          if (is_url(*v)) {
            out_.config.docs_url = v;
          } else {
            error(e.value, fmt::format("'docs-url' is a URL such as https://host/path/docs/, not "
                                       "'{}'",
                                       *v));
          }
        }
      } else if (key == "defines") {
        defines(e.value);
      } else {
        Diagnostic& d = error(e.key, fmt::format("unknown key '{}'", key));
        if (auto guess = support::did_you_mean(key, kKeys)) {
          d.notes.push_back({{}, fmt::format("did you mean '{}'?", *guess)});
          d.fix = diagnostics::FixHint{
              yaml::node_location(doc_, e.key, static_cast<uint32_t>(key.size())), *guess};
        } else {
          d.notes.push_back({{}, fmt::format("the keys are {}", fmt::join(kKeys, ", "))});
        }
      }
    }
  }

 private:
  Diagnostic& error(const YamlNode& node, std::string message) {
    Location loc = node.line == 0
                       ? Location::at(doc_.file, 1, 1)
                       : yaml::node_location(doc_, node, static_cast<uint32_t>(node.value.size()));
    out_.diagnostics.push_back(Diagnostic{
        diagnostics::Severity::error, std::string(kRule), loc, std::move(message), {}, {}});
    return out_.diagnostics.back();
  }

  std::optional<std::string> text(const YamlNode& node) {
    if (node.is_scalar() && !node.value.empty()) return node.value;
    error(node, "expected a non-empty string");
    return std::nullopt;
  }

  template <size_t N>
  std::optional<std::string> one_of(const YamlNode& node,
                                    const std::array<std::string_view, N>& choices) {
    std::optional<std::string> v = text(node);
    if (!v) return std::nullopt;
    if (std::find(choices.begin(), choices.end(), *v) != choices.end()) return v;
    Diagnostic& d = error(node, fmt::format("'{}' is not one of {}", *v, fmt::join(choices, ", ")));
    if (auto guess = support::did_you_mean(*v, choices))
      d.notes.push_back({{}, fmt::format("did you mean '{}'?", *guess)});
    return std::nullopt;
  }

  bool known_rule(const YamlNode& node) {
    if (node.value == "all" || rules::find_rule(node.value) != nullptr) return true;
    Diagnostic& d = error(node, fmt::format("unknown rule '{}'", node.value));
    if (auto guess = support::did_you_mean(node.value, rules_))
      d.notes.push_back({{}, fmt::format("did you mean '{}'?", *guess)});
    return false;
  }

  // A list of rule ids, or one id.
  void rule_list(const YamlNode& node, std::vector<std::string>& out) {
    if (node.is_scalar()) {
      if (known_rule(node)) out.push_back(node.value);
      return;
    }
    if (!node.is_sequence()) {
      error(node, "expected a list of rule ids");
      return;
    }
    for (const YamlNode& item : node.items) {
      if (!item.is_scalar()) {
        error(item, "expected a rule id");
      } else if (known_rule(item)) {
        out.push_back(item.value);
      }
    }
  }

  // A list of .gitignore-style patterns, or one.
  void patterns(const YamlNode& node, std::vector<std::string>& out) {
    if (node.is_scalar() && !node.value.empty()) {
      out.push_back(node.value);
      return;
    }
    if (!node.is_sequence()) {
      error(node, "expected a list of file patterns");
      return;
    }
    for (const YamlNode& item : node.items) {
      if (item.is_scalar() && !item.value.empty()) {
        out.push_back(item.value);
      } else {
        error(item, "expected a file pattern");
      }
    }
  }

  void severity(const YamlNode& node) {
    if (!node.is_mapping()) {
      error(node, "'severity' maps rule ids to error, warning or off");
      return;
    }
    for (const yaml::YamlEntry& e : node.entries) {
      if (!e.key.is_scalar() || !known_rule(e.key)) continue;
      std::optional<std::string> v = one_of(e.value, kSeverities);
      if (!v) continue;
      out_.config.severity[e.key.value] = *v == "error"     ? RuleSeverity::error
                                          : *v == "warning" ? RuleSeverity::warning
                                                            : RuleSeverity::off;
    }
  }

  // NAME: VALUE pairs; a name with no value is 1, as `-D NAME` is.
  void defines(const YamlNode& node) {
    if (!node.is_mapping()) {
      error(node, "'defines' maps macro names to their values (as -D NAME=VALUE)");
      return;
    }
    for (const yaml::YamlEntry& e : node.entries) {
      bool name =
          e.key.is_scalar() && !e.key.value.empty() &&
          (std::isalpha(static_cast<unsigned char>(e.key.value[0])) || e.key.value[0] == '_');
      for (char c : e.key.value)
        name = name && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
      if (!name) {
        error(e.key, "expected a macro name (a C identifier)");
        continue;
      }
      if (e.value.is_null()) {
        out_.config.defines[e.key.value] = std::string(1, '1');  // as -D NAME
      } else if (e.value.is_scalar()) {
        out_.config.defines[e.key.value] = e.value.value;
      } else {
        error(e.value, "expected the macro's value (a string)");
      }
    }
  }

  void per_path(const YamlNode& node) {
    if (!node.is_mapping()) {
      error(node, "'per-path' maps file globs to lists of rule ids to ignore");
      return;
    }
    for (const yaml::YamlEntry& e : node.entries) {
      if (!e.key.is_scalar() || e.key.value.empty()) {
        error(e.key, "expected a file glob");
        continue;
      }
      PathIgnore ignore{relative_to_config(e.key.value), {}};
      rule_list(e.value, ignore.rules);
      out_.config.per_path.push_back(std::move(ignore));
    }
  }

  // - {name: NAME, like: custom_op|triton_op|direct_register_custom_op|define, namespace: NS,
  //    default-name: function|module::function}
  void custom_op_helpers(const YamlNode& node) {
    if (!node.is_sequence()) {
      error(node, "'custom-op-helpers' is a list of {name, like, namespace} entries");
      return;
    }
    for (const YamlNode& item : node.items) {
      if (!item.is_mapping()) {
        error(item, "expected an entry with 'name' and 'like' (and optionally 'namespace')");
        continue;
      }
      CustomOpHelperEntry entry;
      bool named = false, liked = false, bad = false;
      for (const yaml::YamlEntry& field : item.entries) {
        const std::string& key = field.key.value;
        if (key == "name") {
          std::optional<std::string> v = text(field.value);
          if (v) entry.name = *v;
          named = true;
          bad = bad || !v;
        } else if (key == "like") {
          std::optional<std::string> v = one_of(field.value, std::to_array(kCustomOpHelperKinds));
          if (v) entry.like = *v;
          liked = true;
          bad = bad || !v;
        } else if (key == "namespace") {
          entry.namespace_name = text(field.value);
        } else if (key == "default-name") {
          entry.default_name = one_of(field.value, std::to_array(kDefaultNames));
          bad = bad || !entry.default_name;
        } else {
          error(field.key, fmt::format("unknown key '{}' in a custom-op-helpers entry (name, "
                                       "like, namespace, default-name)",
                                       key));
        }
      }
      if (!named || !liked) {
        error(item, fmt::format("a custom-op-helpers entry needs {}", named ? "'like'" : "'name'"));
      }
      if (!named || !liked || bad) continue;
      out_.config.custom_op_helpers.push_back(std::move(entry));
    }
  }

  // A path written in the config, taken from the config file's folder.
  std::string relative_to_config(const std::string& path) const {
    std::filesystem::path p(path);
    if (p.is_absolute()) return path;
    std::filesystem::path folder = std::filesystem::path(doc_.file).parent_path();
    return folder.empty() ? path : (folder / p).lexically_normal().string();
  }

  yaml::YamlDocument& doc_;
  ConfigLoad& out_;
  std::vector<std::string_view> rules_;
};

bool listed(const std::vector<std::string>& rules, std::string_view rule) {
  return std::any_of(rules.begin(), rules.end(),
                     [&](const std::string& r) { return r == rule || r == "all"; });
}

// Both from the working directory, so that a relative input and an absolute one (an editor's)
// match the same globs.
bool glob_matches(const std::string& glob, std::string_view path) {
  std::error_code ec;
  std::string p = std::filesystem::absolute(path, ec).lexically_normal().string();
  std::string g = std::filesystem::absolute(glob, ec).lexically_normal().string();
  return fnmatch(g.c_str(), p.c_str(), 0) == 0;
}

}  // namespace

bool is_url(std::string_view text) {
  const size_t colon = text.find("://");
  if (colon == 0 || colon == std::string_view::npos || colon + 3 >= text.size()) return false;
  return std::all_of(text.begin(), text.begin() + colon, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
  });
}

std::string_view rule_severity_name(RuleSeverity severity) {
  return severity == RuleSeverity::error     ? "error"
         : severity == RuleSeverity::warning ? "warning"
                                             : "off";
}

ConfigLoad load_config(std::string file, std::string text) {
  ConfigLoad out;
  out.config.file = file;
  yaml::YamlLoadResult yaml = yaml::load_yaml(std::move(file), std::move(text));
  for (Diagnostic& d : yaml.diagnostics) {
    if (d.severity == diagnostics::Severity::error) out.diagnostics.push_back(std::move(d));
  }
  if (yaml.document.root && !yaml.document.root->is_null()) {
    Reader(yaml.document, out).read(*yaml.document.root);
  }
  return out;
}

Config merge_command_line(Config config, const CommandLineRules& command_line) {
  if (!command_line.select.empty()) config.select = command_line.select;
  for (const std::string& rule : command_line.ignore) config.ignore.push_back(rule);
  return config;
}

bool rule_enabled(const Config& config, std::string_view rule, std::string_view path) {
  if (!config.select.empty() && !listed(config.select, rule)) return false;
  if (listed(config.ignore, rule)) return false;
  if (auto it = config.severity.find(rule);
      it != config.severity.end() && it->second == RuleSeverity::off)
    return false;
  for (const PathIgnore& p : config.per_path) {
    if (listed(p.rules, rule) && glob_matches(p.glob, path)) return false;
  }
  return true;
}

std::optional<diagnostics::Severity> configured_severity(const Config& config,
                                                         std::string_view rule) {
  auto it = config.severity.find(rule);
  if (it == config.severity.end() || it->second == RuleSeverity::off) return std::nullopt;
  return it->second == RuleSeverity::error ? diagnostics::Severity::error
                                           : diagnostics::Severity::warning;
}

void apply_config(const Config& config, std::vector<diagnostics::Diagnostic>& diagnostics) {
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    return d.rule != kRule && !d.location.file.empty() &&
           !rule_enabled(config, d.rule, d.location.file);
  });
}

std::string render_config(const Config& config) {
  auto list = [](const std::vector<std::string>& rules) {
    return fmt::format("[{}]", fmt::join(rules, ", "));
  };
  auto optional = [](const std::optional<std::string>& v, std::string_view none) {
    return v ? fmt::format("\"{}\"", *v) : std::string(none);
  };
  std::string out = fmt::format("# from: {}\n",
                                config.file.empty() ? "(no .schemac.yaml; defaults)" : config.file);
  out += fmt::format("select: {}\n", config.select.empty() ? "[all]" : list(config.select));
  out += fmt::format("ignore: {}\n", list(config.ignore));
  out += "severity:";
  out += config.severity.empty() ? " {}\n" : "\n";
  for (const auto& [rule, severity] : config.severity)
    out += fmt::format("  {}: {}\n", rule, rule_severity_name(severity));
  out += "per-path:";
  out += config.per_path.empty() ? " {}\n" : "\n";
  for (const PathIgnore& p : config.per_path)
    out += fmt::format("  \"{}\": {}\n", p.glob, list(p.rules));
  out += fmt::format("tags: {}\n",
                     optional(config.tags, "null  # tags.yaml beside each input, else built in"));
  out += fmt::format("profile: {}\n", optional(config.profile, "null  # chosen per file"));
  out += fmt::format("torch-version: {}\n", optional(config.torch_version, "null  # newest"));
  out += fmt::format("namespace: {}\n", optional(config.namespace_name, "null"));
  out += "custom-op-helpers:";
  out += config.custom_op_helpers.empty() ? " []\n" : "\n";
  for (const CustomOpHelperEntry& helper : config.custom_op_helpers) {
    out += fmt::format("  - name: \"{}\"\n    like: {}\n", helper.name, helper.like);
    if (helper.namespace_name)
      out += fmt::format("    namespace: \"{}\"\n", *helper.namespace_name);
    if (helper.default_name) out += fmt::format("    default-name: \"{}\"\n", *helper.default_name);
  }
  out += "exclude:";
  out += config.exclude.empty() ? " []\n" : "\n";
  for (const std::string& pattern : config.exclude) out += fmt::format("  - \"{}\"\n", pattern);
  out += fmt::format("docs-url: {}\n", optional(config.docs_url, "null  # no links to the rules"));
  if (!config.defines.empty()) out += "defines:\n";
  for (const auto& [name, value] : config.defines)
    out += fmt::format("  {}: \"{}\"\n", name, value);
  return out;
}

}  // namespace schemac::config
