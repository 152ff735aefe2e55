#pragma once
// The `format`s the validator checks (draft-07 section 7.3), each as ajv-formats' "full" mode
// reads it; an unknown format is an annotation and passes.
#include <string_view>

namespace rpckit::validate {

// nullptr-safe: true when `format` is unknown.
bool matches_format(std::string_view format, std::string_view value);

}  // namespace rpckit::validate
