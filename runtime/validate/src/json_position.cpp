#include "rpckit/validate/json_position.hpp"

#include <string>
#include <vector>

#include "rpckit/codec/json_reader.hpp"

namespace rpckit::validate {
namespace {

std::vector<std::string> tokens(std::string_view pointer) {
  std::vector<std::string> out;
  if (pointer.empty()) return out;
  std::size_t start = 1;
  while (true) {
    const auto end = pointer.find('/', start);
    std::string token(pointer.substr(start, end == std::string_view::npos ? end : end - start));
    std::string unescaped;
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size()) {
        unescaped += token[++i] == '1' ? '/' : '~';
      } else {
        unescaped += token[i];
      }
    }
    out.push_back(std::move(unescaped));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

std::optional<std::size_t> locate(std::string_view text, std::string_view pointer) {
  try {
    codec::JsonReader reader(text);
    reader.peek();
    std::size_t found = reader.offset();
    for (const std::string& token : tokens(pointer)) {
      const auto kind = reader.peek();
      found = reader.offset();
      bool hit = false;
      if (kind == codec::JsonReader::Kind::kObject) {
        reader.begin_object();
        std::string key;
        while (reader.next_member(key)) {
          if (key == token) {
            hit = true;
            break;
          }
          reader.skip_value();
        }
      } else if (kind == codec::JsonReader::Kind::kArray) {
        reader.begin_array();
        std::size_t index = 0;
        while (reader.next_item()) {
          if (std::to_string(index++) == token) {
            hit = true;
            break;
          }
          reader.skip_value();
        }
      }
      if (!hit) return found;
    }
    reader.peek();
    return reader.offset();
  } catch (const codec::JsonError&) {
    return std::nullopt;
  }
}

TextPosition position_of(std::string_view text, std::size_t offset) {
  TextPosition p;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace rpckit::validate
