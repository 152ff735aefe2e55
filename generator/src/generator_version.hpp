#pragma once
// The generator's version, as its banners, `rpckit --version` and the reference pages name
// it: the project's one number (CMake's project(VERSION), through rpckit/version.hpp), so the
// generator and the runtime it writes for are released together.
#include "rpckit/version.hpp"

namespace rpckit::gen {

inline constexpr const char* kGeneratorVersion = RPCKIT_VERSION_STRING;

}  // namespace rpckit::gen
