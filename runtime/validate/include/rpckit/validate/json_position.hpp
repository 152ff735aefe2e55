#pragma once
// Where a JSON pointer's value starts in JSON text, for file:line:column diagnostics.
#include <cstddef>
#include <optional>
#include <string_view>

namespace rpckit::validate {

// Byte offset of the value `pointer` names in `text`, or of the deepest value on its way that
// exists (a missing member is reported at its object). nullopt when `text` is not JSON.
std::optional<std::size_t> locate(std::string_view text, std::string_view pointer);

struct TextPosition {
  std::size_t line = 1;    // 1-based
  std::size_t column = 1;  // 1-based, in bytes
};
TextPosition position_of(std::string_view text, std::size_t offset);

}  // namespace rpckit::validate
