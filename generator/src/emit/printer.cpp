#include "emit/printer.hpp"

#include <stdexcept>

namespace rpckit::gen {

void Printer::put(char c) {
  if (c == '\n') {
    out_ += c;
    at_line_start_ = true;
    return;
  }
  if (at_line_start_) {
    out_.append(static_cast<std::size_t>(level_), ' ');
    at_line_start_ = false;
  }
  out_ += c;
}

void Printer::raw(std::string_view text) {
  for (char c : text) put(c);
}

void Printer::print(std::string_view text, Vars vars) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      put(text[i]);
      continue;
    }
    std::size_t end = text.find('$', i + 1);
    if (end == std::string_view::npos) throw std::logic_error("unterminated $var$ in template");
    std::string_view name = text.substr(i + 1, end - i - 1);
    i = end;
    if (name.empty()) {
      put('$');
      continue;
    }
    bool found = false;
    for (const auto& [key, value] : vars) {
      if (key != name) continue;
      for (char c : value) put(c);
      found = true;
      break;
    }
    if (!found) throw std::logic_error("template variable $" + std::string(name) + "$ not given");
  }
}

}  // namespace rpckit::gen
