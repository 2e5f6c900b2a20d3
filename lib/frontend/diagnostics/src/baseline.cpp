// Baseline files: keying findings by what they are, writing today's, reading them back, and
// excusing them.
#include "schemac/diagnostics/baseline.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "schemac/support/json.h"

namespace schemac::diagnostics {

using support::Json;

namespace {

constexpr size_t kTextLimit = 200;
constexpr size_t kMaxPairs = size_t{1} << 16;

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == ':';
}

// The lines of a file and where each operator is declared in it, found in one pass.
class OperatorIndex {
 public:
  explicit OperatorIndex(std::string_view text) : text_(text) {
    line_starts_.push_back(0);
    for (size_t at = 0; at < text.size();) {
      size_t nl = text.find('\n', at);
      size_t end = nl == std::string_view::npos ? text.size() : nl;
      scan_line(at, end);
      if (nl == std::string_view::npos) break;
      at = nl + 1;
      line_starts_.push_back(at);
    }
  }

  bool empty() const { return text_.empty(); }

  // The line's text without its break; empty past the end.
  std::string_view line(uint32_t number) const {
    if (number == 0 || number > line_starts_.size()) return {};
    size_t begin = line_starts_[number - 1];
    size_t end = number < line_starts_.size() ? line_starts_[number] : text_.size();
    std::string_view s = text_.substr(begin, end - begin);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  }

  // The operator declared nearest at or before line:column.
  std::string_view operator_at(uint32_t line, uint32_t column) const {
    if (line == 0 || line > line_starts_.size()) return {};
    size_t offset = line_starts_[line - 1] + (column > 0 ? column - 1 : 0);
    auto it = std::upper_bound(marks_.begin(), marks_.end(), offset,
                               [](size_t o, const Mark& m) { return o < m.offset; });
    return it == marks_.begin() ? std::string_view() : (it - 1)->name;
  }

 private:
  struct Mark {
    size_t offset;
    std::string_view name;
  };

  // The operator name at `at`, when one stands there followed by `(` (or, with `bare`, anything).
  std::string_view name_at(size_t at, size_t end, bool bare) const {
    size_t stop = at;
    while (stop < end && name_char(text_[stop])) ++stop;
    if (stop == at || (!bare && (stop == end || text_[stop] != '('))) return {};
    return text_.substr(at, stop - at);
  }

  // A YAML entry's `func:` or `op:` key, and string literals that open with `name(`.
  void scan_line(size_t begin, size_t end) {
    size_t k = begin;
    auto skip_blanks = [&] {
      while (k < end && (text_[k] == ' ' || text_[k] == '\t')) ++k;
    };
    skip_blanks();
    if (k < end && text_[k] == '-') {
      ++k;
      skip_blanks();
    }
    std::string_view rest = text_.substr(k, end - k);
    for (std::string_view key : {"func:", "op:"}) {
      if (!rest.starts_with(key)) continue;
      k += key.size();
      skip_blanks();
      if (k < end && (text_[k] == '"' || text_[k] == '\'')) ++k;
      if (std::string_view name = name_at(k, end, true); !name.empty())
        marks_.push_back({begin, name});
    }
    for (size_t q = begin; q < end; ++q) {
      if (text_[q] != '"' && text_[q] != '\'') continue;
      std::string_view name = name_at(q + 1, end, false);
      if (!name.empty() &&
          (marks_.empty() || marks_.back().name != name || marks_.back().offset < begin))
        marks_.push_back({q, name});
      q += name.size();
    }
  }

  std::string_view text_;
  std::vector<size_t> line_starts_;
  std::vector<Mark> marks_;
};

using Key = std::tuple<std::string, std::string, std::string, std::string>;

Key key_of(const BaselineEntry& e) { return {e.file, e.rule, e.op, e.text}; }

}  // namespace

std::vector<BaselineEntry> baseline_keys(std::span<const Diagnostic> diagnostics,
                                         const FileTextLookup& texts) {
  std::map<std::string, OperatorIndex, std::less<>> indexes;
  std::vector<BaselineEntry> keys;
  keys.reserve(diagnostics.size());
  for (const Diagnostic& d : diagnostics) {
    const Location& at = d.location;
    BaselineEntry key{at.file, d.rule, "", "", "", at.line};
    auto index = indexes.find(at.file);
    if (index == indexes.end() && at.line > 0) {
      std::string_view text = texts && !at.file.empty() ? texts(at.file) : std::string_view();
      index = indexes.emplace(at.file, OperatorIndex(text)).first;
    }
    if (at.line == 0 || index->second.empty()) {
      key.text = clip_text(d.message, kTextLimit);
      keys.push_back(std::move(key));
      continue;
    }
    key.op = std::string(index->second.operator_at(at.line, at.column));
    std::string_view line = index->second.line(at.line);
    size_t begin = std::min<size_t>(at.column > 0 ? at.column - 1 : 0, line.size());
    size_t length = at.end_line > at.line ? std::string_view::npos
                    : at.end_line == at.line && at.end_column > at.column
                        ? at.end_column - at.column
                        : 0;
    key.text = clip_text(line.substr(begin, length), kTextLimit);
    keys.push_back(std::move(key));
  }
  return keys;
}

