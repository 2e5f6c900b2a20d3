// Small helpers for the scanner tests: scan a snippet, and read back what was found.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "schemac/sources/scan.h"

namespace schemac::sources::test {

inline ScanResult scan_cpp(std::string_view text) { return scan_source(text, Language::cpp); }
inline ScanResult scan_python(std::string_view text) { return scan_source(text, Language::python); }

inline std::vector<std::string> texts(const ScanResult& result) {
  std::vector<std::string> out;
  for (const FoundSchema& found : result.schemas) out.push_back(found.text.text());
  return out;
}

// "line:column" of a position, for readable failures.
inline std::string at(tokens::SourcePosition position) {
  return std::to_string(position.line) + ":" + std::to_string(position.column);
}

}  // namespace schemac::sources::test
