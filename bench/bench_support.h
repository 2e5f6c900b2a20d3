// Shared by the benchmark programs that read the PyTorch corpus (SCHEMAC_CORPUS_DIR).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace schemac::bench {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// native_functions.yaml of the corpus, read once.
inline const std::string& corpus_native_functions() {
  static const std::string text = read_file(SCHEMAC_CORPUS_DIR "/native_functions.yaml");
  return text;
}

// The schema of each `- func: ` line of the corpus's native_functions.yaml, in file order.
inline std::vector<std::string> corpus_schemas() {
  std::vector<std::string> out;
  std::istringstream lines(corpus_native_functions());
  const std::string prefix = "- func: ";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
  }
  return out;
}

}  // namespace schemac::bench
