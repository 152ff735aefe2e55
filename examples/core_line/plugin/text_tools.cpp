#include "text_tools.hpp"

#include <cctype>

#include "trim.hpp"

namespace core_line_sample {
namespace {

ToolResult invalid(std::string message) { return {std::nullopt, "invalid_input", std::move(message)}; }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Reverses code points, not bytes, so UTF-8 stays UTF-8: each code point (a lead byte and
// its continuation bytes) is copied whole, from the last to the first.
std::string reverse_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t end = text.size();
  while (end > 0) {
    std::size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    out.append(text, start, end - start);
    end = start;
  }
  return out;
}

std::string squeeze(const std::string& text) {  // runs of whitespace become one space
  std::string out;
  for (char c : text) {
    if (is_space(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::string> text_of(const nlohmann::json& input) {
  if (!input.is_object() || !input.contains("text") || !input["text"].is_string()) return std::nullopt;
  return input["text"].get<std::string>();
}

ToolResult transform(const nlohmann::json& input) {
  auto text = text_of(input);
  if (!text) return invalid("input.text must be a string");
  if (!input.contains("ops") || !input["ops"].is_array()) return invalid("input.ops must be an array");
  std::string out = *text;
  for (const auto& op : input["ops"]) {
    std::string name = op.is_string() ? op.get<std::string>() : op.dump();
    if (name == "upper" || name == "lower") {
      for (char& c : out) {
        c = static_cast<char>(name == "upper" ? std::toupper(static_cast<unsigned char>(c))
                                              : std::tolower(static_cast<unsigned char>(c)));
      }
    } else if (name == "reverse") {
      out = reverse_utf8(out);
    } else if (name == "trim") {
      out = trim(out);
    } else if (name == "squeeze") {
      out = squeeze(out);
    } else {
      return invalid("unknown op " + name + " (upper, lower, reverse, trim, squeeze)");
    }
  }
  return {nlohmann::json{{"text", out}}, {}, {}};
}

ToolResult stats(const nlohmann::json& input) {
  auto text = text_of(input);
  if (!text) return invalid("input.text must be a string");
  std::size_t chars = 0, words = 0, lines = text->empty() ? 0 : 1;
  bool in_word = false;
  for (char c : *text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;
    if (c == '\n') ++lines;
    if (is_space(c)) {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++words;
    }
  }
  if (!text->empty() && text->back() == '\n') --lines;
  return {nlohmann::json{{"chars", chars}, {"words", words}, {"lines", lines}}, {}, {}};
}

}  // namespace

ToolResult run_tool(const std::string& tool_name, const nlohmann::json& input) {
  if (tool_name == "text.transform") return transform(input);
  if (tool_name == "text.stats") return stats(input);
  return {std::nullopt, "not_found", "this plugin has no tool \"" + tool_name + "\""};
}

}  // namespace core_line_sample
