#pragma once
// Where something in a protocol's schema lives: a file relative to the protocol file's folder
// and a JSON pointer in it, as every diagnostic and every tool names it.
#include <string>

namespace rpckit::model {

// "types/channel.json#/properties/login"
struct Location {
  std::string file;
  std::string pointer;
  std::string str() const { return file + "#" + pointer; }
};

}  // namespace rpckit::model
