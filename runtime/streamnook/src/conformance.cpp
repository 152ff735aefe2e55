#include "rpckit/streamnook/conformance.hpp"

namespace rpckit::streamnook {

using supervision::StopCause;
using Kind = roles::LifecycleEvent::Kind;

std::optional<std::string> violation_of(const Diagnostic& d) {
  switch (d.kind) {
    case Diagnostic::Kind::kParseError:
      return "a frame that is not JSON (section 3, parse_error): " + d.detail;
    case Diagnostic::Kind::kOversize:
      return "a frame over 4 MiB (section 1: a protocol violation): " + d.detail;
    case Diagnostic::Kind::kLenientEnvelope:
    case Diagnostic::Kind::kInvalidRequest:
      return "an envelope that is not a JSON-RPC 2.0 request, notification or response "
             "(section 1): " + d.detail;
    case Diagnostic::Kind::kInvalidResponse:
      return "a response that cannot be used (section 1): " + d.detail;
    case Diagnostic::Kind::kUnknownResponseId:
      return "a response to no request of the host (section 1: exactly one response per "
             "request): " + d.detail;
    case Diagnostic::Kind::kNotificationFailed:
    case Diagnostic::Kind::kWriteFailed:
    case Diagnostic::Kind::kObserverFailed:
    case Diagnostic::Kind::kUndeclared:
      break;
  }
  return std::nullopt;
}

std::optional<std::string> violation_of(const roles::LifecycleEvent& e) {
  if (e.kind == Kind::kDisabled) {
    return "disabled (section 2: more than 3 restarts within 10 minutes, or decision 9.2): " +
           e.detail;
  }
  if (e.kind != Kind::kStopped) return std::nullopt;
  switch (e.cause) {
    case StopCause::kRequested:
      // Only an exit status judges the plugin ("pending restart cancelled" does not).
      if (e.detail == "exit code 0" ||
          (e.detail.rfind("exit code ", 0) != 0 && e.detail.rfind("signal ", 0) != 0)) {
        return std::nullopt;
      }
      return "stopped by the host, the plugin ended with " + e.detail +
             ", not exit code 0 after exit (section 2)";
    case StopCause::kLaunchFailed:
      return "cannot be launched (section 1: runtime.entry in the install directory): " +
             e.detail;
    case StopCause::kHandshakeTimeout:
      return "initialize not answered within 10 s (section 2): " + e.detail;
    case StopCause::kHandshakeFailed:
    case StopCause::kHandshakeRejected:
      return "initialize failed (section 2, decision 9.2): " + e.detail;
    case StopCause::kCrashed:
      return "the plugin ended on its own (section 2: restarted with backoff): " + e.detail;
    case StopCause::kUnhealthy:
      return "3 consecutive pings unanswered (section 2: unhealthy): " + e.detail;
    case StopCause::kMalformedFrame:
      return "a malformed frame (section 1: a protocol violation): " + e.detail;
    case StopCause::kOversizedFrame:
      return "a frame over 4 MiB (section 1: a protocol violation): " + e.detail;
    case StopCause::kOutputCap:
      return "wrote more than the host's output cap: " + e.detail;
    case StopCause::kExitTimeout:
      return "still alive 5 s after exit, killed (section 2): " + e.detail;
  }
  return std::nullopt;
}

}  // namespace rpckit::streamnook
