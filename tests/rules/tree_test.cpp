// The tree's use of the registry: a rule id is written as a string literal in one source file
// under lib/ and tools/, the registry's table, and everywhere else by its symbol
// (rules::unknown_type); every rule has its anchor in docs/, and every rule anchor of the rule
// pages names a rule.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schemac/rules/rules.h"

namespace schemac::rules {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = SCHEMAC_SOURCE_DIR;
const fs::path kTable =
    fs::path("lib") / "common" / "rules" / "include" / "schemac" / "rules" / "rule_table.h";

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_source(const fs::path& path) {
  static const std::set<std::string> kExtensions{".cpp", ".cc",  ".h",   ".hpp",
                                                 ".cu",  ".cuh", ".inc", ".def"};
  return kExtensions.contains(path.extension().string());
}

// Every "id" literal of a registry rule in `text`: id -> lines.
std::map<std::string, std::vector<size_t>> rule_literals(const std::string& text) {
  std::map<std::string, std::vector<size_t>> found;
  static const std::regex kLiteral(R"re("([a-z][a-z0-9]*(-[a-z0-9]+)*)")re");
  size_t line = 1, counted = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kLiteral);
       it != std::sregex_iterator(); ++it) {
    const size_t at = static_cast<size_t>(it->position(0));
    line += static_cast<size_t>(std::count(text.begin() + counted, text.begin() + at, '\n'));
    counted = at;
    if (find_rule((*it)[1].str())) found[(*it)[1].str()].push_back(line);
  }
  return found;
}

// The check itself, over any tree: "file:line: "id"" for each literal outside the table.
std::vector<std::string> literals_outside_table(const fs::path& root) {
  std::vector<std::string> problems;
  for (const char* top : {"lib", "tools"}) {
    if (!fs::exists(root / top)) continue;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / top)) {
      if (!entry.is_regular_file() || !is_source(entry.path())) continue;
      const fs::path relative = fs::relative(entry.path(), root);
      if (relative == kTable) continue;
      for (const auto& [id, lines] : rule_literals(read(entry.path())))
        for (size_t line : lines)
          problems.push_back(relative.string() + ":" + std::to_string(line) + ": \"" + id + "\"");
    }
  }
  return problems;
}

TEST(Tree, NoRuleIdLiteralOutsideTheRegistry) {
  const std::vector<std::string> problems = literals_outside_table(kRoot);
  std::string list;
  for (const std::string& p : problems) list += "\n  " + p;
  EXPECT_TRUE(problems.empty()) << "rule ids written as literals; report the rule by its symbol "
                                   "(rules::unknown_type) instead:"
                                << list;
}

TEST(Tree, TheTableWritesEachIdOnce) {
  const std::map<std::string, std::vector<size_t>> literals = rule_literals(read(kRoot / kTable));
  for (const RuleDef& rule : all_rules()) {
    auto it = literals.find(std::string(rule.id));
    ASSERT_NE(it, literals.end()) << rule.id;
    EXPECT_EQ(it->second.size(), 1u) << rule.id;
  }
}

// The check can fail: a literal in a file of a made-up tree is found, with its line.
TEST(Tree, TheLiteralCheckFindsALiteral) {
  const fs::path root = fs::temp_directory_path() / "schemac_rules_tree_test";
  fs::remove_all(root);
  fs::create_directories(root / "lib" / "x" / "src");
  std::ofstream(root / "lib" / "x" / "src" / "x.cpp")
      << "// a comment\nreport(\"unknown-type\", at);\nreport(\"not-a-rule\", at);\n";
  EXPECT_EQ(literals_outside_table(root),
            std::vector<std::string>{"lib/x/src/x.cpp:2: \"unknown-type\""});
  fs::remove_all(root);
}

// The anchors `<a id="...">` of a page.
std::set<std::string> anchors(const fs::path& page) {
  std::set<std::string> out;
  const std::string text = read(page);
  static const std::regex kAnchor(R"re(<a id="([^"]+)"></a>)re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kAnchor);
       it != std::sregex_iterator(); ++it)
    out.insert((*it)[1].str());
  return out;
}

TEST(Docs, EveryRuleHasItsAnchor) {
  std::map<std::string, std::set<std::string>> pages;
  for (const RuleDef& rule : all_rules()) {
    const std::string page(doc_page(rule.family));
    if (!pages.contains(page)) pages[page] = anchors(kRoot / "docs" / page);
    EXPECT_TRUE(pages[page].contains(std::string(rule.id)))
        << "docs/" << doc_anchor(rule) << ": no <a id=\"" << rule.id << "\"></a>";
  }
}

// lint-rules.md and compat.md anchor rules only; every anchor there names a rule of that page.
TEST(Docs, EveryDocumentedRuleExists) {
  for (const char* page : {"lint-rules.md", "compat.md"}) {
    for (const std::string& id : anchors(kRoot / "docs" / page)) {
      const RuleDef* rule = find_rule(id);
      ASSERT_NE(rule, nullptr) << "docs/" << page << " documents '" << id << "', no rule";
      EXPECT_EQ(doc_page(rule->family), page) << id;
    }
  }
}

}  // namespace
}  // namespace schemac::rules
