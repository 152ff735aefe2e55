#pragma once
// Reading annotation values (x-profile, x-exchange, x-deadline, x-errors): strings from a
// fixed set and names of the protocol's constants and errors. Each throws SchemaError at the
// node, showing the value and what would have been accepted.
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "ir/ir.hpp"
#include "model.hpp"

namespace rpckit::gen {

std::string string_of(const Node& n);
// `n` must be one of `allowed`; returns its index.
std::size_t one_of(const Node& n, std::initializer_list<std::string_view> allowed);
// `n` must be an object whose every key is in `keys`; another fails as "unknown <what>".
void only_keys(const Node& n, std::span<const std::string_view> keys, const char* what);
// The C++ name of the integer constant `n` names.
std::string integer_constant(const Node& n, const ir::Module& m);
// The C++ name of the constant `n` names, of the kind a timing needs.
std::string timing_constant(const Node& n, ir::Profile::Timing::Kind kind, const ir::Module& m);
// The enumerator (kName) of the error `n` names in `codes`, the x-error-codes enum.
std::string error_enumerator(const Node& n, const ir::TypeDecl& codes);

}  // namespace rpckit::gen
