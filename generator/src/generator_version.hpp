#pragma once
// The generator's version, as its banners, `rpckit --version` and the reference pages name
// it: the project's one number (CMake's project(VERSION), through rpckit/version.hpp), so the
// generator and the runtime it writes for are released together.
#include "rpckit/version.hpp"

namespace rpckit::gen {

inline constexpr const char* kGeneratorVersion = RPCKIT_VERSION_STRING;
// What generated code asks of the runtime it is compiled with: the same major.minor
// (rpckit/descriptors/runtime_version.hpp).
inline constexpr int kGeneratorMajor = RPCKIT_VERSION_MAJOR;
inline constexpr int kGeneratorMinor = RPCKIT_VERSION_MINOR;

}  // namespace rpckit::gen
