#pragma once
// What validation reports: where in the instance, which schema keyword, what it expected and
// what it found.
#include <cstdint>
#include <string>
#include <vector>

namespace rpckit::validate {

struct Violation {
  enum class Severity : std::uint8_t { kError, kWarning };
  Severity severity = Severity::kError;
  std::string instance;  // JSON pointer into the validated value ("" = the value itself)
  std::string schema;    // the failing keyword: "messages/notify.json#/definitions/.../enum"
  std::string keyword;   // "enum", "required", "type", ... (or a protocol rule: "id", "direction")
  std::string expected;  // "one of \"info\", \"warning\", \"error\""
  std::string found;     // "\"debug\""

  // "expected one of ..., found \"debug\"" (or `expected` alone when nothing was found).
  std::string message() const;
};

using Violations = std::vector<Violation>;

// Whether any violation is an error (warnings alone leave a value valid).
bool has_errors(const Violations& violations);

}  // namespace rpckit::validate
