#include "rpckit/framing/memory_pipe.hpp"

#include <algorithm>
#include <condition_variable>
#include <string>

namespace rpckit::framing {

namespace detail {

struct PipeState {
  explicit PipeState(std::size_t cap) : capacity(std::max<std::size_t>(cap, 1)) {}

  std::size_t buffered() const { return data.size() - head; }

  const std::size_t capacity;
  std::mutex mutex;
  std::condition_variable readable;  // data arrived or the sink closed
  std::condition_variable writable;  // room freed or the source closed
  std::string data;                  // bytes [head, size) are unread
  std::size_t head = 0;
  bool source_closed = false;
  bool sink_closed = false;
};

}  // namespace detail

MemoryPipeSource::MemoryPipeSource(std::shared_ptr<detail::PipeState> state)
    : state_(std::move(state)) {}

MemoryPipeSource::~MemoryPipeSource() { close(); }

IoResult MemoryPipeSource::read(std::span<char> buffer) {
  detail::PipeState& s = *state_;
  std::unique_lock lock(s.mutex);
  const auto ready = [&] { return s.buffered() > 0 || s.sink_closed || s.source_closed; };
  if (!deadline_) {
    s.readable.wait(lock, ready);
  } else if (!s.readable.wait_until(lock, *deadline_, ready)) {
    return {0, std::make_error_code(std::errc::stream_timeout)};
  }
  if (s.source_closed) return {};
  const std::size_t n = std::min(buffer.size(), s.buffered());
  s.data.copy(buffer.data(), n, s.head);
  s.head += n;
  if (s.head == s.data.size()) {
    s.data.clear();
    s.head = 0;
  } else if (s.head >= s.data.size() / 2) {
    s.data.erase(0, s.head);  // amortised: only once half the string is dead
    s.head = 0;
  }
  s.writable.notify_all();
  return {n, {}};
}

void MemoryPipeSource::close() {
  detail::PipeState& s = *state_;
  {
    const std::lock_guard lock(s.mutex);
    s.source_closed = true;
    s.data.clear();
    s.head = 0;
  }
  s.readable.notify_all();
  s.writable.notify_all();
}

MemoryPipeSink::MemoryPipeSink(std::shared_ptr<detail::PipeState> state)
    : state_(std::move(state)) {}

MemoryPipeSink::~MemoryPipeSink() { close(); }

void MemoryPipeSink::close() {
  detail::PipeState& s = *state_;
  {
    const std::lock_guard lock(s.mutex);
    s.sink_closed = true;
  }
  s.readable.notify_all();
  s.writable.notify_all();
}

std::error_code MemoryPipeSink::write_parts(std::span<const std::string_view> parts) {
  const std::lock_guard write_lock(write_mutex_);
  detail::PipeState& s = *state_;
  std::unique_lock lock(s.mutex);
  for (std::string_view part : parts) {
    while (!part.empty()) {
      s.writable.wait(
          lock, [&] { return s.buffered() < s.capacity || s.source_closed || s.sink_closed; });
      if (s.source_closed) return std::make_error_code(std::errc::broken_pipe);
      if (s.sink_closed) return std::make_error_code(std::errc::bad_file_descriptor);
      const std::size_t n = std::min(part.size(), s.capacity - s.buffered());
      s.data.append(part.substr(0, n));
      part.remove_prefix(n);
      s.readable.notify_all();
    }
  }
  return {};
}

MemoryPipe make_memory_pipe(std::size_t capacity) {
  auto state = std::make_shared<detail::PipeState>(capacity);
  return {std::make_unique<MemoryPipeSource>(state), std::make_unique<MemoryPipeSink>(state)};
}

}  // namespace rpckit::framing
