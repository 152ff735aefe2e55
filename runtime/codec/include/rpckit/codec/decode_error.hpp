#pragma once
// Where a decode failed, and why: "params.granted.events[2]: expected string".
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rpckit::codec {

// The JSON path of the value being decoded. Segments borrow their key text (wire keys are
// string literals of the generated code; map keys live in the JSON being decoded), so the
// path costs nothing until an error formats it.
class DecodePath {
 public:
  explicit DecodePath(std::string_view root = {}) : root_(root) {}

  void push_key(std::string_view key) { segments_.push_back({key, 0, false}); }
  void push_index(std::size_t index) { segments_.push_back({{}, index, true}); }
  void pop() { segments_.pop_back(); }

  // "params.granted.events[2]"; "(root)" for the empty path.
  std::string str() const;

  // RAII scopes for one path segment.
  class Key {
   public:
    Key(DecodePath& path, std::string_view key) : path_(path) { path_.push_key(key); }
    ~Key() { path_.pop(); }
    Key(const Key&) = delete;
    Key& operator=(const Key&) = delete;

   private:
    DecodePath& path_;
  };
  class Index {
   public:
    Index(DecodePath& path, std::size_t index) : path_(path) { path_.push_index(index); }
    ~Index() { path_.pop(); }
    Index(const Index&) = delete;
    Index& operator=(const Index&) = delete;

   private:
    DecodePath& path_;
  };

 private:
  struct Segment {
    std::string_view key;
    std::size_t index;
    bool is_index;
  };
  std::string_view root_;
  std::vector<Segment> segments_;
};

class DecodeError : public std::runtime_error {
 public:
  DecodeError(std::string path, std::string expected);

  const std::string& path() const noexcept { return path_; }
  // What was wrong at path(): "expected string", "missing required field", ...
  const std::string& expected() const noexcept { return expected_; }

 private:
  std::string path_;
  std::string expected_;
};

[[noreturn]] void fail(const DecodePath& path, std::string expected);

}  // namespace rpckit::codec
