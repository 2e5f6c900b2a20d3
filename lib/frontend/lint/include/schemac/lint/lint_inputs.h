// The rules over all the files `schemac lint` is given together, YAML and registration code:
//   registration code   each schema found in C++/Python registration calls gets the schema
//                       checks and the signature rules (out=, in-place, names) of its profile
//                       (extension unless one is forced), and the sources' rules across files
//   duplicate-operator  an operator defined in one file is defined again in another (within one
//                       YAML file: duplicate-overload; among registration code:
//                       duplicate-definition)
//   impl-without-definition  an implementation in registration code of an operator that no file
//                       given defines, YAML included, with the closest defined name
#pragma once

#include <span>
#include <vector>

#include "schemac/lint/lint_rules.h"
#include "schemac/sources/registration_lint.h"

namespace schemac::lint {

using diagnostics::Diagnostic, native_functions::NativeFunctionsFile;

// The registration code's diagnostics, knowing the operators the YAML files define.
std::vector<Diagnostic> lint_registration_code(std::span<const sources::ScannedFile> files,
                                               std::span<const NativeFunctionsFile* const> yaml,
                                               const LintOptions& options);

// duplicate-operator over the YAML files (in the order given) and then the registration code.
std::vector<Diagnostic> check_duplicates_across_files(
    std::span<const NativeFunctionsFile* const> yaml, std::span<const sources::ScannedFile> files);

// What `schemac gen` checks before it writes: each file's rules (check_native_functions) and
// duplicate-operator across the files; the same rules `schemac lint` applies to those files.
std::vector<Diagnostic> check_native_functions_files(
    std::span<const NativeFunctionsFile* const> files, const LintOptions& options);

}  // namespace schemac::lint
