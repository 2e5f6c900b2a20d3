#include "schemac/sources/scan.h"

#include "scan_internal.h"

namespace schemac::sources {

ScanResult scan_source(std::string_view text, Language language, const tokens::MacroTable* macros) {
  ScanResult result;
  if (language == Language::cpp) {
    tokens::MacroTable defined;
    tokens::TokenStream stream = tokens::lex_cpp(text, macros, &defined);
    find_cpp_registrations(stream, defined, result);
  } else {
    find_python_registrations(tokens::lex_python(text), result);
  }
  return result;
}

}  // namespace schemac::sources
