#include "rpckit/codec/decode_error.hpp"

#include <algorithm>
#include <cctype>

namespace rpckit::codec {
namespace {

bool is_identifier(std::string_view key) {
  if (key.empty() || std::isdigit(static_cast<unsigned char>(key.front()))) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

}  // namespace

std::string DecodePath::str() const {
  std::string out(root_);
  for (const Segment& s : segments_) {
    if (s.is_index) {
      out += '[';
      out += std::to_string(s.index);
      out += ']';
    } else if (is_identifier(s.key)) {
      if (!out.empty()) out += '.';
      out += s.key;
    } else {
      // Keys that are not identifiers (map keys from the wire) are quoted, with `"` and `\`
      // escaped so that the path stays unambiguous (["a\"]"] is one key, not two segments).
      out += "[\"";
      for (char c : s.key) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += "\"]";
    }
  }
  return out.empty() ? std::string("(root)") : out;
}

DecodeError::DecodeError(std::string path, std::string expected)
    : std::runtime_error(path + ": " + expected),
      path_(std::move(path)),
      expected_(std::move(expected)) {}

void fail(const DecodePath& path, std::string expected) {
  throw DecodeError(path.str(), std::move(expected));
}

void DecodePath::reject(DecodeError error) const {
  if (sink_ == nullptr) throw error;
  sink_->push_back(std::move(error));
}

void reject(const DecodePath& path, std::string expected) {
  path.reject(DecodeError(path.str(), std::move(expected)));
}

}  // namespace rpckit::codec
