#include "invocation.hpp"

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <random>
#include <thread>

#include "../line_rules.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "rpckit/framing/ndjson_writer.hpp"
#include "rpckit/process/child_process.hpp"
#include "rpckit/process/find_executable.hpp"

namespace core_line_sample {
namespace {

namespace cl = core_line::v1;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// "plugin_req_" and 16 lowercase hex digits of 8 random bytes (spec section 4).
std::string new_request_id() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device random;
  std::string id = "plugin_req_";
  for (int i = 0; i < 8; ++i) {
    auto byte = static_cast<unsigned>(random() & 0xFFU);
    id += kHex[byte >> 4U];
    id += kHex[byte & 0xFU];
  }
  return id;
}

std::string ms_text(milliseconds d) { return std::to_string(d.count()) + " ms"; }

// Kills the process when the invoke deadline passes, and wakes a read blocked on its stdout;
// whatever step was running then fails, and the invocation reports timeout.
class Watchdog {
 public:
  Watchdog(Clock::time_point deadline, rpckit::process::ChildProcess& child,
           rpckit::framing::InterruptibleFdSource& source)
      : thread_([this, deadline, &child, &source] {
          std::unique_lock lock(mutex_);
          if (!wake_.wait_until(lock, deadline, [this] { return done_; })) {
            expired_ = true;
            child.kill();
            source.interrupt();
          }
        }) {}
  ~Watchdog() { stop(); }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  bool expired() {
    std::lock_guard lock(mutex_);
    return expired_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false, expired_ = false;
  std::thread thread_;  // last: starts once the members it uses exist
};

class Run {
 public:
  Run(const Binding& binding, const ToolCall& call, const Observer& observer)
      : binding_(binding), call_(call), observer_(observer) {
    outcome_.plugin = binding.name;
    outcome_.output = nlohmann::json::object();
  }

  Outcome go() {
    const Clock::time_point start = Clock::now();
    invoke_deadline_ = start + binding_.invoke_timeout;
    std::unique_ptr<rpckit::process::ChildProcess> child = launch();
    if (!child) return outcome_;
    child_ = child.get();
    rpckit::framing::InterruptibleFdSource source(child->stdout_fd());
    Watchdog watchdog(invoke_deadline_, *child, source);
    watchdog_ = &watchdog;
    source_ = &source;
    exchange();
    watchdog.stop();
    if (outcome_.failure || outcome_.plugin_error) kill_and_reap();
    return outcome_;
  }

 private:
  std::unique_ptr<rpckit::process::ChildProcess> launch() {
    step("spawning " + binding_.command);
    std::string why;
    auto executable = rpckit::process::resolve_command(binding_.command, &why);
    if (!executable) return fail_launch(why);
    std::error_code ec;
    if (!binding_.dir.empty() && !std::filesystem::is_directory(binding_.dir, ec)) {
      return fail_launch("working directory " + binding_.dir + " is not a directory");
    }
    rpckit::process::SpawnOptions options;
    options.executable = *executable;
    options.args = binding_.args;
    options.working_dir = binding_.dir;
    options.environment = binding_.env;
    options.stderr_log = binding_.stderr_path;
    const Clock::time_point before = Clock::now();
    auto child = rpckit::process::ChildProcess::spawn(options, &why);
    if (!child) return fail_launch(why);
    if (Clock::now() - before > binding_.launch_timeout) {
      child->kill();
      child->wait_for(binding_.reap_timeout);
      return fail_launch("spawning took longer than the launch timeout (" +
                         ms_text(binding_.launch_timeout) + ")");
    }
    return child;
  }

  std::nullptr_t fail_launch(std::string why) {
    outcome_.failure = Failure{cl::FailureCode::kLaunchFailed, std::move(why)};
    return nullptr;
  }

  void exchange() {
    rpckit::framing::FdSink sink(child_->stdin_fd());
    rpckit::framing::NdjsonWriter writer(sink, kMaxLineBytes);
    rpckit::framing::NdjsonReader reader(*source_, kMaxLineBytes, line_rules());

    // Steps 3 to 5: the handshake.
    cl::HandshakeRequest hello{binding_.protocol};
    if (!send(writer, nlohmann::json(hello).dump(), "handshake")) return;
    auto reply = receive(reader, std::min(Clock::now() + binding_.handshake_timeout, invoke_deadline_),
                         "handshake reply");
    if (!reply) return;
    cl::Manifest manifest;
    HandshakeExpectation expect{binding_.protocol, binding_.name, call_.tool_name, binding_.allow_list};
    if ((outcome_.failure = check_handshake(*reply, expect, &manifest))) return;
    outcome_.plugin = manifest.plugin_id;
    step("handshake accepted: " + manifest.plugin_id + " " + manifest.plugin_version);

    // Steps 6 to 8: the request.
    cl::ExecuteRequest request{new_request_id(), call_.tool_name, call_.context, call_.input};
    if (!send(writer, nlohmann::json(request).dump(), "request")) return;
    source_->set_deadline(std::nullopt);  // the invoke deadline (the watchdog) bounds it
    auto answer = receive(reader, std::nullopt, "response");
    if (!answer) return;
    cl::ExecuteResponse response;
    if ((outcome_.failure = check_response(*answer, request.request_id, &response))) return;

    // Step 9.
    if (response.status == cl::ResponseStatus::kError) {
      outcome_.plugin_error = response.error->value();
      return;
    }
    if (response.output) outcome_.output = response.output->get();
    teardown();
  }

