// One tool call (section 2) on the generic one-shot role (rpckit::roles::OneShotCall over the
// generated Exchange), which bounds every step by its deadline and the whole call by the
// invoke deadline; this maps what it reports to the taxonomy, in the order of 3.3.
#include <nlohmann/json.hpp>

#include "core_line_v1/exchange.hpp"
#include "rpckit/core_line/checks.hpp"
#include "rpckit/core_line/host.hpp"
#include "rpckit/roles/one_shot.hpp"

namespace rpckit::core_line {
namespace {

using roles::LineReceived;
using Call = roles::OneShotCall<clv1::Exchange>;

constexpr std::string_view kLaunch = "section 3.3 step 2, section 1";
constexpr std::string_view kTeardown = "section 3.3 step 9, section 2";

struct Step {
  std::string_view rule;
  const char* what;
};
constexpr Step kWriteHandshake{"section 3.3 step 3", "handshake"};
constexpr Step kReadHandshake{"section 3.3 step 4", "handshake reply"};
constexpr Step kWriteRequest{"section 3.3 step 6", "request"};
constexpr Step kReadResponse{"section 3.3 step 7", "response"};

Failure failure(FailureCode code, std::string detail, std::string_view rule) {
  return {std::move(code), std::move(detail), rule, true};
}

// A line that did not come (steps 4 and 7): timeout, crashed or malformed_response.
Failure not_received(const LineReceived& got, const Step& step) {
  const std::string what = step.what;
  switch (got.status) {
    case LineReceived::Status::kTimeout: return failure(FailureCode::kTimeout, what + ": " + got.reason, step.rule);
    case LineReceived::Status::kEof:
      return failure(FailureCode::kCrashed, "stdout ended before the " + what, step.rule);
    case LineReceived::Status::kMalformed:
      return failure(FailureCode::kMalformedResponse, what + ": " + got.reason, step.rule);
    default: return failure(FailureCode::kCrashed, what + ": " + got.reason, step.rule);
  }
}

// A line that could not be written (steps 3 and 6): crashed, or timeout past the deadline.
Failure not_sent(const std::error_code& error, const Step& step) {
  const std::string what = step.what;
  if (error == std::errc::timed_out) {
    return failure(FailureCode::kTimeout, "the invoke deadline passed writing the " + what, step.rule);
  }
  return failure(FailureCode::kCrashed, "cannot write the " + what + ": " + error.message(), step.rule);
}

// Section 5: each context member is omitted when empty.
clv1::RequestContext sent_context(clv1::RequestContext context) {
  for (auto* member : {&context.workspace_id, &context.widget_id, &context.repo_root, &context.role_id,
                       &context.mode_id}) {
    if (*member && (*member)->empty()) member->reset();
  }
  return context;
}

Call::Settings settings(const Binding& binding) {
  Call::Settings s;
  s.spawn.executable = binding.command;
  s.spawn.args = binding.args;
  s.spawn.working_dir = binding.dir;
  s.spawn.environment = binding.env;  // set even when empty: nothing is inherited
  s.spawn.stderr_log = binding.stderr_path;
  s.time_scale = binding.time_scale;
  s.invoke_timeout = binding.invoke_timeout;
  return s;
}

class Run {
 public:
  Run(const Binding& binding, const ToolCall& call, const Observer& observer)
      : binding_(binding), call_(call), observer_(observer), process_(settings(binding)) {
    result_.plugin = binding.name;
    result_.output = nlohmann::json::object();
    process_.on_line = [this](bool outgoing, std::string_view line) {
      if (observer_.line) observer_.line(result_.plugin, outgoing, line);
    };
  }

  Result go() {
    step("spawning " + binding_.command);
    if (auto why = process_.launch()) {
      result_.failure = Failure{FailureCode::kLaunchFailed, *why, kLaunch, false};
      return std::move(result_);
    }
    exchange();
    // A failure or the plugin's own error: the process is killed right away (section 2).
    if (result_.failure || result_.plugin_error) {
      if (!process_.abort()) step("not reaped within the reap timeout");
    }
    return std::move(result_);
  }

 private:
  void exchange() {
    // Steps 3 to 5: the handshake.
    if (auto error = process_.send<0>(clv1::HandshakeRequest{binding_.protocol})) {
      result_.failure = not_sent(error, kWriteHandshake);
      return;
    }
    LineReceived reply = process_.receive<1>();
    if (!reply.ok()) {
      result_.failure = not_received(reply, kReadHandshake);
      return;
    }
    clv1::Manifest manifest;
    HandshakeExpectation expect{binding_.protocol, binding_.name, call_.tool_name, binding_.allow_list,
                                binding_.probe};
    if ((result_.failure = check_handshake(reply.message, expect, &manifest))) return;
    result_.plugin = manifest.plugin_id;
    std::string tool = call_.tool_name;
    if (binding_.probe && tool.empty()) tool = manifest.exposed_tools.front();
    step("handshake accepted: " + manifest.plugin_id + " " + manifest.plugin_version);
    result_.manifest = std::move(manifest);

    // Steps 6 to 8: the request.
    nlohmann::json sent;
    result_.request_id = new_request_id();
    clv1::ExecuteRequest request{result_.request_id, tool, sent_context(call_.context),
                                 call_.input ? *call_.input : JsonValue(nlohmann::json::object())};
    if (auto error = process_.send<2>(request, &sent)) {
      result_.failure = not_sent(error, kWriteRequest);
      return;
    }
    LineReceived answer = process_.receive<3>();
    if (!answer.ok()) {
      result_.failure = not_received(answer, kReadResponse);
      return;
    }
    clv1::ExecuteResponse response;
    if ((result_.failure = check_response(answer.message, sent, &response))) return;

    // Step 9: the plugin's own error (its output ignored, decision 9.6), or teardown.
    if (response.status == clv1::ResponseStatus::kError) {
      result_.plugin_error = response.error->value();
      return;
    }
    if (response.output) result_.output = std::move(*response.output);
    teardown();
  }

  void teardown() {
    step("closing the plugin's stdin");
    auto done = process_.finish();
    using Status = roles::OneShotProcess::Finish::Status;
    if (done.status == Status::kTimeout) {
      result_.failure = failure(FailureCode::kTimeout, "the invoke deadline passed at teardown", kTeardown);
    } else if (done.status == Status::kStillRunning) {
      result_.failure = failure(FailureCode::kCrashed,
                                "still running " + std::to_string(process_.teardown_timeout().count()) +
                                    " ms after its stdin closed",
                                kTeardown);
    } else if (done.exit.signaled || done.exit.code != 0) {
      result_.failure = failure(FailureCode::kCrashed,
                                "exited with " + done.exit.describe() + " after a successful response", kTeardown);
    } else {
      step("exited 0");
    }
  }

  void step(const std::string& what) {
    if (observer_.step) observer_.step(result_.plugin, what);
  }

  const Binding& binding_;
  const ToolCall& call_;
  const Observer& observer_;
  Result result_;
  Call process_;
};

}  // namespace

Result invoke(const Binding& binding, const ToolCall& call, const Observer& observer) {
  if (auto why = invalid_specification(binding, call.tool_name)) {
    Result refused;
    refused.plugin = binding.name;
    refused.invalid_specification = std::move(why);
    return refused;
  }
  return Run(binding, call, observer).go();
}

}  // namespace rpckit::core_line
