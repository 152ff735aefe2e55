// What went wrong, in loaf RPC 1.0.0's words: failure kinds, violations, the handshake's
// params and verdict, error data.
#include <nlohmann/json.hpp>

#include "loaf_v1/constants.hpp"
#include "rpckit/loaf/client.hpp"

namespace rpckit::loaf {

using supervision::StopCause;

std::string failure_name(const roles::StopReason& reason) {
  switch (reason.cause) {
    case StopCause::kLaunchFailed: return "launch_failed";
    case StopCause::kHandshakeTimeout: return "handshake_timeout";
    case StopCause::kHandshakeFailed: return "handshake_refused";
    case StopCause::kHandshakeRejected: return "unsupported_protocol_version";
    case StopCause::kExitTimeout: return "exit_timeout";
    // loaf's profile restarts nothing, checks no health and caps no output; a frame the
    // connection cannot read is dropped, not a reason to stop: none of these happen.
    case StopCause::kUnhealthy:
    case StopCause::kMalformedFrame:
    case StopCause::kOversizedFrame:
    case StopCause::kOutputCap:
    case StopCause::kCrashed:
    case StopCause::kRequested: break;
  }
  return "server_exited";
}

std::optional<std::string> violation_of(const Diagnostic& d) {
  switch (d.kind) {
    case Diagnostic::Kind::kParseError:
      return "a stdout line that is not JSON, logged and skipped (section 1: stdout carries "
             "the server's messages; decision 8.8): " + d.detail;
    case Diagnostic::Kind::kOversize:
      return "a line over 64 MiB, dropped (decision 8.7): " + d.detail;
    case Diagnostic::Kind::kInvalidRequest:
      return "a message that is neither a response nor an event notification (section 1): " +
             d.detail;
    case Diagnostic::Kind::kInvalidResponse:
      return "a response that cannot be used (sections 1, 3): " + d.detail;
    case Diagnostic::Kind::kUnknownResponseId:
      return "a response to no request of the client (section 1): " + d.detail;
    case Diagnostic::Kind::kNotificationFailed:
      // An event whose envelope is not {type, timestamp, payload}; another notification is
      // not in the spec, and clients ignore what they do not know (section 7).
      if (d.detail.rfind("event:", 0) == 0) {
        return "an event notification whose params are not an EventEnvelope (section 5): " +
               d.detail;
      }
      break;
    case Diagnostic::Kind::kLenientEnvelope:  // loaf's profile takes none
    case Diagnostic::Kind::kWriteFailed:
    case Diagnostic::Kind::kObserverFailed:
    case Diagnostic::Kind::kUndeclared:
      break;
  }
  return std::nullopt;
}

std::optional<std::string> stop_violation(const std::string& exit_detail) {
  if (exit_detail == "exit code 0") return std::nullopt;
  return "after system.shutdown and its stdin closed the server ended with " + exit_detail +
         ", not exit status 0 (section 2: normal exit status is 0; decision 8.6)";
}

std::optional<std::string> error_reason(const RpcError& error) {
  if (!error.data()) return std::nullopt;
  const nlohmann::json& data = error.data()->get();
  if (!data.is_object()) return std::nullopt;
  auto reason = data.find("reason");
  if (reason == data.end() || !reason->is_string()) return std::nullopt;
  return reason->get<std::string>();
}

lv1::RpcHandshakeParams handshake_params(const std::string& client_name,
                                         const std::string& client_version, bool strict) {
  lv1::RpcHandshakeParams p;
  p.client_name = client_name;
  p.client_version = client_version;
  p.protocol_version = std::string(lv1::kProtocolVersion);
  if (strict) p.strict = true;
  return p;
}

roles::HandshakeOutcome judge_handshake(const Result<lv1::RpcHandshakeResult>& answer) {
  using Kind = roles::HandshakeOutcome::Kind;
  // A server of another major version (section 7) was refused before this, by the profile's
  // version check ("accepts": "major").
  if (answer.ok()) return {Kind::kAccepted, {}, false};
  const CallError& e = answer.error();
  if (e.kind != CallError::Kind::kRemote && e.kind != CallError::Kind::kInvalidResult) {
    return {Kind::kUnsettled, {}, false};
  }
  if (error_reason(e.error) == "unsupported_protocol_version") {
    return {Kind::kRefused, "rpc.handshake: " + e.describe(), true};
  }
  return {Kind::kRefused, "rpc.handshake answered with an error: " + e.describe(), false};
}

}  // namespace rpckit::loaf
