// Who answered, said in every format (render.h's answered_by and with_runtime).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>

#include "schemac/inspect/picture.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect::report {
namespace {

bool is_pytorch(const RuntimeInfo& info) { return info.runtime != "schemac"; }

// A YAML double-quoted scalar (a Mermaid front matter's title).
std::string yaml_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// Each DOT graph's title (`  label="...";`, the first label of each digraph) with `line` below.
std::string dot_with_line(const std::string& out, const std::string& line) {
  std::string result;
  bool titled = true;
  for (size_t start = 0; start < out.size();) {
    size_t end = out.find('\n', start);
    end = end == std::string::npos ? out.size() : end + 1;
    std::string text = out.substr(start, end - start);
    if (text.starts_with("digraph ")) titled = false;
    if (!titled && text.starts_with("  label=\"") && text.ends_with("\";\n")) {
      text.insert(text.size() - 3, "\\n" + dot_quoted(line).substr(1, dot_quoted(line).size() - 2));
      titled = true;
    }
    result += text;
    start = end;
  }
  return result;
}

}  // namespace

std::string answered_by(const RuntimeInfo& info, bool brief) {
  if (!is_pytorch(info)) return "";
  const std::string version = "PyTorch " + (info.torch_version.empty() ? "?" : info.torch_version);
  if (info.runtime == "python") {
    const std::string imports = fmt::format("{}", fmt::join(info.imports, ", "));
    if (brief)
      return fmt::format("{} in Python {}, with what Python registered", version,
                         info.python_version);
    return fmt::format(
        "answered by {} in Python {} ({}) after import torch{}{}: its C++ and Python "
        "registrations (libtorch: {})",
        version, info.python_version, info.python, imports.empty() ? "" : ", ", imports,
        info.library);
  }
  if (brief) return version + ", C++ registrations only (not Python's)";
  return fmt::format(
      "answered by {}'s C++ dispatcher (libtorch: {}): what Python registers (Meta "
      "kernels, prims, decompositions, torch.library, custom_op) is not in it; "
      "--runtime python reads it",
      version, info.library);
}

Json runtime_json(const RuntimeInfo& info) {
  Json json = {{"runtime", info.runtime}};
  if (!is_pytorch(info)) return json;
  json["torch_version"] = info.torch_version;
  json["library"] = info.library;
  json["python_registrations"] = info.runtime == "python";
  if (info.runtime == "python") {
    json["python"] = info.python;
    json["python_version"] = info.python_version;
    json["imports"] = info.imports;
  }
  json["answered_by"] = answered_by(info);
  return json;
}

std::string with_runtime(std::string out, std::string_view format,
                         const std::vector<RuntimeInfo>& runtimes, std::ostream& notes) {
  if (std::none_of(runtimes.begin(), runtimes.end(), is_pytorch)) return out;
  std::vector<std::string> lines, brief;
  for (const RuntimeInfo& info : runtimes) {
    if (!is_pytorch(info)) continue;
    lines.push_back(answered_by(info));
    brief.push_back(answered_by(info, /*brief=*/true));
  }
  if (format == "torch") {
    for (const std::string& line : lines) notes << "note: " << line << "\n";
    return out;
  }
  if (format == "json") {
    Json value = Json::parse(out, nullptr, /*allow_exceptions=*/false);
    Json who = runtimes.size() == 1 ? runtime_json(runtimes.front()) : Json::array();
    for (size_t i = 0; runtimes.size() > 1 && i < runtimes.size(); ++i)
      who.push_back(runtime_json(runtimes[i]));
    if (value.is_object()) value["runtime"] = who;
    if (value.is_array())
      for (Json& item : value)
        if (item.is_object()) item["runtime"] = who;
    return value.is_discarded() ? out : json_text(value) + "\n";
  }
  if (format == "dot") return dot_with_line(out, fmt::format("{}", fmt::join(brief, "; ")));
  if (format == "mermaid")
    return fmt::format("---\ntitle: {}\n---\n{}",
                       yaml_quoted(fmt::format("{}", fmt::join(brief, "; "))), out);
  std::string header;
  for (const std::string& line : lines) header += "# " + line + "\n";
  return header + out;
}

}  // namespace schemac::inspect::report
