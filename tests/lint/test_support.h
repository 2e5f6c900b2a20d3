// Small helpers shared by the lint tests: reading files and running the schemac binary.
#pragma once

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace schemac::lint_test {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

inline bool update_golden() {
  const char* flag = std::getenv("SCHEMAC_UPDATE_GOLDEN");
  return flag && std::string(flag) == "1";
}

}  // namespace schemac::lint_test
