#include "schemac/sources/scan.h"

#include "scan_internal.h"

namespace schemac::sources {

std::optional<Language> language_for_path(std::string_view path) {
  size_t dot = path.rfind('.');
  size_t slash = path.find_last_of("/\\");
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return std::nullopt;
  }
  std::string_view ext = path.substr(dot);
  for (std::string_view cpp : {".cpp", ".cc", ".cxx", ".cu", ".h", ".hpp", ".cuh"}) {
    if (ext == cpp) return Language::cpp;
  }
  if (ext == ".py") return Language::python;
  return std::nullopt;
}

ScanResult scan_source(std::string_view text, Language language, const ScanOptions& options) {
  ScanResult result;
  if (language == Language::cpp) {
    find_cpp_registrations(tokens::lex_cpp(text), result);
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
