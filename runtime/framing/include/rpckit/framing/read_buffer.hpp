// The buffer the readers parse from: refilled a chunk at a time, consumed from the front.
// Public so that a further framing can reuse it; not needed by users of the readers.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

#include "rpckit/framing/byte_io.hpp"

namespace rpckit::framing {

namespace detail {
// std::allocator whose construct(p) default-initializes: for char, leaves the byte as it is.
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  explicit DefaultInitAllocator(const DefaultInitAllocator<U>& /*other*/) noexcept {}
  template <typename U>
  void construct(U* at) noexcept(noexcept(::new (static_cast<void*>(at)) U)) {
    ::new (static_cast<void*>(at)) U;
  }
  template <typename U, typename... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};
}  // namespace detail

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
  // Grows like std::vector<char> but leaves new bytes uninitialized (a read overwrites them):
  // an idle reader holds only the pages its frames landed in, not a zero-filled chunk.
  std::vector<char, detail::DefaultInitAllocator<char>> storage_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::size_t chunk_bytes_;
};

}  // namespace rpckit::framing
