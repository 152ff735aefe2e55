#pragma once
// The wire every comparison pair shares, with no JSON in it: Content-Length frames
// ("Content-Length: N\r\n\r\n" + N bytes, as rpckit's endpoint and vscode-jsonrpc write them)
// over file descriptors, and a child process of this executable on pipes.
#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rpckit::compare {

// Reads frames through a buffer of 64 KiB (grown for a larger frame): one read() brings in
// as many frames as the pipe holds.
class FrameReader {
 public:
  explicit FrameReader(int fd) : fd_(fd), buffer_(64 * 1024) {}
  // The next frame's body, valid until the next call; nullopt at EOF between frames. Throws
  // std::runtime_error on a malformed header or an EOF inside a frame.
  std::optional<std::string_view> next();

 private:
  bool fill();  // reads what is available (after compacting); false at EOF

  int fd_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // first unconsumed byte
  std::size_t end_ = 0;    // one past the last byte read
};

// Writes one frame, header and body in one writev. Throws std::system_error.
void write_frame(int fd, std::string_view body);
// Writes prebuilt bytes (e.g. a whole frame) in one write. Throws std::system_error.
void write_all(int fd, std::string_view bytes);
// Header + body, as one string.
std::string frame(std::string_view body);
// The size of the frame of a body of `body_size` bytes.
std::size_t framed_size(std::size_t body_size);

// This executable, spawned with `mode` as its argument, stdin and stdout on pipes.
struct Child {
  pid_t pid = -1;
  int to_child = -1;    // its stdin
  int from_child = -1;  // its stdout
};
Child spawn_self(const char* mode);
// Closes the child's stdin (it reads EOF and must exit 0) and its stdout, and reaps it.
// Returns a description of how it ended, empty when it exited 0.
std::string finish(Child& child);

}  // namespace rpckit::compare
