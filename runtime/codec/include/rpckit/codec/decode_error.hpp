#pragma once
// Where a decode failed, and why: "params.granted.events[2]: expected string".
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rpckit::codec {

class DecodeError;

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

  // Collect mode: a decode that meets a problem records it in `sink` and goes on with the
  // next member, array item or constraint instead of stopping at the first (what a validator
  // or a manifest loader reports). A member that failed is left at its default. Not
  // collecting (nullptr, the default), the first problem throws.
  void collect_into(std::vector<DecodeError>* sink) { sink_ = sink; }
  bool collecting() const { return sink_ != nullptr; }
  std::size_t problems() const;  // recorded so far (0 when not collecting)
  // Parts that could not be decoded at all (a wrong kind, a missing member), so far; a
  // broken rule (pattern, length, strict enum) leaves a decoded value and is not counted.
  std::size_t failures() const { return failures_; }

  // Strict enums: a value the schema does not list is a problem at its path instead of being
  // kept as unknown. Off by default: a protocol's enums are open (a newer peer may send more);
  // a validator or a closed list (the manifest's capabilities) turns it on.
  void set_strict_enums(bool strict) { strict_enums_ = strict; }
  bool strict_enums() const { return strict_enums_; }
  // Records `error` (collecting) or throws it.
  void reject(DecodeError error) const;

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
  std::vector<DecodeError>* sink_ = nullptr;
  std::size_t failures_ = 0;
  bool strict_enums_ = false;

  template <class F>
  friend bool contained(DecodePath& path, F&& decode_part);
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

inline std::size_t DecodePath::problems() const { return sink_ != nullptr ? sink_->size() : 0; }

// Throws DecodeError at `path`, collecting or not: what follows cannot be decoded.
[[noreturn]] void fail(const DecodePath& path, std::string expected);
// A problem what follows does not depend on (a constraint): recorded when collecting, else
// thrown.
void reject(const DecodePath& path, std::string expected);

// Runs `decode_part` (one member or item); when collecting, a DecodeError it throws is
// recorded, so the caller goes on. True when it produced a value: a part that, or one of
// whose own parts, could not be decoded did not (its constraints are not checked, an optional
// one stays empty); a part that only broke rules did (its other rules are still checked, so
// an unlisted item and a repeated one are both reported).
template <class F>
bool contained(DecodePath& path, F&& decode_part) {
  if (!path.collecting()) {
    decode_part();
    return true;
  }
  const std::size_t before = path.failures_;
  try {
    decode_part();
  } catch (const DecodeError& e) {
    path.reject(e);
    ++path.failures_;
  }
  return path.failures_ == before;
}

}  // namespace rpckit::codec
