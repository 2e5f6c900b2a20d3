// The rule tables of the embedded documentation pages, read once into a map by rule id (see
// rule_help.h). Markdown is read only as far as those tables need: headings, `|` rows, anchors.
#include "schemac/rules/rule_help.h"

#include <map>

namespace schemac::rules {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

// A table row's cells, without the outer pipes; `\|` is a pipe inside a cell.
std::vector<std::string> cells(std::string_view row) {
  row = trim(row);
  if (row.starts_with('|')) row.remove_prefix(1);
  if (row.ends_with('|')) row.remove_suffix(1);
  std::vector<std::string> out(1);
  bool in_code = false;
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      out.back() += '|';
      ++i;
    } else if (row[i] == '`') {
      in_code = !in_code;
      out.back() += '`';
    } else if (row[i] == '|' && !in_code) {
      out.emplace_back();
    } else {
      out.back() += row[i];
    }
  }
  for (std::string& cell : out) cell = std::string(trim(cell));
  return out;
}

// Markdown as plain text: `<a id=...></a>` anchors dropped, `[text](link)` as text, `*x*` as x.
std::string plain(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with("<a ")) {
      const size_t end = text.find("</a>", i);
      if (end != std::string_view::npos) {
        i = end + 3;
        continue;
      }
    }
    if (text[i] == '[') {
      const size_t close = text.find("](", i);
      const size_t paren = close == std::string_view::npos ? close : text.find(')', close);
      if (close != std::string_view::npos && paren != std::string_view::npos &&
          text.substr(i, close - i).find('\n') == std::string_view::npos) {
        out += text.substr(i + 1, close - i - 1);
        i = paren;
        continue;
      }
    }
    if (text[i] == '*') continue;
    out += text[i];
  }
  return std::string(trim(out));
}

// The rule ids a table row's first cell names: its `<a id="ID">` anchors (a row may document
// several rules), else a lone `ID`. `anchored` says which.
std::vector<std::string> row_rule_ids(std::string_view first, bool& anchored) {
  std::vector<std::string> ids;
  for (size_t at = first.find("<a id=\""); at != std::string_view::npos;
       at = first.find("<a id=\"", at + 1)) {
    const size_t start = at + 7;
    const size_t end = first.find('"', start);
    if (end == std::string_view::npos) break;
    ids.emplace_back(first.substr(start, end - start));
  }
  anchored = !ids.empty();
  if (anchored) return ids;
  if (first.starts_with('*')) first = trim(first.substr(first.find('*', 1) + 1));  // *warning*
  if (first.size() > 2 && first.front() == '`' && first.back() == '`' &&
      first.find(' ') == std::string_view::npos)
    ids.emplace_back(first.substr(1, first.size() - 2));
  return ids;
}

// Calls `visit(id, anchored, page, section, header, row)` for every rule of every table row of
// every page.
template <typename Visit>
void for_each_rule_row(Visit&& visit) {
  for (const RuleDocPage& page : rule_doc_pages()) {
    std::string_view text = page.text;
    std::string section;
    std::vector<std::string> header;
    std::string_view previous;
    bool in_fence = false;
    while (!text.empty()) {
      const size_t end = text.find('\n');
      const std::string_view line = text.substr(0, end);
      text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
      if (line.starts_with("```")) in_fence = !in_fence;
      if (in_fence) continue;
      if (line.starts_with("#")) {
        section = plain(trim(line.substr(line.find_first_not_of('#'))));
        header.clear();
      } else if (line.starts_with("|---") || line.starts_with("| ---") ||
                 line.starts_with("|:--")) {
        header = cells(previous);
      } else if (line.starts_with("|") && !header.empty()) {
        std::vector<std::string> row = cells(line);
        bool anchored = false;
        for (const std::string& id : row_rule_ids(row.front(), anchored))
          visit(id, anchored, page.name, section, header, row);
      } else if (!line.starts_with("|")) {
        header.clear();
      }
      previous = line;
    }
  }
}

// Every documented rule's help, read from the pages once; the first table naming a rule wins.
const std::map<std::string, RuleHelp, std::less<>>& all_rule_help() {
  static const std::map<std::string, RuleHelp, std::less<>> all = [] {
    std::map<std::string, RuleHelp, std::less<>> out;
    std::map<std::string, bool, std::less<>> anchored_at;  // the entry came from an anchored row
    for_each_rule_row([&](const std::string& id, bool anchored, std::string_view page,
                          const std::string& section, const std::vector<std::string>& header,
                          const std::vector<std::string>& row) {
      // The first anchored row wins (a rule's own entry), else the first row naming it.
      if (auto it = anchored_at.find(id); it != anchored_at.end() && (it->second || !anchored))
        return;
      anchored_at[id] = anchored;
      const std::string& first = row.front();
      std::string severity = first.find("*warning*") != std::string::npos ? "warning"
                             : first.find("*note*") != std::string::npos  ? "note"
                                                                          : "error";
      for (size_t i = 1; i < row.size() && i < header.size(); ++i) {
        if (plain(header[i]) == "severity" && !row[i].empty()) severity = plain(row[i]);
      }
      RuleHelp help{id, std::string(page), section, ""};
      help.text = id + " (" + severity + "; docs/" + std::string(page) + ", \"" + section + "\")\n";
      for (size_t i = 1; i < row.size() && i < header.size(); ++i) {
        if (!row[i].empty() && plain(header[i]) != "severity")
          help.text += "  " + plain(header[i]) + ": " + plain(row[i]) + "\n";
      }
      out.insert_or_assign(id, std::move(help));
    });
    return out;
  }();
  return all;
}

}  // namespace

std::optional<RuleHelp> find_rule_help(std::string_view id) {
  const auto& all = all_rule_help();
  if (auto it = all.find(id); it != all.end()) return it->second;
  return std::nullopt;
}

std::vector<std::string> documented_rule_ids() {
  std::vector<std::string> ids;
  for (const auto& [id, help] : all_rule_help()) ids.push_back(id);
  return ids;
}

std::string docs_page_url(std::string_view docs_url, std::string_view page) {
  if (docs_url.empty()) return "";
  return std::string(docs_url) + (docs_url.ends_with('/') ? "" : "/") + std::string(page);
}

std::string rule_help_uri(std::string_view docs_url, std::string_view id) {
  if (docs_url.empty()) return "";
  std::optional<RuleHelp> help = find_rule_help(id);
  return docs_page_url(docs_url, help ? help->page : "lint-rules.md") + "#" + std::string(id);
}

}  // namespace schemac::rules
