#pragma once
// Keeps stdout for protocol frames only. On construction it takes a private duplicate of fd 1
// for the protocol and points fd 1 at stderr, so a stray printf or a library's logging lands
// in the plugin's log instead of corrupting the frame stream. Restores fd 1 on destruction.
namespace rpckit::roles {

class StdoutGuard {
 public:
  StdoutGuard();  // throws std::system_error if the descriptors cannot be duplicated
  ~StdoutGuard();
  StdoutGuard(const StdoutGuard&) = delete;
  StdoutGuard& operator=(const StdoutGuard&) = delete;

  int protocol_fd() const { return protocol_fd_; }

 private:
  int protocol_fd_ = -1;
  int saved_stdout_ = -1;
};

}  // namespace rpckit::roles
