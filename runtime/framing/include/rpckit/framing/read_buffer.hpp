// The buffer the readers parse from: refilled a chunk at a time, consumed from the front.
// Public so that a further framing can reuse it; not needed by users of the readers.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "rpckit/framing/byte_io.hpp"

namespace rpckit::framing {

class ReadBuffer {
 public:
  explicit ReadBuffer(std::size_t chunk_bytes);

  // Bytes read but not yet consumed. Valid until the next fill() or consume().
  std::string_view data() const { return {storage_.data() + begin_, end_ - begin_}; }
  std::size_t size() const { return end_ - begin_; }
  void consume(std::size_t bytes);

  // One source read() into at least chunk_bytes of free space, appended to data().
  IoResult fill(ByteSource& source);

 private:
  std::vector<char> storage_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::size_t chunk_bytes_;
};

}  // namespace rpckit::framing
