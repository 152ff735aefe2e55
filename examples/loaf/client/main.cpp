// loaf-client: the sample loaf RPC v1 client. It spawns a server command, runs the
// protocol's lifecycle (rpc.handshake, system.ping health checks, system.shutdown, then
// stdin closed) with the generic host role (rpckit::roles::PluginProcess) and a scripted
// session over every method (session_script.hpp), and prints a transcript. Exit 0 when the
// session went as the spec says; otherwise 1 with "failure: <class>: <detail>" on stderr.
//
//   loaf-client [--time-scale S] [--transcript FILE] -- <server command> [args...]
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "plugin_command.hpp"
#include "event_log.hpp"
#include "loaf_v1/constants.hpp"
#include "loaf_v1/roles.hpp"
#include "rpckit/roles/host_role.hpp"
#include "rpckit/roles/route.hpp"
#include "session_script.hpp"
#include "transcript.hpp"

namespace v1 = loaf::v1;
using rpckit::roles::LifecycleEvent;
using rpckit::supervision::StopCause;

namespace {

// The first failure wins; lifecycle events and the script both report here.
struct Outcome {
  std::mutex mutex;
  std::condition_variable changed;
  bool running = false;
  bool stopping = false;
  std::optional<loaf_client::Failure> failure;

  void fail(const std::string& kind, const std::string& detail) {
    std::lock_guard lock(mutex);
    if (!failure) failure.emplace(kind, detail);
    changed.notify_all();
  }
};

// The spec's name for why the server stopped before the client asked it to.
std::string failure_class(StopCause cause) {
  switch (cause) {
    case StopCause::kLaunchFailed: return "launch_failed";
    case StopCause::kHandshakeFailed: return "handshake_refused";
    case StopCause::kHandshakeTimeout: return "handshake_timeout";
    case StopCause::kHandshakeRejected: return "unsupported_protocol_version";
    case StopCause::kOutputCap: return "malformed_output";
    case StopCause::kUnhealthy: return "ping_timeout";
    case StopCause::kMalformedFrame:
    case StopCause::kOversizedFrame: return "malformed_output";
    case StopCause::kExitTimeout: return "exit_timeout";
    case StopCause::kCrashed:
    case StopCause::kRequested: break;
  }
  return "server_exited";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"loaf-client: drive a loaf RPC v1 server through a scripted session"};
  double time_scale = 1.0;
  std::string transcript_path;
  std::vector<std::string> command;
  cli.add_option("--time-scale", time_scale,
                 "Multiplies every protocol timer (0.1 = ten times faster)")
      ->check(CLI::Range(0.001, 100.0));
  cli.add_option("--transcript", transcript_path,
                 "Also write a JSON-lines transcript for `rpckit validate --transcript`");
  cli.add_option("command", command, "The server command and its arguments (after --)");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) {
    return *stop;
  }

  rpckit_examples::Transcript transcript(true, "client", "server");
  std::string error;
  if (!transcript_path.empty() && !transcript.open_jsonl(transcript_path, &error)) {
    std::fprintf(stderr, "loaf-client: %s\n", error.c_str());
    return 2;
  }

  loaf_client::EventLog events;
  loaf_client::Server server_context;
  rpckit::Router<v1::ServerToClient> router;
  bind(router, events, server_context);

  rpckit::process::SpawnOptions spawn;
  spawn.executable = command[0];
  spawn.args.assign(command.begin() + 1, command.end());
  rpckit::supervision::Policy policy = rpckit::roles::lifecycle_policy<v1::Protocol>(time_scale);
  Outcome outcome;

  auto lifecycle = rpckit::roles::host_lifecycle<v1::Protocol>(
      [] {
        v1::RpcHandshakeParams p;
        p.client_name = std::string("loaf-client");
        p.client_version = std::string("0.1.0");
        p.protocol_version = std::string(v1::kProtocolVersion);
        return p;
      },
      [&](const rpckit::Result<v1::RpcHandshakeResult>& r) {
        // Within major version 1 anything is compatible (spec section 7).
        if (r.ok() && r->protocol_version.rfind("1.", 0) != 0) {
          outcome.fail("unsupported_protocol_version",
                       "the server speaks protocol_version " + r->protocol_version);
          return rpckit::roles::HandshakeOutcome{
              rpckit::roles::HandshakeOutcome::Kind::kRefused, "unsupported version", true};
        }
        if (!r.ok() && r.error().kind == rpckit::CallError::Kind::kRemote) {
          outcome.fail("handshake_refused", r.error().describe());
        }
        return rpckit::roles::judge_handshake(r, [](const rpckit::RpcError&) { return true; });
      });
  // Decision 8.6: once shutdown is answered, stdin is closed (the role does so for a protocol
  // without an exit message); the server then exits by itself.

  rpckit::roles::PluginProcess::Observer observer;
  observer.lifecycle = [&](const LifecycleEvent& e) {
    transcript.lifecycle("loaf", to_string(e.kind), rpckit::supervision::to_string(e.cause),
                         e.detail);
    std::lock_guard lock(outcome.mutex);
    if (e.kind == LifecycleEvent::Kind::kRunning) outcome.running = true;
    bool failed = e.kind == LifecycleEvent::Kind::kStopped ||
                  e.kind == LifecycleEvent::Kind::kDisabled;
    if (failed && e.cause != StopCause::kRequested && !outcome.failure &&
        (!outcome.stopping || e.cause == StopCause::kExitTimeout)) {
      outcome.failure.emplace(failure_class(e.cause), e.detail);
    }
    outcome.changed.notify_all();
  };
  observer.frame = [&](bool outgoing, std::string_view body) {
    transcript.frame("loaf", outgoing, body);
  };
  observer.report = [&](std::string_view what) { transcript.plugin_says("loaf", what); };

  rpckit::roles::PluginProcess process(
      rpckit::roles::process_settings<v1::Protocol>("loaf", spawn, policy), std::move(lifecycle),
      rpckit::roles::route_through(router), std::move(observer));
  process.start();
  {
    std::unique_lock lock(outcome.mutex);
    // The supervisor's handshake timer decides; this wait only needs to outlast it.
    outcome.changed.wait_for(lock, policy.handshake_timeout.value_or(std::chrono::seconds(30)) * 2 + std::chrono::seconds(5),
                             [&] { return outcome.running || outcome.failure.has_value(); });
    if (!outcome.running && !outcome.failure) {
      outcome.failure.emplace("handshake_timeout", "no rpc.handshake answer");
    }
  }
  if (auto endpoint = process.running_endpoint(); endpoint && !outcome.failure) {
    auto call_timeout = std::max<std::chrono::milliseconds>(
        std::chrono::milliseconds(1000),
        std::chrono::milliseconds(static_cast<long>(20000 * time_scale)));
    try {
      loaf_client::SessionScript(endpoint, events, transcript, call_timeout).run();
    } catch (const loaf_client::Failure& f) {
      outcome.fail(f.kind, f.what());
    }
  }
  {
    std::lock_guard lock(outcome.mutex);
    outcome.stopping = true;
  }
  process.stop();

  std::string counts;
  for (const auto& [type, n] : events.counts()) counts += " " + type + "=" + std::to_string(n);
  transcript.host("events:" + counts);
  std::lock_guard lock(outcome.mutex);
  if (outcome.failure) {
    transcript.host("session FAILED: " + outcome.failure->kind);
    std::fprintf(stderr, "failure: %s: %s\n", outcome.failure->kind.c_str(),
                 outcome.failure->what());
    return 1;
  }
  transcript.host("session complete");
  return 0;
}
