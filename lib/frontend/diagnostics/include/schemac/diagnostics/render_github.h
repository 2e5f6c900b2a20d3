// `--format github`: diagnostics as GitHub Actions' workflow commands, which the Actions runner
// shows as annotations on the pull request's files.
#pragma once

#include <span>
#include <string>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::diagnostics {

// GitHub Actions workflow commands, one line per diagnostic: `::error file=F,line=L,col=C,
// endLine=..,endColumn=..,title=RULE::MESSAGE [RULE]` (warning, notice), with the commands'
// escapes (%, CR, LF; in properties also ':' and ',').
std::string render_github(std::span<const Diagnostic> diagnostics);

}  // namespace schemac::diagnostics
