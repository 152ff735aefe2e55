#include "lower/names.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace rpckit::gen {
namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

constexpr std::array<std::string_view, 97> kKeywords = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
    "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
    "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "final", "override",
    "import", "module"};

}  // namespace

bool is_cpp_keyword(std::string_view word) {
  return std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end();
}

std::string pascal_case(std::string_view text) {
  std::string out;
  bool upper = true;
  for (char c : text) {
    if (!is_word_char(c)) {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front()))) out = "V" + out;
  return out;
}

std::string constant_name(std::string_view text) { return "k" + pascal_case(text); }

std::string member_name(std::string_view wire) {
  std::string out;
  for (char c : wire) out += (is_word_char(c) || c == '_') ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front()))) out = "_" + out;
  if (is_cpp_keyword(out)) out += '_';
  return out;
}

std::string snake_case(std::string_view pascal) {
  std::string out;
  for (std::size_t i = 0; i < pascal.size(); ++i) {
    char c = pascal[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (i != 0) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

std::string direction_name(std::string_view from, std::string_view to) {
  return pascal_case(from) + "To" + pascal_case(to);
}

std::string handler_name(std::string_view role) { return pascal_case(role) + "Handler"; }

std::string client_name(std::string_view role) { return pascal_case(role) + "Client"; }

}  // namespace rpckit::gen
