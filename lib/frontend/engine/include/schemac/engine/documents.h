// What a door that lints reads: its arguments expanded into documents. `-` is stdin (named by
// --stdin-filename); a folder is searched for the files lint knows (YAML, C++ and Python) with
// lib/frontend/inputs' folder search (hidden folders and what .gitignore leaves out skipped, files
// in sorted order); a file named twice, however it is spelled, is read once. A file found in a
// folder (or given with --by-content) that is not text or that a code generator wrote is
// skipped, and one its config's `exclude:` names is left out when it is configured (engine.h's
// `configure`); one given by name that cannot be read as text is an error, whatever its
// language. Every document is named by lib/frontend/inputs' normal_path (`./pkg/ops.yaml` is
// `pkg/ops.yaml`), as every output names it. `schemac lint` reads its arguments so, and the
// language server its project's folder, so that both read the same files.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/config/provider.h"
#include "schemac/engine/engine.h"

namespace schemac::engine {

// A file lint reads when a folder search finds it: YAML, C++ or Python; neither a .schemac.yaml
// nor a tags.yaml (they are not inputs).
bool lint_reads(const std::string& path);

struct InputReading {
  std::string stdin_name;   // --stdin-filename
  bool by_content = false;  // files named are taken as if a folder search had found them
  size_t limit = 0;         // when not 0, a folder's search stops after this many files
  // Reads a file named (or found but unreadable): its text, or nothing once it has said why.
  // Unset: the file's bytes when they are text, silently nothing otherwise.
  std::function<std::optional<std::string>(const std::string& path, bool any_encoding)> read_named;
  std::function<std::string()> read_stdin;  // unset: `-` reads nothing
  // Told of each file left alone and why (--verbose); of an unusable stdin ("cannot read stdin:
  // WHY"); of a folder with nothing to lint ("nothing to lint in 'DIR'"). Each may be unset.
  std::function<void(const std::string& path, std::string_view why)> skipped;
  std::function<void(const std::string& message)> error;
  std::function<void(const std::string& message)> note;
};

struct Inputs {
  std::vector<Document> documents;
  std::vector<std::string> unreadable;  // "cannot read 'PATH'", "cannot read stdin"
  bool complete = true;                 // false when a folder's search stopped at the limit
};

Inputs read_inputs(const std::vector<std::string>& arguments, const InputReading& reading);

// The .schemac.yaml of each input (`forced`: --config), read as inputs are (binary and non-UTF-8
// text refused, with why).
config::ConfigProvider config_provider(const std::string& forced = "");

}  // namespace schemac::engine
