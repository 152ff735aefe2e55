#pragma once
// rpckit::mcp::UriTemplate: an RFC 6570 URI template read backwards, from a URI to the values
// of its variables (MCP's resource templates: resources/templates/list names them, and a
// resources/read of a URI they expand to is the server's to answer).
//
// What it takes, and what each expression matches (values are percent-decoded):
//   {var} {a,b}       one or more of: unreserved, %XX, and ! ' ( ) * (which encodeURIComponent,
//                     and so most clients, leave as they are); a comma between values
//   {+var}            one or more of any character a URI may hold (reserved expansion)
//   {#var}            "#" and a reserved value, or nothing (the variable is then absent)
//   {/var} {.var}     "/" or "." and a value, or nothing, for each variable
//   {?a,b} {&c}       at the end only: the URI's query, "a=x&b=y" in any order, each name at
//                     most once and none the template does not list; a `{&...}` continues a
//                     `{?...}`
// Not taken (the constructor throws std::invalid_argument saying where): explode (`*`) and
// prefix (`:n`) modifiers, path-style parameters `{;...}`, the operators RFC 6570 reserves, a
// variable named twice, a `{?...}` with a literal '?' before it.
//
// Matching never backtracks: the path part runs as an NFA with captures (a Pike VM), so a URI
// of n bytes costs O(n * template size) whatever its shape. Where a URI could split more than
// one way ({a}{b}), the earlier variable takes the most it can.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rpckit::mcp {

class UriTemplate {
 public:
  // A variable's name to its percent-decoded value; a variable the URI leaves out is absent.
  using Values = std::map<std::string, std::string, std::less<>>;

  explicit UriTemplate(std::string_view text);

  const std::string& text() const { return text_; }
  // Every variable, in the order the template names them.
  const std::vector<std::string>& variables() const { return variables_; }

  // The values when `uri` is an expansion of this template, or nothing.
  std::optional<Values> match(std::string_view uri) const;

 private:
  enum class Op : std::uint8_t { kByte, kClass, kSplit, kJump, kSave, kMatch };
  enum class CharClass : std::uint8_t { kValue, kReserved, kHex };
  struct Instruction {
    Op op;
    std::uint8_t byte = 0;  // kByte: the byte; kClass: the CharClass
    std::uint32_t x = 0;    // kSplit, kJump: the (preferred) target; kSave: the capture slot
    std::uint32_t y = 0;    // kSplit: the other target
  };
  class Compiler;
  class Machine;

  std::optional<Values> match_query(std::string_view query, Values values) const;

  std::string text_;
  std::vector<std::string> variables_;
  std::vector<std::string> path_variables_;  // capture slots 2i and 2i+1 are the i-th's
  std::vector<Instruction> program_;
  std::vector<std::string> query_names_;  // the {?...} and {&...} variables
};

}  // namespace rpckit::mcp
