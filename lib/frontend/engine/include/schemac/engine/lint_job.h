// `schemac lint FILE...` as one call, for every door that wants what lint reports for some files
// (the command line, a build system, a test): the arguments read (inputs.h), each document
// configured (its .schemac.yaml, or --config), a baseline recorded or applied (baseline_file.h),
// --fix's rounds (diagnostics/fixes.h) with the fixed texts handed to the caller to write or shown
// as a diff, the texts linted again (engine.h), the findings sorted, counted and cut at
// --max-errors. What lint says along the way goes to a LintSink as it happens, in the order lint
// prints it; the result is what its report is made of. The job writes no file itself: the
// caller's `write` does (replacing a file atomically is the command line's business), and reads
// through the caller's `read` when it has one, so that a reader's errors are the caller's words.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/diagnostics/fixes.h"
#include "schemac/engine/engine.h"

namespace schemac::engine {

// Where a job's messages go, as they happen. `schemac lint` prints each on stderr (a diff on
// stdout); a hook left unset drops its messages.
struct LintSink {
  // "cannot write 'X'; it is left as it was", "baseline 'X' is not usable: WHY", "cannot read
  // stdin: WHY", a document's unusable macros (--verbose).
  std::function<void(const std::string& message)> error;
  // "skipped 'X': WHY" (--verbose), "nothing to lint in 'DIR'", "stopped after N errors
  // (--max-errors); M more not shown".
  std::function<void(const std::string& message)> note;
  // What the run did: "recorded N findings in baseline 'X'", "fixed N problems, M fixes left out".
  std::function<void(const std::string& message)> done;
  // A note about a place ("FILE:LINE:COLUMN"): "skipped: WHY" for a registration call whose schema
  // is not a literal (--verbose), "fix for [RULE] left out: WHY".
  std::function<void(const std::string& place, const std::string& message)> note_at;
  // A problem of the run itself (engine.h): an unusable tags file or release.
  std::function<void(const Problem& problem)> problem;
  // --fix --diff: one fixed file's unified diff.
  std::function<void(const std::string& diff)> diff;
};

struct LintJob {
  std::vector<std::string> files;  // lint's arguments: files, folders, `-` for stdin
  std::string stdin_name;          // --stdin-filename
  bool by_content = false;         // --by-content
  std::string config_file;         // --config; empty: each input's nearest .schemac.yaml
  // --profile, --torch-version, --kind, --tags, --select / --ignore, -D / -U. `read_tags`, when
  // unset, reads through `read`.
  Options options;
  std::string native_functions_file;  // --native-functions: what a backend YAML's lists name
  std::string baseline_file;          // --baseline
  bool fix = false;                   // --fix: fix in rounds, then lint the fixed texts
  bool diff = false;      // --diff: fix, show each fixed file's diff, write nothing and stop there
  size_t max_errors = 0;  // --max-errors; 0: no limit
  bool verbose = false;   // tell of files skipped or excluded, and of calls lint cannot check
  // Reads an input (`what` is "" and `any_encoding` says whether any encoding will do), the tags
  // file ("tags file"), the baseline ("baseline") or the --native-functions file ("native
  // functions file"): its text, or nothing once it has said why. Unset: the file's bytes when
  // they are text, silently nothing otherwise.
  std::function<std::optional<std::string>(const std::string& path, std::string_view what,
                                           bool any_encoding)>
      read;
  std::function<std::string()> read_stdin;  // unset: `-` reads nothing
  // Replaces a fixed file; false when it could not (it is then left as it was). Unset: nothing
  // is written, and the result's sources hold the fixed texts.
  std::function<bool(const std::string& path, const std::string& text)> write;
  LintSink sink;
};

struct LintResult {
  // False when the job stopped before linting: the --native-functions file could not be read,
  // or the baseline could neither be read nor written (the sink was told why). There are then no
  // findings, and what is below tells only of the steps before.
  bool finished = true;
  // Every finding, the baseline's dropped, sorted by place; with `max_errors`, cut after that
  // many errors. Empty with `diff`, and after a baseline was recorded but for unusable configs.
  std::vector<Diagnostic> diagnostics;
  diagnostics::SourceFiles sources;      // each document's text as linted last, to show lines of
  diagnostics::DiagnosticCounts counts;  // of every finding, before the cut
  size_t files = 0;                      // the files linted (the last round's)
  size_t schemas = 0;                    // the schemas checked in them
  size_t errors_cut = 0;                 // the errors `max_errors` left out
  size_t fixed = 0;                      // fixes applied, all rounds together
  std::vector<diagnostics::SkippedFix> fixes_left_out;
  std::optional<size_t> baseline_recorded;  // findings recorded in a new baseline
  std::string docs_url;                     // the first configured document's `docs-url:`
  std::vector<std::string> unreadable;      // "cannot read 'PATH'", "cannot read stdin"
  sources::FormTally tally;                 // the registration code read, per form
  // An input, a config, a tags file or release, or a fixed file to write could not be used.
  bool io_error = false;
};

LintResult run_lint_job(const LintJob& job);

// Why `job` cannot run, as `schemac lint` says it, checked in this order: a --select or --ignore
// id that names no rule (with a did-you-mean), a malformed -D, --fix without --diff on stdin
// (there is no file to rewrite); "" when it can.
std::string lint_job_problem(const LintJob& job);

// `schemac lint --show-config`: the configuration each of `job.files` gets (its .schemac.yaml or
// `job.config_file`, merged with --select / --ignore) as YAML, after a "# for: FILE" line when
// there are several; the working directory's when no file is given. A file whose config cannot
// be used has no text; `problems` says why.
struct ConfigListing {
  std::string text;
  std::vector<Diagnostic> problems;
};
ConfigListing list_configs(const LintJob& job);

}  // namespace schemac::engine
