// The rule pages of docs/ checked against the rule table: the program never reads them, so each
// rule table row that documents a rule (`<a id="ID"></a>` in its first cell) must say the
// severity the table gives it (in the in-tree profile, where lint's rules are documented): its
// `severity` column when the table has one, else `*warning*` or `*note*` in the first cell, else
// an error, as each page says. A row documenting an id must be on its family's page.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schemac/rules/rule_help.h"
#include "schemac/rules/rules.h"

namespace schemac::rules {
namespace {

namespace fs = std::filesystem;

const fs::path kDocs = fs::path(SCHEMAC_SOURCE_DIR) / "docs";

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trim(std::string text) {
  const size_t begin = text.find_first_not_of(" \t");
  const size_t end = text.find_last_not_of(" \t\r");
  return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

// A table row's cells, without the outer pipes (a pipe inside backquotes or after '\' is text).
std::vector<std::string> cells(std::string row) {
  row = trim(row);
  if (row.starts_with('|')) row.erase(0, 1);
  if (row.ends_with('|')) row.pop_back();
  std::vector<std::string> out(1);
  bool code = false;
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      out.back() += row[++i];
    } else if (row[i] == '|' && !code) {
      out.emplace_back();
    } else {
      if (row[i] == '`') code = !code;
      out.back() += row[i];
    }
  }
  for (std::string& cell : out) cell = trim(cell);
  return out;
}

struct DocumentedRule {
  std::string id;
  std::string page;
  size_t line = 0;
  std::string severity;  // as the row says it
};

// Every rule a table row of `page` documents, with the severity the row gives it.
std::vector<DocumentedRule> documented_rules(const std::string& page) {
  std::vector<DocumentedRule> out;
  std::istringstream text(read(kDocs / page));
  std::string line, previous;
  std::vector<std::string> header;
  bool fence = false;
  static const std::regex kAnchor(R"re(<a id="([^"]+)"></a>)re");
  for (size_t number = 1; std::getline(text, line); ++number, previous = line) {
    if (line.starts_with("```")) fence = !fence;
    if (fence) continue;
    if (line.starts_with("|---") || line.starts_with("| ---") || line.starts_with("|:--")) {
      header = cells(previous);
      continue;
    }
    if (!line.starts_with("|")) {
      header.clear();
      continue;
    }
    if (header.empty()) continue;
    const std::vector<std::string> row = cells(line);
    std::string severity = row.front().find("*warning*") != std::string::npos ? "warning"
                           : row.front().find("*note*") != std::string::npos  ? "note"
                                                                              : "error";
    for (size_t i = 1; i < row.size() && i < header.size(); ++i)
      if (header[i] == "severity") severity = row[i];
    for (auto it = std::sregex_iterator(row.front().begin(), row.front().end(), kAnchor);
         it != std::sregex_iterator(); ++it)
      out.push_back({(*it)[1].str(), page, number, severity});
  }
  return out;
}

TEST(Docs, EachRuleRowSaysTheTablesSeverity) {
  size_t checked = 0;
  for (const char* page : {"lint-rules.md", "compat.md", "sources.md", "dispatch-inspect.md"}) {
    for (const DocumentedRule& documented : documented_rules(page)) {
      const RuleDef* rule = find_rule(documented.id);
      ASSERT_NE(rule, nullptr) << "docs/" << page << ":" << documented.line << " documents '"
                               << documented.id << "', which is no rule";
      EXPECT_EQ(doc_page(rule->family), page)
          << "docs/" << page << ":" << documented.line << ": '" << documented.id
          << "' belongs on docs/" << doc_page(rule->family);
      const Verdict in_tree = decide(*rule, {Profile::in_tree, {}, false, {}});
      const std::string expected = severity_text(*rule).substr(0, severity_text(*rule).find(' '));
      const std::string table = in_tree.severity ? expected : "";
      EXPECT_EQ(documented.severity, table)
          << "docs/" << page << ":" << documented.line << ": '" << documented.id
          << "' is documented as " << documented.severity << "; the rule table says "
          << severity_text(*rule);
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u) << "the pages' rule tables were not found";
}

// The check can fail: a page whose row says error for a warning is caught.
TEST(Docs, TheSeverityCheckReadsTheMarkers) {
  const std::vector<std::string> row =
      cells("| *warning* <a id=\"out-name\"></a>`out-name` | 1.12 | `a|b` in code | why |");
  ASSERT_EQ(row.size(), 4u);
  EXPECT_EQ(row[2], "`a|b` in code");
}

}  // namespace
}  // namespace schemac::rules
