#pragma once
// The plain mode of every sample host: any plugin of the protocol, through its lifecycle and the
// calls given on the command line, with what came back printed and a verdict on the peer:
//
//   <host> --plain [--call METHOD[=PARAMS_JSON]]... [--transcript F] [--time-scale S] -- <cmd>
//
// stdout: one JSON line per call, in order, and nothing else: {"call": M, "result": R},
// {"call": M, "error": {code, message, data?}} or {"call": M, "failed": "<why>"} for a call
// that got no answer. stderr: each protocol violation of the peer, as "violation: <what>
// (<spec reference>)". Exit status: 0 the peer conformed, 1 it did not, 2 usage or launch
// error. The protocol's host library says what is a violation and in which words
// (PlainProtocol); this file only runs the session.
#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/endpoint/typed.hpp"
#include "rpckit/roles/session_outcome.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace rpckit_examples {

struct PlainCall {
  std::string method;
  std::optional<nlohmann::json> params;  // absent: the protocol's params for a parameterless call
};

// "METHOD" or "METHOD=JSON"; nullopt with *error when the JSON does not parse.
std::optional<PlainCall> parse_plain_call(const std::string& arg, std::string* error);
// Every --call argument, in order; nullopt (the reason said on stderr) at the first bad one.
std::optional<std::vector<PlainCall>> parse_plain_calls(const std::vector<std::string>& args);

struct PlainProtocol {
  // The params a call given without them carries (desktop: {}; most: none).
  std::optional<nlohmann::json> parameterless;
  // The deadline of a call whose message names none (the host's choice where the spec is
  // silent), before time scaling.
  std::chrono::milliseconds call_deadline{30000};
  // Each of the three below may be left empty when the protocol's host library records the
  // same in the SessionOutcome itself.
  // The protocol's words for what the endpoint noticed (nullopt: not a violation).
  std::function<std::optional<std::string>(const rpckit::Diagnostic&)> violation;
  // The protocol's words for why the plugin went down on its own (always a violation).
  std::function<std::string(const rpckit::roles::StopReason&)> failure;
  // How the stop ended (the supervisor's detail, "exit code 0"), as a violation or nullopt.
  std::function<std::optional<std::string>(const std::string& stop_detail)> stop;
  // Sends one call and builds its line (default: a raw call on the running endpoint); for a
  // host whose calls do more (Codex: rate limits, respawns).
  std::function<nlohmann::json(const PlainCall&)> call;
};

// The line a call's outcome prints.
nlohmann::json plain_line(const std::string& method, const rpckit::CallResult& result);

// Runs the session on `plugin` (bound and configured by the caller): start, the calls, stop.
// Violations it finds go to `outcome` and to stderr as they happen; returns 2 when the plugin
// could not be launched, else 0 when `outcome` says the peer conformed, 1 when not (print
// what the library recorded with print_verdict()).
template <class Protocol>
int run_plain(rpckit::roles::SpawnedPlugin<Protocol>& plugin, const std::vector<PlainCall>& calls,
              const PlainProtocol& protocol, double time_scale,
              rpckit::roles::SessionOutcome& outcome) {
  std::mutex print;
  auto violation = [&](const std::string& what) {
    outcome.violation(what);
    std::lock_guard lock(print);
    std::fprintf(stderr, "violation: %s\n", what.c_str());
  };
  std::optional<std::string> stop_detail;
  if (protocol.violation) {
    plugin.on_diagnostic([&](const rpckit::Diagnostic& d) {
      if (auto what = protocol.violation(d)) violation(*what);
    });
  }
  if (protocol.stop) {
    plugin.on_lifecycle([&](const rpckit::roles::LifecycleEvent& e) {
      if (e.kind == rpckit::roles::LifecycleEvent::Kind::kStopped &&
          e.cause == rpckit::supervision::StopCause::kRequested) {
        stop_detail = e.detail;  // the control thread; read after stop() returned
      }
    });
  }
  if (!plugin.start()) {
    auto why = plugin.stop_reason();
    if (why && why->cause == rpckit::supervision::StopCause::kLaunchFailed) {
      std::fprintf(stderr, "cannot launch the plugin: %s\n", why->detail.c_str());
      return 2;
    }
  }
  auto deadline = std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(
      static_cast<double>(protocol.call_deadline.count()) * time_scale));
  for (const PlainCall& call : calls) {
    nlohmann::json line;
    if (protocol.call) {
      line = protocol.call(call);
    } else if (auto endpoint = plugin.endpoint()) {
      std::optional<rpckit::JsonValue> params;
      if (call.params) {
        params = rpckit::JsonValue(*call.params);
      } else if (protocol.parameterless) {
        params = rpckit::JsonValue(*protocol.parameterless);
      }
      rpckit::CallResult result = endpoint->call(call.method, params, deadline);
      line = plain_line(call.method, result);
      // A result that does not match the schema of a message the protocol knows.
      Protocol::ToSpawned::visit(call.method, [&]<class M>() {
        if constexpr (M::kKind == rpckit::MessageKind::kRequest) {
          if (!result.ok()) return;
          auto typed = rpckit::decode_result<M>(result);
          if (!typed.ok()) violation(typed.error().error.message());
        }
      });
    } else {
      line = {{"call", call.method}, {"failed", "not_running"}};
    }
    std::lock_guard lock(print);
    std::printf("%s\n", line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    std::fflush(stdout);
  }
  plugin.stop();
  if (auto why = plugin.stop_reason(); why && protocol.failure) violation(protocol.failure(*why));
  if (stop_detail && protocol.stop) {
    if (auto what = protocol.stop(*stop_detail)) violation(*what);
  }
  return outcome.conformed() ? 0 : 1;
}

// Prints what `outcome` recorded that run_plain did not print itself (a host library's own
// findings), "violation: ..." lines on stderr, and returns the exit status it means.
int print_verdict(const rpckit::roles::SessionOutcome& outcome, std::size_t printed_before);

}  // namespace rpckit_examples
