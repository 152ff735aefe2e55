#include "invocation.hpp"

#include <random>

#include "core_line_v1/exchange.hpp"
#include "rpckit/roles/one_shot.hpp"

namespace core_line_sample {
namespace {

namespace cl = core_line::v1;
using rpckit::roles::LineReceived;
using Call = rpckit::roles::OneShotCall<cl::Exchange>;

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

Failure failure(cl::FailureCode code, std::string detail) { return {code, std::move(detail)}; }

// A line that did not come (steps 4 and 7): timeout, crashed or malformed_response.
Failure not_received(const LineReceived& got, const std::string& what) {
  switch (got.status) {
    case LineReceived::Status::kTimeout: return failure(cl::FailureCode::kTimeout, what + ": " + got.reason);
    case LineReceived::Status::kEof: return failure(cl::FailureCode::kCrashed, "stdout ended before the " + what);
    case LineReceived::Status::kMalformed:
      return failure(cl::FailureCode::kMalformedResponse, what + ": " + got.reason);
    default: return failure(cl::FailureCode::kCrashed, what + ": " + got.reason);
  }
}

// A line that could not be written (steps 3 and 6): crashed, or timeout past the deadline.
Failure not_sent(const std::error_code& error, const std::string& what) {
  if (error == std::errc::timed_out) return failure(cl::FailureCode::kTimeout, "the invoke deadline passed writing the " + what);
  return failure(cl::FailureCode::kCrashed, "cannot write the " + what + ": " + error.message());
}

class Run {
 public:
  Run(const Binding& binding, const ToolCall& call, const Observer& observer)
      : binding_(binding), call_(call), observer_(observer), process_(settings(binding)) {
    outcome_.plugin = binding.name;
    outcome_.output = nlohmann::json::object();
    process_.on_line = [this](bool outgoing, std::string_view line) {
      if (observer_.line) observer_.line(outcome_.plugin, outgoing, line);
    };
  }

  Outcome go() {
    step("spawning " + binding_.command);
    if (auto why = process_.launch()) {
      outcome_.failure = failure(cl::FailureCode::kLaunchFailed, *why);
      return outcome_;
    }
    exchange();
    if (outcome_.failure || outcome_.plugin_error) {
      if (!process_.abort()) step("not reaped within the reap timeout");
    }
    return outcome_;
  }

 private:
  static Call::Settings settings(const Binding& binding) {
    Call::Settings s;
    s.spawn.executable = binding.command;
    s.spawn.args = binding.args;
    s.spawn.working_dir = binding.dir;
    s.spawn.environment = binding.env;
    s.spawn.stderr_log = binding.stderr_path;
    s.time_scale = binding.time_scale;
    s.invoke_timeout = binding.invoke_timeout;
    return s;
  }

  void exchange() {
    // Steps 3 to 5: the handshake.
    if (auto error = process_.send<0>(cl::HandshakeRequest{binding_.protocol})) {
      outcome_.failure = not_sent(error, "handshake");
      return;
    }
    LineReceived reply = process_.receive<1>();
    if (!reply.ok()) {
      outcome_.failure = not_received(reply, "handshake reply");
      return;
    }
    cl::Manifest manifest;
    HandshakeExpectation expect{binding_.protocol, binding_.name, call_.tool_name, binding_.allow_list};
    if ((outcome_.failure = check_handshake(reply.message, expect, &manifest))) return;
    outcome_.plugin = manifest.plugin_id;
    step("handshake accepted: " + manifest.plugin_id + " " + manifest.plugin_version);

    // Steps 6 to 8: the request.
    nlohmann::json sent;
    cl::ExecuteRequest request{new_request_id(), call_.tool_name, call_.context, call_.input};
    if (auto error = process_.send<2>(request, &sent)) {
      outcome_.failure = not_sent(error, "request");
      return;
    }
    LineReceived answer = process_.receive<3>();
    if (!answer.ok()) {
      outcome_.failure = not_received(answer, "response");
      return;
    }
    cl::ExecuteResponse response;
    if ((outcome_.failure = check_response(answer.message, sent, &response))) return;

    // Step 9: the plugin's own error, or teardown.
    if (response.status == cl::ResponseStatus::kError) {
      outcome_.plugin_error = response.error->value();
      return;
    }
    if (response.output) outcome_.output = response.output->get();
    step("closing the plugin's stdin");
    auto done = process_.finish();
    using Status = rpckit::roles::OneShotProcess::Finish::Status;
    if (done.status == Status::kTimeout) {
      outcome_.failure = failure(cl::FailureCode::kTimeout, "the invoke deadline passed at teardown");
    } else if (done.status == Status::kStillRunning) {
      outcome_.failure = failure(cl::FailureCode::kCrashed, "still running " +
                                 std::to_string(process_.teardown_timeout().count()) +
                                 " ms after its stdin closed");
    } else if (done.exit.signaled || done.exit.code != 0) {
      outcome_.failure = failure(cl::FailureCode::kCrashed,
                                 "exited with " + done.exit.describe() + " after a successful response");
    } else {
      step("exited 0");
    }
  }

  void step(const std::string& what) {
    if (observer_.step) observer_.step(outcome_.plugin, what);
  }

  const Binding& binding_;
  const ToolCall& call_;
  const Observer& observer_;
  Outcome outcome_;
  Call process_;
};

}  // namespace

Outcome invoke(const Binding& binding, const ToolCall& call, const Observer& observer) {
  return Run(binding, call, observer).go();
}

}  // namespace core_line_sample
