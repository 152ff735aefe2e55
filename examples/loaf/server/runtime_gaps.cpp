#include "runtime_gaps.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include <nlohmann/json.hpp>

#include "loaf_v1/profile.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/roles/connection_rules.hpp"
#include "rpckit/roles/stdout_guard.hpp"

namespace loaf_server {

// Drops every line once input is ignored; a signal ends the input as EOF does.
class StdioServe::Reader final : public rpckit::framing::FrameReader {
 public:
  Reader(StdioServe& serve, std::unique_ptr<rpckit::framing::FrameReader> inner)
      : serve_(serve), inner_(std::move(inner)) {}
  rpckit::framing::ReadResult read() override {
    for (;;) {
      auto got = inner_->read();
      if (serve_.stopping_) return {rpckit::framing::ReadStatus::kEof, {}, "stopped"};
      if (!serve_.ignoring_ || got.status == rpckit::framing::ReadStatus::kEof ||
          got.status == rpckit::framing::ReadStatus::kIoError) {
        return got;
      }
    }
  }

 private:
  StdioServe& serve_;
  std::unique_ptr<rpckit::framing::FrameReader> inner_;
};

// Gives -32700 the profile's data.
class StdioServe::Writer final : public rpckit::framing::FrameWriter {
 public:
  explicit Writer(std::unique_ptr<rpckit::framing::FrameWriter> inner) : inner_(std::move(inner)) {}
  rpckit::framing::WriteResult write(std::string_view body) override {
    if (body.find("-32700") == std::string_view::npos) return inner_->write(body);
    nlohmann::json frame = nlohmann::json::parse(body, nullptr, false);
    if (!frame.is_object() || !frame.contains("error") || frame["error"].contains("data")) {
      return inner_->write(body);
    }
    frame["error"]["data"] = {{"reason", loaf::v1::Profile::kErrorData.parse_error}};
    return inner_->write(frame.dump());
  }

 private:
  std::unique_ptr<rpckit::framing::FrameWriter> inner_;
};

int StdioServe::serve(rpckit::roles::PluginSession& session,
                      std::function<void(const std::string& reason)> on_signal) {
  // Signals go to one thread that waits for them (blocked everywhere else; threads inherit).
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);
  rpckit::framing::ignore_sigpipe();
  rpckit::roles::StdoutGuard guard;
  rpckit::framing::InterruptibleFdSource source(STDIN_FILENO);
  rpckit::framing::FdSink sink(guard.protocol_fd());
  std::thread([this, stops, &source, on_signal = std::move(on_signal)] {
    int signal = 0;
    if (sigwait(&stops, &signal) != 0) return;
    on_signal(signal == SIGINT ? "sigint" : "sigterm");
    stopping_ = true;
    source.interrupt();
  }).detach();
  auto rules = rpckit::roles::connection_rules<loaf::v1::Profile>(rpckit::roles::Side::kSpawned);
  rpckit::Endpoint::Options options;
  options.interrupt_reader = [&source] { source.interrupt(); };
  return session.serve(std::make_unique<Reader>(*this, rules.make_reader(source)),
                       std::make_unique<Writer>(rules.make_writer(sink)), std::move(options));
}

}  // namespace loaf_server
