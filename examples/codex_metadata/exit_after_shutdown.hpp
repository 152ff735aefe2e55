#pragma once
// Spec 2 and decision 8.4: after answering shutdown the plugin exits 0 by itself, with stdin
// still open. The generic plugin role stops on stdin EOF or on an exit message, and this
// protocol has none, so this runs the role on stdin/stdout as PluginSession::run() does and
// ends the read side once the shutdown reply is on the wire (the smallest policy on top of
// the role; README.md records the gap).
#include <unistd.h>

#include <atomic>
#include <system_error>

#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/roles/plugin_role.hpp"
#include "rpckit/roles/stdout_guard.hpp"

namespace codex_sample {

namespace detail {

// stdin, read until the shutdown reply has been written; then a clean end of stream.
class StdinUntilShutdown final : public rpckit::framing::ByteSource {
 public:
  explicit StdinUntilShutdown(const std::atomic<bool>& done) : source_(STDIN_FILENO), done_(done) {}
  rpckit::framing::IoResult read(std::span<char> buffer) override {
    rpckit::framing::IoResult r = source_.read(buffer);
    if (done_.load() && r.error == std::errc::operation_canceled) return {};
    return r;
  }
  void interrupt() { source_.interrupt(); }

 private:
  rpckit::framing::InterruptibleFdSource source_;
  const std::atomic<bool>& done_;
};

// stdout; the first write after shutdown arrived is its reply (handlers run one at a time).
class SinkUntilShutdown final : public rpckit::framing::ByteSink {
 public:
  SinkUntilShutdown(int fd, const std::atomic<bool>& shutting, std::atomic<bool>& done,
                    StdinUntilShutdown& input)
      : sink_(fd), shutting_(shutting), done_(done), input_(input) {}

 private:
  std::error_code write_parts(std::span<const std::string_view> parts) override {
    std::error_code e = sink_.write_all(parts);
    if (shutting_.load() && !done_.exchange(true)) input_.interrupt();
    return e;
  }
  rpckit::framing::FdSink sink_;
  const std::atomic<bool>& shutting_;
  std::atomic<bool>& done_;
  StdinUntilShutdown& input_;
};

}  // namespace detail

// Serves the host until stdin EOF or until shutdown has been answered; the exit code.
template <class Protocol>
int run_until_shutdown(rpckit::roles::PluginRole<Protocol>& role) {
  using Profile = typename Protocol::Profile;
  std::atomic<bool> shutting{false};
  std::atomic<bool> done{false};
  role.session().on_shutdown([&shutting] { shutting = true; });
  rpckit::roles::StdoutGuard guard;
  detail::StdinUntilShutdown input(done);
  detail::SinkUntilShutdown output(guard.protocol_fd(), shutting, done, input);
  rpckit::Endpoint::Options options;
  options.interrupt_reader = [&input] { input.interrupt(); };
  options.max_depth = Profile::kMaxJsonDepth;
  const std::size_t max = Profile::kMaxFrameBytes;
  return role.serve(rpckit::framing::make_reader(Profile::kFraming, input, max),
                    rpckit::framing::make_writer(Profile::kFraming, output, max),
                    std::move(options));
}

}  // namespace codex_sample
