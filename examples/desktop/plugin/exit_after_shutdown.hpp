#pragma once
// The plugin's half of "answers, then exits with code 0" (spec section 2). This profile has
// no exit message, and PluginSession answers plugin/shutdown but keeps reading until stdin
// EOF; so once the shutdown answer has been written, stdin reads as EOF and the session ends
// as cleanly as when the host closes the pipe.
#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <string_view>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_writer.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"

namespace desktop_sample {

// A descriptor source that end() turns into a clean end of stream.
class EndableSource final : public rpckit::framing::ByteSource {
 public:
  explicit EndableSource(int fd) : inner_(fd) {}
  rpckit::framing::IoResult read(std::span<char> buffer) override;
  void end();
  void interrupt() { inner_.interrupt(); }

 private:
  rpckit::framing::InterruptibleFdSource inner_;
  std::atomic<bool> ended_{false};
};

// A writer that calls `answered` after the first response written once arm() was called.
// Armed by the shutdown hook, which runs on the dispatcher just before it answers shutdown;
// nothing else answers a request in between (handlers run one at a time).
class ShutdownAnswerWatch final : public rpckit::framing::FrameWriter {
 public:
  ShutdownAnswerWatch(std::unique_ptr<rpckit::framing::FrameWriter> inner,
                      std::function<void()> answered)
      : inner_(std::move(inner)), answered_(std::move(answered)) {}
  rpckit::framing::WriteResult write(std::string_view body) override;
  void arm() { armed_ = true; }

 private:
  std::unique_ptr<rpckit::framing::FrameWriter> inner_;
  std::function<void()> answered_;
  std::atomic<bool> armed_{false};
};

}  // namespace desktop_sample
