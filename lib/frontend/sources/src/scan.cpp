#include "schemac/sources/scan.h"

#include "scan_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/tokens/cpp_expansion.h"

namespace schemac::sources {

ScanResult scan_source(std::string_view text, Language language, const ScanOptions& options) {
  ScanResult result;
  if (language == Language::cpp) {
    std::vector<tokens::MacroDirective> directives;
    tokens::ExpansionBudget budget;
    tokens::TokenStream lexed = tokens::lex_cpp(text, options.macros, &directives, &budget);
    tokens::ExpandedCode code =
        tokens::expand_cpp(std::move(lexed), options.macros, directives, budget);
    if (code.stopped) {
      result.problems.push_back(
          {code.stopped->position, std::string(rules::macro_expansion_limit),
           "expanding '" + code.stopped->macro + "' makes " + code.stopped->reached +
               ": the file's macros are read as written from here on (a definition that grows "
               "without end, as a compiler's would stop at its own limit)"});
    } else if (budget.exhausted) {
      result.problems.push_back({budget.where, std::string(rules::macro_expansion_limit),
                                 "an #if expression's macros expand to " + budget.reached +
                                     ": that condition decides nothing"});
    }
    find_cpp_registrations(code.stream, result);
    tokens::CppScopes scopes = tokens::read_cpp_scopes(code.stream);
    for (NamedOperator& impl : result.implementations)
      impl.cpp_scope = scopes.namespace_at(impl.position);
    result.functions = std::move(scopes.functions);
  } else {
    tokens::TokenStream stream = tokens::lex_python(text);
    // Another module's constants are known only with the other files: noted here, read again by
    // resolve_across_files.
    bool imports_constants = false;
    find_python_registrations(
        stream, options, result,
        [&](std::string_view, std::string_view) -> std::optional<std::string> {
          imports_constants = true;
          return std::nullopt;
        },
        true);
    if (imports_constants) {
      ScanOptions kept = options;
      kept.macros = nullptr;
      result.rescan =
          std::make_shared<PythonRescan>(PythonRescan{std::move(stream), std::move(kept)});
    }
  }
  return result;
}

std::optional<DefaultName> default_name(std::string_view text) {
  if (text == "function") return DefaultName::function;
  if (text == "module::function") return DefaultName::module_function;
  return std::nullopt;
}

std::optional<HelperKind> helper_kind(std::string_view like) {
  if (like == "custom_op") return HelperKind::custom_op;
  if (like == "triton_op") return HelperKind::triton_op;
  if (like == "direct_register_custom_op") return HelperKind::direct_register_custom_op;
  if (like == "define") return HelperKind::define;
  return std::nullopt;
}

}  // namespace schemac::sources