  bool send(rpckit::framing::NdjsonWriter& writer, const std::string& line, const char* what) {
    if (observer_.line) observer_.line(outcome_.plugin, true, line);
    auto written = writer.write(line);
    if (written.ok()) return true;
    if (!timed_out()) {
      outcome_.failure = Failure{cl::FailureCode::kCrashed, std::string("cannot write the ") + what +
                                                                ": " + written.error.message()};
    }
    return false;
  }

  std::optional<nlohmann::json> receive(rpckit::framing::NdjsonReader& reader,
                                        std::optional<Clock::time_point> step_deadline,
                                        const std::string& what) {
    source_->set_deadline(step_deadline);
    rpckit::framing::ReadResult line = reader.read();
    if (timed_out()) return std::nullopt;
    using rpckit::framing::ReadStatus;
    if (line.status == ReadStatus::kIoError && step_deadline && Clock::now() >= *step_deadline) {
      outcome_.failure = Failure{cl::FailureCode::kTimeout,
                                 "no " + what + " within " + ms_text(binding_.handshake_timeout)};
      return std::nullopt;
    }
    if (line.status == ReadStatus::kEof) {
      outcome_.failure = Failure{cl::FailureCode::kCrashed, "stdout ended before the " + what};
      return std::nullopt;
    }
    if (line.status == ReadStatus::kOversize) {
      outcome_.failure = Failure{cl::FailureCode::kMalformedResponse, what + ": " + line.reason};
      return std::nullopt;
    }
    if (!line.ok()) {
      outcome_.failure = Failure{cl::FailureCode::kCrashed, what + ": " + line.reason};
      return std::nullopt;
    }
    if (observer_.line) observer_.line(outcome_.plugin, false, line.body);
    auto object = parse_object(line.body);
    if (!object) {
      outcome_.failure = Failure{cl::FailureCode::kMalformedResponse,
                                 what + (line.body.empty() ? " is an empty line"
                                                           : " is not one JSON object")};
    }
    return object;
  }

  // After an ok response: stdin closed, exit 0 within the teardown timeout.
  void teardown() {
    step("closing the plugin's stdin");
    child_->close_stdin();
    Clock::time_point deadline = std::min(Clock::now() + binding_.teardown_timeout, invoke_deadline_);
    auto status = child_->wait_for(
        std::chrono::ceil<milliseconds>(std::max(deadline - Clock::now(), Clock::duration::zero())));
    if (timed_out() || (!status && Clock::now() >= invoke_deadline_)) {
      outcome_.failure = Failure{cl::FailureCode::kTimeout, "the invoke deadline expired at teardown"};
    } else if (!status) {
      outcome_.failure = Failure{cl::FailureCode::kCrashed, "still running " +
                                 ms_text(binding_.teardown_timeout) + " after its stdin closed"};
    } else if (status->signaled || status->code != 0) {
      outcome_.failure = Failure{cl::FailureCode::kCrashed,
                                 "exited with " + status->describe() +
                                     " after a successful response"};
    } else {
      step("exited 0");
    }
  }

  // The watchdog fired: whatever the step, the call is a timeout.
  bool timed_out() {
    if (!watchdog_->expired()) return false;
    outcome_.failure = Failure{cl::FailureCode::kTimeout,
                               "the invoke deadline (" + ms_text(binding_.invoke_timeout) + ") expired"};
    return true;
  }

  void kill_and_reap() {
    child_->kill();
    if (!child_->wait_for(binding_.reap_timeout)) step("not reaped within the reap timeout");
  }

  void step(const std::string& what) {
    if (observer_.step) observer_.step(outcome_.plugin, what);
  }

  const Binding& binding_;
  const ToolCall& call_;
  const Observer& observer_;
  Outcome outcome_;
  Clock::time_point invoke_deadline_;
  rpckit::process::ChildProcess* child_ = nullptr;
  rpckit::framing::InterruptibleFdSource* source_ = nullptr;
  Watchdog* watchdog_ = nullptr;
};

}  // namespace

Outcome invoke(const Binding& binding, const ToolCall& call, const Observer& observer) {
  return Run(binding, call, observer).go();
}

}  // namespace core_line_sample
