#pragma once
// Pattern: a schema `pattern`, matched by RE2 in time linear in the input and without
// recursion (std::regex recurses once per character and overflows the stack on long input).
// The generator translates the schema's ECMAScript source into RE2 syntax with its meaning
// kept (generator/src/lower/pattern.hpp); this holds both and compiles the RE2 text once.
#include <memory>
#include <string>
#include <string_view>

namespace rpckit::codec {

class Pattern {
 public:
  // `re2`: the translated pattern; `source`: the schema's text, for messages. A pattern that
  // does not compile throws std::invalid_argument (the generator has already compiled it).
  Pattern(std::string_view re2, std::string_view source);
  ~Pattern();
  Pattern(const Pattern&) = delete;
  Pattern& operator=(const Pattern&) = delete;

  // Whether the pattern matches somewhere in `utf8` (JSON Schema searches, it is not
  // anchored unless the pattern says so).
  bool search(std::string_view utf8) const;
  const std::string& source() const { return source_; }

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
  std::string source_;
};

}  // namespace rpckit::codec
