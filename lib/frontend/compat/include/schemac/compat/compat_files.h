// compat over OLD and NEW as a front end gets them (`schemac compat`, a build system's check):
// each one native-functions YAML or C++ / Python registration code. Both are read with the
// .schemac.yaml of NEW's place (or --config): OLD is NEW as it was, often read through a pipe
// (`<(git show HEAD:bind.cpp)`), whose own place says nothing. Registration code is compared
// operator by operator through the YAML lib/frontend/adopt writes for it (read with that config's
// defines: and custom-op-helpers:, lib/frontend/engine), an entry without m.impl having no kernel,
// and its findings are placed back at the schema strings they came from. Then every finding
// goes through the suppression comments where it is and the config (select, ignore, severity,
// per-path), as lint's (lib/frontend/engine's settle).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/compat/compat.h"
#include "schemac/config/provider.h"
#include "schemac/engine/engine.h"
#include "schemac/sources/language.h"

namespace schemac::compat {

struct CompatFile {
  std::string path;
  std::string text;
  std::optional<sources::Language> language;  // registration code; nullopt: YAML
};

struct CompatFilesOptions {
  Date today;
  engine::BuildMacros macros;  // -D, -U, for registration code
  // Where NEW's .schemac.yaml is found (or --config's); null: none.
  config::ConfigProvider* configs = nullptr;
};

// The language of OLD or NEW: `forced` ("cpp", "python" or "yaml", --language) when given, else
// the name's extension, else the content (read through `<(git show HEAD:bind.cpp)`, a name says
// nothing). nullopt: YAML.
std::optional<sources::Language> input_language(std::string_view forced, std::string_view path,
                                                std::string_view text);

// Today's date in UTC, what allow-list expiry is checked against by default.
Date today_utc();
// Why `text` is not a date to check expiry against: "expected a date as YYYY-MM-DD, got 'X'";
// "" when it is one.
std::string date_problem(std::string_view text);

// The rules a report may carry, compat's then every other (the errors of a bad input file, what
// registration code leaves out, suppression comments), for a rule table (SARIF's).
const std::vector<diagnostics::RuleInfo>& report_rules();

// The report, its diagnostics sorted by place; nothing when a macro is malformed (`why` says so).
// What registration code leaves out of its YAML is said once: in NEW with its own severity (a
// schema that does not parse is that error, at its place), in OLD as `not-compared` (OLD's
// problems are not NEW's breaks). An unusable config gives its problems alone
// (`unusable_config`).
std::optional<CompatReport> check_compat_files(CompatFile old_file, CompatFile new_file,
                                               std::optional<CompatInput> allow_list,
                                               const CompatFilesOptions& options, std::string& why);

}  // namespace schemac::compat
