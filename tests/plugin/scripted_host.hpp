#pragma once
// ScriptedHost: the host side of an end-to-end plugin test. It spawns a plugin executable
// (posix_spawn) with stdin/stdout pipes and stderr captured to a file, speaks Content-Length
// frames through rpckit's framing + Endpoint, answers the plugin's requests with scripted
// answers, and records every frame both ways plus every byte the plugin wrote to stdout.
//
// The child is always reaped: the destructor closes stdin, waits a bounded time for a clean
// exit, then SIGKILLs (at once when the test already failed) and waitpid()s.
#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/endpoint/endpoint.hpp"

namespace plugin_test {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

inline constexpr Millis kWait{5000};  // generous bound for anything the plugin should do

struct Frame {
  bool from_plugin = false;
  std::string body;
  Json json;  // discarded (is_discarded()) when the body is not JSON
  Clock::time_point at;

  bool is_request() const;       // method + id
  bool is_notification() const;  // method, no id
  bool is_response() const;      // result or error, no method
  std::string method() const;    // "" for responses
  const Json& params() const;    // null when absent
};

class ScriptedHost {
 public:
  // Answers one plugin-to-host request: returns the result, or throws rpckit::RpcError to
  // answer with that error. Runs on the host endpoint's thread running handlers and may block
  // (to hold an answer back); requests behind it wait, frames are still recorded as they
  // arrive.
  using Answer = std::function<Json(const Json& params)>;

  struct Options {
    Options(std::filesystem::path exe, std::filesystem::path stderr_file,
            std::vector<std::string> argv = {})
        : executable(std::move(exe)), args(std::move(argv)), stderr_path(std::move(stderr_file)) {}

    std::filesystem::path executable;
    std::vector<std::string> args;
    std::filesystem::path stderr_path;  // the child's stderr goes here (truncated)
    std::filesystem::path working_dir;  // empty: inherit
    Millis default_deadline = kWait;
    Millis exit_grace{3000};  // the destructor's wait for a clean exit before SIGKILL
  };

  explicit ScriptedHost(Options options);  // spawns the child; throws std::runtime_error
  ~ScriptedHost();
  ScriptedHost(const ScriptedHost&) = delete;
  ScriptedHost& operator=(const ScriptedHost&) = delete;

  // Before start(). Requests without an answer get -32601.
  void answer(const std::string& method, Answer answer);
  void answer_result(const std::string& method, Json result);
  void start();

  // Host-to-plugin traffic through the Endpoint (numeric ids it allocates).
  rpckit::CallResult call(std::string_view method, std::optional<Json> params,
                          std::optional<Millis> deadline = std::nullopt);
  bool notify(std::string_view method, std::optional<Json> params);
  // Exact bytes / exact envelopes, for what the Endpoint would not send (custom ids, unknown
  // envelope members, requests for notification methods...). Recorded as host frames.
  void send_frame(const Json& envelope);
  void send_raw(std::string_view bytes);
  void close_stdin();

  // Recorded frames, in arrival order. `from` indexes frames_from_plugin().
  std::vector<Frame> frames() const;
  std::vector<Frame> frames_from_plugin() const;
  std::optional<Frame> wait_for(const std::function<bool(const Frame&)>& pred,
                                Millis timeout = kWait, std::size_t from = 0) const;
  std::optional<Frame> wait_request(std::string_view method, Millis timeout = kWait,
                                    std::size_t from = 0) const;
  std::optional<Frame> wait_response(const Json& id, Millis timeout = kWait) const;
  // Waits until the plugin has sent at least `n` messages with this method.
  bool wait_count(std::string_view method, std::size_t n, Millis timeout = kWait) const;
  // Methods of the plugin's requests and notifications (responses left out), in order.
  std::vector<std::string> plugin_methods() const;
  std::size_t count_from_plugin(std::string_view method) const;

  // The child's exit status (exit code, or 128 + signal), waiting up to `timeout`. Once the
  // child is reaped it also waits (within the same bound) until its stdout has been read to
  // EOF, so the recorded frames and bytes are complete.
  std::optional<int> wait_exit(Millis timeout = kWait);
  pid_t pid() const { return pid_; }
  bool reaped() const { return exit_status_.has_value(); }

  std::string stderr_text() const;
  // Waits until the captured stderr contains `needle`.
  bool wait_stderr(std::string_view needle, Millis timeout = kWait) const;
  // Every byte the plugin wrote to its stdout so far.
  std::string stdout_bytes() const;
  // "" when stdout_bytes() is a sequence of well-formed Content-Length frames, each holding
  // one JSON-RPC 2.0 envelope object (and nothing else, not even a partial frame); else why
  // not. *frame_count receives the number of frames parsed.
  std::string check_stdout_frames(std::size_t* frame_count = nullptr) const;

 private:
  class TeeSource;
  class LockedSink;

  void spawn();
  void record(bool from_plugin, std::string_view body);
  Json handle(const rpckit::Incoming& incoming);
  void reap(Millis grace);

  Options options_;
  pid_t pid_ = -1;
  int stdin_fd_ = -1;   // our end of the child's stdin
  int stdout_fd_ = -1;  // our end of the child's stdout
  std::optional<int> exit_status_;

  std::map<std::string, Answer> answers_;
  std::unique_ptr<TeeSource> source_;
  std::unique_ptr<LockedSink> sink_;
  std::unique_ptr<rpckit::Endpoint> endpoint_;
  std::unique_ptr<rpckit::framing::FrameWriter> raw_writer_;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<Frame> frames_;
  std::string stdout_bytes_;
  bool stdout_done_ = false;  // the reader saw EOF (or an error) on the child's stdout
};

}  // namespace plugin_test
