#include "schemac/sources/scan.h"

#include "scan_internal.h"

namespace schemac::sources {

ScanResult scan_source(std::string_view text, Language language) {
  ScanResult result;
  if (language == Language::cpp) {
    find_cpp_registrations(tokens::lex_cpp(text), result);
  } else {
    find_python_registrations(tokens::lex_python(text), result);
  }
  return result;
}

}  // namespace schemac::sources
