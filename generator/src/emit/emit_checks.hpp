#pragma once
// The constraint checks of decoded values (types.cpp): lengths, patterns, dates, ranges,
// item counts, uniqueness, recursively through arrays and maps.
#include <cstddef>
#include <map>
#include <string>

#include "emit/printer.hpp"
#include "ir/ir.hpp"

namespace rpckit::gen {

// Collects the patterns of one source file so each is compiled once.
class Patterns {
 public:
  // The expression that yields `pattern`'s compiled form.
  std::string use(const ir::Pattern& pattern);
  // Prints one function per pattern, in first-use order.
  void emit(Printer& p) const;

 private:
  struct Entry {
    std::size_t index;
    std::string source;
  };
  std::map<std::string, Entry> index_;  // by RE2 text
};

// Whether a value of type `t` (or its elements) has any constraint to check.
bool has_checks(const ir::TypeRef& t);
// Prints the constraint checks of one decoded value `expr` (path already points at it).
void emit_checks(Printer& p, Patterns& patterns, const ir::TypeRef& t, const std::string& expr,
                 int depth);

}  // namespace rpckit::gen
