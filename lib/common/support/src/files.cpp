#include "schemac/support/files.h"

#include <fstream>
#include <sstream>
#include <system_error>

namespace schemac::support {

std::optional<std::string> read_file(const std::filesystem::path& path, bool regular_only) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec || std::filesystem::is_directory(status)) return std::nullopt;
  if (regular_only && !std::filesystem::is_regular_file(status)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

}  // namespace schemac::support
