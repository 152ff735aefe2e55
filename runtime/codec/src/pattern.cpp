#include "rpckit/codec/pattern.hpp"

#include <stdexcept>

#include <re2/re2.h>

namespace rpckit::codec {

struct Pattern::Compiled {
  explicit Compiled(std::string_view re2, const RE2::Options& options) : re(re2, options) {}
  RE2 re;
};

namespace {
RE2::Options options() {
  RE2::Options o;  // UTF-8, leftmost-first, ^/$ at the ends of the text only
  o.set_log_errors(false);
  return o;
}
}  // namespace

Pattern::Pattern(std::string_view re2, std::string_view source)
    : compiled_(std::make_unique<Compiled>(re2, options())), source_(source) {
  if (!compiled_->re.ok()) {
    throw std::invalid_argument("pattern " + source_ + ": " + compiled_->re.error());
  }
}

Pattern::~Pattern() = default;

bool Pattern::search(std::string_view utf8) const {
  return RE2::PartialMatch(utf8, compiled_->re);
}

}  // namespace rpckit::codec
