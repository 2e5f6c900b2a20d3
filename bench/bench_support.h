// Shared by the benchmark programs that read the PyTorch corpus.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace schemac::bench
