#include "input.h"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "cli.h"
#include "schemac/inputs/text.h"
#include "schemac/support/files.h"

namespace schemac::cli {

namespace fs = std::filesystem;

std::string why_not_text(std::string_view text, bool any_encoding) {
  return inputs::why_not_text(text, any_encoding);
}

std::optional<std::string> read_input(std::string_view command, const std::string& path,
                                      std::string_view what, bool any_encoding) {
  const std::string name =
      what.empty() ? fmt::format("'{}'", path) : fmt::format("{} '{}'", what, path);
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) {
    error(command, "cannot read {}: no such file", name);
    return std::nullopt;
  }
  if (fs::is_directory(status)) {
    error(command, "cannot read {}: it is a directory", name);
    return std::nullopt;
  }
  errno = 0;
  std::optional<std::string> text = support::read_file(path);
  if (!text) {
    error(command, "cannot read {}: {}", name, errno != 0 ? std::strerror(errno) : "I/O error");
    return std::nullopt;
  }
  if (const std::string why = why_not_text(*text, any_encoding); !why.empty()) {
    error(command, "cannot read {}: {}", name, why);
    return std::nullopt;
  }
  return text;
}

std::vector<NumberedLine> non_blank_lines(std::istream& in) {
  std::vector<NumberedLine> lines;
  uint32_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t\r\n\v\f") == std::string::npos) continue;
    lines.push_back({number, std::move(line)});
  }
  return lines;
}

}  // namespace schemac::cli
