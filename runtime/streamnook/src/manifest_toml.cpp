#include "manifest_toml.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
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
    const bool container =
        node.type() == toml::node_type::table || node.type() == toml::node_type::array;
    if (container && depth > codec::kMaxJsonDepth) {
      return unconvertible(node, "", path, "is nested deeper than " +
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
        return unconvertible(node, std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf"), path,
                             "is not a finite number, which JSON cannot hold");
      }
      case toml::node_type::boolean:
        return node.as_boolean()->get();
      case toml::node_type::date:
        return date_time(node, node.as_date()->get(), path);
      case toml::node_type::time:
        return date_time(node, node.as_time()->get(), path);
      case toml::node_type::date_time:
        return date_time(node, node.as_date_time()->get(), path);
      case toml::node_type::none:
        break;
    }
    return unconvertible(node, "", path, "is a TOML value with no JSON form");
  }

 private:
  template <class DateOrTime>
  json date_time(const toml::node& node, const DateOrTime& value, const std::string& path) {
    std::ostringstream text;
    text << value;
    return unconvertible(node, text.str(), path,
                         "is a TOML date/time, which a manifest never holds (quote it if a "
                         "string is meant)");
  }

  // Reported with the value's TOML text (it has no JSON text); null stands in for it.
  json unconvertible(const toml::node& node, std::string toml_text, const std::string& path,
                     std::string rule) {
    const toml::source_position& at = node.source().begin;
    out_.issues.push_back({path, std::move(toml_text), std::move(rule), at.line, at.column});
    out_.unconvertible.insert(path);
    return nullptr;
  }

  TomlConversion& out_;
};

// Where the value at `path` (as DecodePath spells it: a.b, a[2], a["k"]) starts in the text;
// for a value that is not there (a missing member), where its nearest ancestor starts; 1:1
// for the top level. Found by walking the parsed document, only for the few paths that have
// an issue (a position per value would cost more than the document itself).
std::pair<std::size_t, std::size_t> locate(const toml::table& document, std::string_view path) {
  const toml::node* node = &document;
  std::pair<std::size_t, std::size_t> at{1, 1};
  std::size_t i = 0;
  while (i < path.size()) {
    const toml::node* next = nullptr;
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path.substr(i, 2) == "[\"") {  // a quoted key, \" and \\ escaped
      std::string key;
      std::size_t k = i + 2;
      for (; k < path.size() && path[k] != '"'; ++k) {
        if (path[k] == '\\' && k + 1 < path.size()) ++k;
        key += path[k];
      }
      i = k + 2;
      if (const toml::table* table = node->as_table()) next = table->get(key);
    } else if (path[i] == '[') {
      std::size_t close = path.find(']', i);
      if (close == std::string_view::npos || close == i + 1 || close - i > 10) break;
      std::size_t index = 0;
      for (char c : path.substr(i + 1, close - i - 1)) {
        if (c < '0' || c > '9') return at;
        index = index * 10 + static_cast<std::size_t>(c - '0');
      }
      i = close + 1;
      if (const toml::array* array = node->as_array()) next = array->get(index);
    } else {
      std::size_t end = std::min(path.find_first_of(".[", i), path.size());
      if (const toml::table* table = node->as_table()) next = table->get(path.substr(i, end - i));
      i = end;
    }
    if (next == nullptr) break;
    node = next;
    if (const toml::source_position& begin = node->source().begin; begin.line != 0) {
      at = {begin.line, begin.column};
    }
  }
  return at;
}

}  // namespace

std::pair<std::size_t, std::size_t> TomlConversion::position_of(std::string_view path) const {
  return locator ? locator(path) : std::pair<std::size_t, std::size_t>{1, 1};
}

TomlConversion toml_to_json(std::string_view text, std::string_view source_name) {
  TomlConversion out;
  if (auto problem = nesting_problem(text)) {
    out.issues.push_back({std::string(source_name), "", "is nested too deeply: " + *problem});
    return out;
  }
  auto document = std::make_shared<toml::table>();
  try {
    *document = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    const toml::source_position& at = e.source().begin;
    out.issues.push_back({std::string(source_name), "",
                          "TOML syntax error at " + std::to_string(at.line) + ":" +
                              std::to_string(at.column) + ": " + std::string(e.description()),
                          at.line, at.column});
    return out;
  }
  Converter converter(out);
  out.json = converter.convert(*document, "");
  out.locator = [document](std::string_view path) { return locate(*document, path); };
  return out;
}

}  // namespace rpckit::streamnook::manifest_detail
