// Writing the files the commands produce (file_output.h).
#include "file_output.h"

#include <unistd.h>

#include <fstream>

#include <fmt/format.h>

namespace schemac::cli {

namespace fs = std::filesystem;

std::optional<std::string> replace_file(const fs::path& path, std::string_view content,
                                        bool keep_permissions) {
  fs::path temp = path;
  temp += fmt::format(".tmp{}", static_cast<long>(getpid()));
  std::error_code ec;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      fs::remove(temp, ec);
      return fmt::format("cannot write '{}'", temp.string());
    }
  }
  if (keep_permissions) fs::permissions(temp, fs::status(path, ec).permissions(), ec);
  fs::rename(temp, path, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(temp, ec);
    return fmt::format("cannot replace '{}': {}", path.string(), why);
  }
  return std::nullopt;
}

}  // namespace schemac::cli
