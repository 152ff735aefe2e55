// Byte-level I/O seen by the framing layer: a source that reads some bytes and a sink that
// writes all of them. Errors are values, never exceptions, so a reader thread can report them.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>

namespace rpckit::framing {

// Outcome of one ByteSource::read. Exactly one of: data (bytes > 0), clean end of stream
// (bytes == 0, no error), failure (error set, bytes == 0).
struct IoResult {
  std::size_t bytes = 0;
  std::error_code error;

  bool eof() const { return bytes == 0 && !error; }
  // The source's deadline passed (ByteSource::set_deadline): nothing was read, nothing lost.
  // Its own code, std::errc::stream_timeout (ETIME), which read(2) never returns: a socket's
  // ETIMEDOUT stays a failure.
  bool timed_out() const { return error == std::errc::stream_timeout; }
};

// A stream of bytes to read from. read() blocks until at least one byte is available, the
// stream ends, or an error occurs; it never throws for I/O problems.
// Thread safety: one reading thread at a time unless an implementation says otherwise.
class ByteSource {
 public:
  virtual ~ByteSource() = default;

  // Reads up to buffer.size() bytes (buffer is never empty when called by this library).
  virtual IoResult read(std::span<char> buffer) = 0;

  // A read() still waiting at `deadline` returns std::errc::stream_timeout (nullopt: wait for
  // ever). Reading thread only. False, and nothing changes, where the source cannot time out.
  virtual bool set_deadline(std::optional<std::chrono::steady_clock::time_point> /*deadline*/) {
    return false;
  }
};

// A stream of bytes to write to. write_all writes every byte or reports why it could not.
// Thread safety: implementation-defined; the frame writers serialise their calls anyway.
class ByteSink {
 public:
  virtual ~ByteSink() = default;

  std::error_code write_all(std::string_view bytes) { return write_parts({&bytes, 1}); }
  // Writes the parts back to back as one logical write (gather I/O where the sink has it),
  // so a frame's header and body need neither a copy nor two lock-free syscalls.
  std::error_code write_all(std::span<const std::string_view> parts) { return write_parts(parts); }

 private:
  virtual std::error_code write_parts(std::span<const std::string_view> parts) = 0;
};

}  // namespace rpckit::framing
