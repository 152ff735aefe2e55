#include "rpckit/codex_metadata/verdicts.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "rpckit/codec/value_codec.hpp"

namespace rpckit::codex_metadata {
namespace {

using supervision::StopCause;

bool is_plugin_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::islower(c) != 0 || std::isdigit(c) != 0 || c == '-';
  });
}

bool is_major_one(const std::string& v) {
  return v.size() >= 3 && v.rfind("1.", 0) == 0 &&
         std::all_of(v.begin() + 2, v.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

}  // namespace

std::optional<Finding> judge_manifest(const cm::PluginManifest& m) {
  if (!is_plugin_name(m.name)) {
    return Finding{"invalid_manifest", "name \"" + m.name +
                                           "\" is not lowercase letters, digits and hyphens "
                                           "(section 5)"};
  }
  if (m.displayName.empty() || m.version.empty()) {
    return Finding{"invalid_manifest", "displayName or version is empty (section 5)"};
  }
  if (!is_major_one(m.protocolVersion)) {
    return Finding{"protocol_version_mismatch",
                   "protocolVersion \"" + m.protocolVersion +
                       "\": the host accepts major 1 only (section 7, decision 8.14)"};
  }
  return std::nullopt;
}

InitializeVerdict judge_initialize(const Result<cm::PluginManifest>& answer) {
  using Kind = InitializeVerdict::Kind;
  if (answer.ok()) {
    std::optional<Finding> problem = judge_manifest(answer.value());
    if (!problem) return {};
    bool version = problem->kind == "protocol_version_mismatch";
    return {Kind::kInvalid, std::move(problem), version};
  }
  const CallError& e = answer.error();
  if (is_invalid_result(e)) {
    // The generated decoder checks protocolVersion's "1.<minor>" pattern itself.
    bool version = e.error.message().find("result.protocolVersion:") != std::string::npos;
    return {Kind::kInvalid,
            Finding{version ? "protocol_version_mismatch" : "invalid_manifest",
                    e.error.message() +
                        (version ? " (section 7, decision 8.14)" : " (section 5, decision 8.5)")},
            version};
  }
  if (e.kind == CallError::Kind::kRemote) {
    return {Kind::kRefused,
            Finding{"initialize_failed",
                    error_name(e.error) + ": " + e.error.message() + " (section 2)"},
            false};
  }
  return {Kind::kNoAnswer, std::nullopt, false};
}

std::string error_name(const RpcError& error) {
  cm::ErrorCode code = cm::error_code(error);
  return is_known(code) ? std::string(cm::to_string(code)) : "plugin_error";
}

std::int64_t retry_after_seconds(const RpcError& error) {
  // RateLimitedData's decoder takes an integer >= 0 and nothing else.
  if (error.data()) {
    if (auto data = codec::decode_or_none<cm::RateLimitedData>(error.data()->get(), "error.data")) {
      return data->retryAfterSeconds;
    }
  }
  return cm::kDefaultRetryAfterSeconds;
}

bool is_invalid_result(const CallError& error) {
  return error.kind == CallError::Kind::kInvalidResult;
}

std::string down_name(StopCause cause) {
  switch (cause) {
    case StopCause::kLaunchFailed:
      return "launch_failed";
    case StopCause::kHandshakeFailed:
      return "initialize_failed";
    case StopCause::kHandshakeTimeout:
      return "initialize_timeout";
    case StopCause::kHandshakeRejected:
      return "protocol_version_mismatch";
    case StopCause::kCrashed:
      return "process_lost";
    case StopCause::kUnhealthy:
      return "health_check_failed";
    case StopCause::kMalformedFrame:
      return "malformed_line";
    case StopCause::kOversizedFrame:
      return "oversized_line";
    case StopCause::kOutputCap:
      return "output_cap";
    case StopCause::kExitTimeout:
      return "exit_timeout";
    case StopCause::kRequested:
      break;
  }
  return "";
}

Finding describe_down(const roles::StopReason& reason) {
  std::string where;
  switch (reason.cause) {
    case StopCause::kLaunchFailed:
      where = "the command could not be started (section 1)";
      break;
    case StopCause::kHandshakeFailed:
      where = "initialize failed (section 2)";
      break;
    case StopCause::kHandshakeTimeout:
      where = "initialize unanswered within the 30 s request timeout (section 2 Deadlines)";
      break;
    case StopCause::kHandshakeRejected:
      where = "the manifest is refused for good (section 7)";
      break;
    case StopCause::kCrashed:
      where = "the plugin process ended on its own (section 2)";
      break;
    case StopCause::kUnhealthy:
      where = "ping unanswered, or answered with a non-string (section 2, decision 8.3)";
      break;
    case StopCause::kMalformedFrame:
      where = "stdout is not UTF-8 JSON lines (section 1)";
      break;
    case StopCause::kOversizedFrame:
      where = "a stdout line over 1 MiB (section 1)";
      break;
    case StopCause::kOutputCap:
      where =
          "stdout passed 104,857,600 bytes (100 MiB): the host stopped reading it and restarts "
          "the plugin (section 1, decision 8.12)";
      break;
    case StopCause::kExitTimeout:
      where =
          "still running 5 s after shutdown, with stdin open: killed (section 2 Deadlines, "
          "decision 8.4: the plugin exits on its own)";
      break;
    case StopCause::kRequested:
      break;
  }
  return {down_name(reason.cause), reason.detail.empty() ? where : where + ": " + reason.detail};
}

std::optional<Finding> violation_of(const Diagnostic& d) {
  switch (d.kind) {
    case Diagnostic::Kind::kParseError:
      return Finding{"malformed_line",
                     "a stdout line that is not JSON, logged and ignored (section 1): " + d.detail};
    case Diagnostic::Kind::kOversize:
      return Finding{"oversized_line",
                     "a stdout line over 1,048,576 bytes (1 MiB), discarded (section 1, decision "
                     "8.12): " +
                         d.detail};
    case Diagnostic::Kind::kUnknownResponseId:
      return Finding{"unknown_response_id",
                     "a response whose id matches no pending request (never sent, or after its "
                     "timeout), logged and dropped (section 1, decision 8.11): " +
                         d.detail};
    case Diagnostic::Kind::kInvalidResponse:
      return Finding{
          "invalid_response",
          "a line that does not parse as a response, logged and dropped (section 1): " + d.detail};
    case Diagnostic::Kind::kInvalidRequest:
      return Finding{"invalid_message",
                     "a message that is not a response (section 1: in 1.0 the plugin sends no "
                     "requests or notifications): " +
                         d.detail};
    case Diagnostic::Kind::kLenientEnvelope:
      return Finding{"lenient_envelope",
                     "a message the host took though the plugin should not have sent it so "
                     "(section 1): " +
                         d.detail};
    case Diagnostic::Kind::kNotificationFailed:
    case Diagnostic::Kind::kWriteFailed:
    case Diagnostic::Kind::kObserverFailed:
    case Diagnostic::Kind::kUndeclared:
      break;
  }
  return std::nullopt;
}

std::optional<Finding> stop_violation(const std::string& exit_detail) {
  const bool exit_code = exit_detail.rfind("exit code ", 0) == 0;
  if (!exit_code && exit_detail.rfind("signal ", 0) != 0) return std::nullopt;  // not an exit
  if (exit_detail == "exit code 0") return std::nullopt;
  return Finding{"unclean_exit", "after shutdown the plugin ended with " + exit_detail +
                                     ", not exit code 0 (section 2, decision 8.4)"};
}

}  // namespace rpckit::codex_metadata
