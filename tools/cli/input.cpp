#include "input.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli.h"

namespace schemac::cli {
namespace {

namespace fs = std::filesystem;

// The length of the well-formed UTF-8 sequence at text[i] (shortest form, no surrogates, at
// most U+10FFFF), or 0 when the bytes there are not one.
size_t utf8_sequence_length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned c = byte(i);
  if (c < 0x80) return 1;
  const size_t n = c >= 0xf5 ? 0 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  if (n == 3 && c == 0xe0 && byte(i + 1) < 0xa0) return 0;   // overlong
  if (n == 3 && c == 0xed && byte(i + 1) >= 0xa0) return 0;  // a UTF-16 surrogate
  if (n == 4 && c == 0xf0 && byte(i + 1) < 0x90) return 0;   // overlong
  if (n == 4 && c == 0xf4 && byte(i + 1) >= 0x90) return 0;  // above U+10FFFF
  return n;
}

std::string where(std::string_view text, size_t offset) {
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return fmt::format("line {}, column {}", line, offset - line_start + 1);
}

}  // namespace

std::optional<std::string> read_file(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

std::string why_not_text(std::string_view text, bool any_encoding) {
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\0')
      return fmt::format("it holds a NUL byte at {} (a binary file?)", where(text, i));
    if (any_encoding) {
      ++i;
      continue;
    }
    const size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      return fmt::format("it is not UTF-8: byte 0x{:02x} at {}",
                         static_cast<unsigned char>(text[i]), where(text, i));
    }
    i += n;
  }
  return "";
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
  std::optional<std::string> text = read_file(path);
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

config::ConfigProvider config_provider(std::span<const diagnostics::RuleInfo> rules,
                                       const std::string& forced) {
  return config::ConfigProvider(
      forced, rules, [](const std::filesystem::path& path, std::string& why) {
        std::optional<std::string> text = read_file(path);
        why = text ? why_not_text(*text) : "no such file, or not readable";
        return why.empty() ? text : std::nullopt;
      });
}

}  // namespace schemac::cli
