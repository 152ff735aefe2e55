#pragma once
// A small Printer in the manner of protobuf's: `$var$` substitution and RAII indentation.
#include <initializer_list>
#include <string>
#include <string>
#include <string_view>
#include <utility>

namespace rpckit::gen {

class Printer {
 public:
  // Values are owned copies: a view of a temporary (`{"x", a + b}`) would dangle.
  using Vars = std::initializer_list<std::pair<std::string_view, std::string>>;

  // Appends `text` with every `$name$` replaced from `vars` ("$$" is a literal '$'). Each
  // line started here is indented by the current level; blank lines stay empty.
  void print(std::string_view text, Vars vars = {});
  // Appends `text` as is (no substitution), still indented.
  void raw(std::string_view text);

  class Indent {
   public:
    explicit Indent(Printer& p) : p_(p) { p_.level_ += 2; }
    ~Indent() { p_.level_ -= 2; }
    Indent(const Indent&) = delete;
    Indent& operator=(const Indent&) = delete;

   private:
    Printer& p_;
  };

  const std::string& str() const { return out_; }
  // Columns a line started now is indented by.
  int indent() const { return level_; }

 private:
  void put(char c);

  std::string out_;
  int level_ = 0;
  bool at_line_start_ = true;
};

}  // namespace rpckit::gen
