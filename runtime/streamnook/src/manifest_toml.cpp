#include "manifest_toml.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include <toml++/toml.h>

#include "manifest_util.hpp"
#include "rpckit/codec/json_reader.hpp"

namespace rpckit::streamnook::manifest_detail {

namespace {

using nlohmann::json;

// toml++ recurses once per part of a dotted key (`a.b.c...`) and per nested table, so text
// from a stranger is measured before toml++ sees it. A small lexer (strings, comments) finds
// the dotted keys; a manifest needs three parts at most.
constexpr std::size_t kMaxKeyParts = 32;         // in one dotted key or table header
constexpr std::size_t kMaxDottedParts = 1024;    // in the whole file

std::optional<std::string> nesting_problem(std::string_view text) {
  std::size_t line = 1, run = 0, total = 0;
  bool after_key = false;  // the last token was a bare key or a string
  auto end_run = [&] {
    run = 0;
    after_key = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      end_run();
    } else if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      bool multiline = text.substr(i, 3) == std::string(3, c);
      std::size_t j = i + (multiline ? 3 : 1);
      for (; j < text.size(); ++j) {
        if (text[j] == '\n') {
          if (!multiline) break;  // a syntax error; toml++ will say so
          ++line;
        } else if (c == '"' && text[j] == '\\') {
          ++j;
        } else if (text[j] == c && (!multiline || text.substr(j, 3) == std::string(3, c))) {
          j += multiline ? 2 : 0;
          break;
        }
      }
      i = std::min(j, text.size() - 1);
      after_key = true;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') {
      after_key = true;
    } else if (c == '.') {
      if (!after_key) continue;
      after_key = false;
      if (++run > kMaxKeyParts - 1) {
        return "line " + std::to_string(line) + " has a dotted key of more than " +
               std::to_string(kMaxKeyParts) + " parts";
      }
      if (++total > kMaxDottedParts) {
        return "more than " + std::to_string(kMaxDottedParts) + " dotted key parts";
      }
    } else if (c != ' ' && c != '\t') {
      end_run();
    }
  }
  return std::nullopt;
}

class Converter {
 public:
  explicit Converter(TomlConversion& out) : out_(out) {}

  json convert(const toml::node& node, const std::string& path, std::size_t depth = 1) {
    if (const toml::source_position& at = node.source().begin; at.line != 0) {
      out_.positions.emplace(path, std::pair<std::size_t, std::size_t>(at.line, at.column));
    }
    const bool container =
        node.type() == toml::node_type::table || node.type() == toml::node_type::array;
    if (container && depth > codec::kMaxJsonDepth) {
      return unconvertible("", path, "is nested deeper than " +
                                         std::to_string(codec::kMaxJsonDepth) + " levels");
    }
    switch (node.type()) {
      case toml::node_type::table: {
        json object = json::object();
        for (auto&& [key, value] : *node.as_table()) {
          object[std::string(key.str())] = convert(value, child_path(path, key.str()), depth + 1);
        }
        return object;
      }
      case toml::node_type::array: {
        json array = json::array();
        const toml::array& items = *node.as_array();
        for (std::size_t i = 0; i < items.size(); ++i) {
          array.push_back(convert(items[i], index_path(path, i), depth + 1));
        }
        return array;
      }
      case toml::node_type::string:
        return node.as_string()->get();
      case toml::node_type::integer:
        return node.as_integer()->get();
      case toml::node_type::floating_point: {
        double v = node.as_floating_point()->get();
        if (std::isfinite(v)) return v;
        return unconvertible(std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf"), path,
                             "is not a finite number, which JSON cannot hold");
      }
      case toml::node_type::boolean:
        return node.as_boolean()->get();
      case toml::node_type::date:
        return date_time(node.as_date()->get(), path);
      case toml::node_type::time:
        return date_time(node.as_time()->get(), path);
      case toml::node_type::date_time:
        return date_time(node.as_date_time()->get(), path);
      case toml::node_type::none:
        break;
    }
    return unconvertible("", path, "is a TOML value with no JSON form");
  }

 private:
  template <class DateOrTime>
  json date_time(const DateOrTime& value, const std::string& path) {
    std::ostringstream text;
    text << value;
    return unconvertible(text.str(), path,
                         "is a TOML date/time, which a manifest never holds (quote it if a "
                         "string is meant)");
  }

  // Reported with the value's TOML text (it has no JSON text); null stands in for it.
  json unconvertible(std::string toml_text, const std::string& path, std::string rule) {
    auto [line, column] = out_.position_of(path);
    out_.issues.push_back({path, std::move(toml_text), std::move(rule), line, column});
    out_.unconvertible.insert(path);
    return nullptr;
  }

  TomlConversion& out_;
};

// The parent of a DecodePath-style path: "a.b" -> "a", "a[2]" -> "a", "a[\"k\"]" -> "a",
// "a" -> "" (escaped quotes inside a quoted key are skipped).
std::string_view parent_of(std::string_view path) {
  if (!path.empty() && path.back() == ']') {
    std::size_t open = path.rfind('[');
    if (path.size() >= 4 && path[path.size() - 2] == '"') {  // a["k"]: find the opening ["
      std::size_t i = path.size() - 3;
      // An escaped key never holds [" (its quote is \"), so the last [" opens it.
      while (i > 0 && !(path[i] == '"' && path[i - 1] == '[')) --i;
      open = i > 0 ? i - 1 : 0;
    }
    return path.substr(0, open == std::string_view::npos ? 0 : open);
  }
  std::size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

}  // namespace

std::pair<std::size_t, std::size_t> TomlConversion::position_of(std::string_view path) const {
  while (!path.empty()) {
    if (auto it = positions.find(std::string(path)); it != positions.end()) return it->second;
    path = parent_of(path);
  }
  return {1, 1};
}

TomlConversion toml_to_json(std::string_view text, std::string_view source_name) {
  TomlConversion out;
  if (auto problem = nesting_problem(text)) {
    out.issues.push_back({std::string(source_name), "", "is nested too deeply: " + *problem});
    return out;
  }
  toml::table document;
  try {
    document = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    const toml::source_position& at = e.source().begin;
    out.issues.push_back({std::string(source_name), "",
                          "TOML syntax error at " + std::to_string(at.line) + ":" +
                              std::to_string(at.column) + ": " + std::string(e.description()),
                          at.line, at.column});
    return out;
  }
  Converter converter(out);
  out.json = converter.convert(document, "");
  return out;
}

}  // namespace rpckit::streamnook::manifest_detail