std::string render_baseline(std::span<const Diagnostic> diagnostics, const FileTextLookup& texts) {
  std::vector<BaselineEntry> entries = baseline_keys(diagnostics, texts);
  std::sort(entries.begin(), entries.end(), [](const BaselineEntry& a, const BaselineEntry& b) {
    return std::tie(a.file, a.line, a.rule, a.op, a.text) <
           std::tie(b.file, b.line, b.rule, b.op, b.text);
  });
  std::string out = "{\"version\": 2, \"findings\": [";
  for (size_t i = 0; i < entries.size(); ++i) {
    const BaselineEntry& e = entries[i];
    out += i == 0 ? "\n  " : ",\n  ";
    out += support::to_json_text(Json{{"file", e.file},
                                      {"rule", e.rule},
                                      {"operator", e.op},
                                      {"text", e.text},
                                      {"line", e.line}});
  }
  return out + (entries.empty() ? "]}\n" : "\n]}\n");
}

std::optional<std::vector<BaselineEntry>> parse_baseline(std::string_view text,
                                                         std::string& error) {
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("findings") ||
      !doc["findings"].is_array()) {
    error = "not a schemac baseline (a JSON object with a \"findings\" array)";
    return std::nullopt;
  }
  const Json version = doc.value("version", Json(1));
  if (version != 1 && version != 2) {
    error = "version " + version.dump() + " is not one this schemac reads (1 or 2)";
    return std::nullopt;
  }
  auto is_string = [](const Json& f, const char* member) {
    return f.contains(member) && f[member].is_string();
  };
  std::vector<BaselineEntry> entries;
  for (const Json& f : doc["findings"]) {
    if (!f.is_object() || !is_string(f, "file") || !is_string(f, "rule")) {
      error = "a finding needs string \"file\" and \"rule\" members";
      return std::nullopt;
    }
    BaselineEntry e;
    e.file = f["file"].get<std::string>();
    e.rule = f["rule"].get<std::string>();
    if (version == 1) {
      if (!is_string(f, "message")) {
        error = "a version 1 finding needs a string \"message\" member";
        return std::nullopt;
      }
      e.message = f["message"].get<std::string>();
    } else {
      if (!is_string(f, "operator") || !is_string(f, "text") ||
          (f.contains("line") && !f["line"].is_number_unsigned())) {
        error = "a finding needs string \"operator\" and \"text\" members (and a line number)";
        return std::nullopt;
      }
      e.op = f["operator"].get<std::string>();
      e.text = f["text"].get<std::string>();
      e.line = f.value("line", 0u);
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

void drop_baselined(std::vector<Diagnostic>& diagnostics, std::span<const BaselineEntry> baseline,
                    const FileTextLookup& texts) {
  if (baseline.empty() || diagnostics.empty()) return;
  const std::vector<BaselineEntry> keys = baseline_keys(diagnostics, texts);
  std::vector<bool> excused(diagnostics.size(), false);
  // Version 1 entries: one excuse per (file, rule, message).
  std::map<std::tuple<std::string, std::string, std::string>, size_t> by_message;
  // Version 2 entries: the lines recorded per key.
  std::map<Key, std::vector<uint32_t>> recorded;
  for (const BaselineEntry& e : baseline) {
    if (!e.message.empty()) {
      ++by_message[{e.file, e.rule, e.message}];
    } else {
      recorded[key_of(e)].push_back(e.line);
    }
  }
  std::map<Key, std::vector<size_t>> today;
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    auto v1 = by_message.find({keys[i].file, keys[i].rule, diagnostics[i].message});
    if (v1 != by_message.end() && v1->second > 0) {
      --v1->second;
      excused[i] = true;
      continue;
    }
    today[key_of(keys[i])].push_back(i);
  }
  for (auto& [key, found] : today) {
    auto it = recorded.find(key);
    if (it == recorded.end()) continue;
    std::vector<uint32_t>& lines = it->second;
    if (found.size() <= lines.size()) {
      for (size_t i : found) excused[i] = true;
      continue;
    }
    // More today than recorded: pair each recorded line with the nearest finding still unpaired
    // (closest pairs first); the findings left over are the new ones. A key shared by thousands
    // of findings is paired in line order instead, to stay linear.
    if (found.size() * lines.size() > kMaxPairs) {
      for (size_t k = 0; k < lines.size(); ++k) excused[found[k]] = true;
      continue;
    }
    std::vector<std::tuple<uint64_t, size_t, size_t>> pairs;  // distance, recorded, found
    for (size_t r = 0; r < lines.size(); ++r) {
      for (size_t f = 0; f < found.size(); ++f) {
        uint32_t now = keys[found[f]].line;
        pairs.emplace_back(now > lines[r] ? now - lines[r] : lines[r] - now, r, f);
      }
    }
    std::sort(pairs.begin(), pairs.end());
    std::vector<bool> line_used(lines.size(), false);
    for (auto [distance, r, f] : pairs) {
      if (line_used[r] || excused[found[f]]) continue;
      line_used[r] = true;
      excused[found[f]] = true;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    if (excused[i]) continue;
    if (kept != i) diagnostics[kept] = std::move(diagnostics[i]);
    ++kept;
  }
  diagnostics.resize(kept);
}

}  // namespace schemac::diagnostics
