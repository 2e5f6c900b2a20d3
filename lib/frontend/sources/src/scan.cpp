#include "schemac/sources/scan.h"

#include "scan_internal.h"

namespace schemac::sources {

ScanResult scan_source(std::string_view text, Language language, const ScanOptions& options) {
  ScanResult result;
  if (language == Language::cpp) {
    tokens::MacroTable defined;
    tokens::TokenStream stream = tokens::lex_cpp(text, options.macros, &defined);
    find_cpp_registrations(stream, defined, result);
  } else {
    find_python_registrations(tokens::lex_python(text), options, result);
  }
  return result;
}

std::optional<HelperKind> helper_kind(std::string_view like) {
  if (like == "custom_op") return HelperKind::custom_op;
  if (like == "triton_op") return HelperKind::triton_op;
  if (like == "direct_register_custom_op") return HelperKind::direct_register_custom_op;
  if (like == "define") return HelperKind::define;
  return std::nullopt;
}

}  // namespace schemac::sources
