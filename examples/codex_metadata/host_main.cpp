// codex-metadata-host: a sample Codex host (metadata plugins 1.0) on the generic host role.
// It spawns the plugin command, runs initialize (credentials delivered as configured), a
// scripted session over every message, then shutdown, and checks each step against the spec.
// Exit 0 when the session went as the spec says; otherwise 1 with "failure: <class>" lines on
// stderr, the first being the verdict. 2: a usage error.
//
//   codex-metadata-host [--time-scale S] [--transcript FILE] -- <plugin command> [args...]
#include <unistd.h>  // environ

#include <CLI/CLI.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plugin_command.hpp"
#include "codex_metadata_v1/roles.hpp"
#include "host_policy.hpp"
#include "host_session.hpp"
#include "rpckit/roles/host_role.hpp"
#include "rpckit/roles/route.hpp"
#include "transcript.hpp"

namespace {

namespace codex = ::codex_metadata::v1;
using rpckit::roles::HandshakeOutcome;
using rpckit::roles::LifecycleEvent;
using rpckit::supervision::StopCause;

constexpr const char* kPluginId = "codex-plugin";

// What the lifecycle observer tells the main thread.
struct Watch {
  std::mutex mutex;
  std::condition_variable changed;
  bool running = false;
  bool ended = false;  // stopped or disabled
  int stops = 0;       // stopped events seen
  std::optional<codex::PluginManifest> manifest;
};

// The failure class of a stop the supervisor reports, in the spec's words.
std::string stop_class(StopCause cause) {
  switch (cause) {
    case StopCause::kLaunchFailed:
      return "launch_failed";
    case StopCause::kHandshakeFailed:
      return "initialize_failed";
    case StopCause::kHandshakeTimeout:
      return "initialize_timeout";
    case StopCause::kCrashed:
      return "process_lost";
    case StopCause::kUnhealthy:
      return "health_check_failed";
    case StopCause::kMalformedFrame:
      return "malformed_line";
    case StopCause::kOversizedFrame:
      return "oversized_line";
    case StopCause::kHandshakeRejected:
      return "protocol_version_mismatch";
    case StopCause::kOutputCap:
      return "output_cap";
    case StopCause::kExitTimeout:
      return "exit_timeout";
    case StopCause::kRequested:
      break;
  }
  return "";
}

std::map<std::string, std::string> parse_credentials(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> out;
  for (const std::string& pair : pairs) {
    auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw CLI::ValidationError("--credential", pair);
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "codex-metadata-host: run a Codex metadata plugin (protocol 1.0) through a "
      "scripted session"};
  double time_scale = 1.0;
  std::string transcript_path, delivery = "env", config_text = "{}";
  std::optional<std::string> plugin_dir;
  std::vector<std::string> credential_pairs = {"api_key=sample-key"};
  bool no_credentials = false;
  codex_host::Script script;
  std::vector<std::string> command;
  cli.add_option("--time-scale", time_scale,
                 "Multiplies the protocol's timers (0.1 = ten times faster)")
      ->check(CLI::Range(0.001, 100.0));
  cli.add_option("--transcript", transcript_path,
                 "Also write a JSON-lines transcript for `rpckit validate --transcript`");
  cli.add_option("--credential-delivery", delivery, "env, init_message or both (spec 2.2)")
      ->check(CLI::IsMember({"env", "init_message", "both"}))
      ->capture_default_str();
  cli.add_option("--credential", credential_pairs, "A credential KEY=VALUE (repeatable)")
      ->capture_default_str();
  cli.add_flag("--no-credentials", no_credentials, "Deliver no credentials at all");
  cli.add_option("--config", config_text, "The plugin's admin config, a JSON object")
      ->capture_default_str();
  cli.add_option("--plugin-dir", plugin_dir, "Absolute plugin commands must be under it");
  cli.add_option("--query", script.query, "The metadata/search query")->capture_default_str();
  cli.add_option("--title", script.title, "The metadata/match title")->capture_default_str();
  cli.add_option("command", command, "-- <plugin command> [args...]");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) {
    return *stop;
  }

  codex_host::Failures failures;
  rpckit_examples::Transcript transcript(/*verbose_frames=*/true);
  if (std::string error;
      !transcript_path.empty() && !transcript.open_jsonl(transcript_path, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  nlohmann::json config = nlohmann::json::parse(config_text, nullptr, false);
  if (!config.is_object()) {
    std::fprintf(stderr, "--config: not a JSON object\n");
    return 2;
  }
  std::map<std::string, std::string> credentials;
  try {
    if (!no_credentials) credentials = parse_credentials(credential_pairs);
  } catch (const CLI::Error& e) {
    std::fprintf(stderr, "--credential takes KEY=VALUE\n");
    return 2;
  }

  std::string why;
  auto executable = codex_host::allowed_command(command.front(), plugin_dir, &why);
  if (!executable) {
    std::fprintf(stderr, "failure: command_not_allowed: %s\n", why.c_str());
    return 1;
  }
  rpckit::process::SpawnOptions spawn;
  spawn.executable = *executable;
  spawn.args.assign(command.begin() + 1, command.end());

  // Spec 2.2 and 8.13: credential variables override inherited ones, in the plugin's
  // environment only (ours is left as it is).
  auto plan =
      codex_host::plan_credentials(codex::CredentialDelivery::from_wire(delivery), credentials);
  spawn.environment.emplace();
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string_view variable(*entry);
    if (!plan.environment.contains(std::string(variable.substr(0, variable.find('='))))) {
      spawn.environment->emplace_back(variable);
    }
  }
  for (const auto& [name, value] : plan.environment) spawn.environment->push_back(name + "=" + value);

  Watch watch;
  auto lifecycle = rpckit::roles::host_lifecycle<codex::Protocol>(
      [&] {
        codex::InitializeParams p;
        p.config.emplace();  // always sent, {} when empty (spec 2.1)
        for (auto& [key, value] : config.items()) (*p.config)[key] = rpckit::JsonValue(value);
        p.credentials = plan.in_message;
        return p;
      },
      [&](const rpckit::Result<codex::PluginManifest>& r) -> HandshakeOutcome {
        if (r.ok()) {
          codex_host::ManifestVerdict verdict = codex_host::judge_manifest(r.value());
          if (!verdict.problem.empty()) {
            failures.add(
                verdict.version_mismatch ? "protocol_version_mismatch" : "invalid_manifest",
                verdict.problem);
            return {HandshakeOutcome::Kind::kRefused, verdict.problem, verdict.version_mismatch};
          }
          std::lock_guard lock(watch.mutex);
          watch.manifest = r.value();
          return {HandshakeOutcome::Kind::kAccepted, {}, false};
        }
        const rpckit::CallError& e = r.error();
        if (codex_host::is_invalid_result(e)) {
          // The generated decoder checks protocolVersion's "1.<minor>" pattern itself.
          bool version = e.error.message().find("result.protocolVersion:") != std::string::npos;
          failures.add(version ? "protocol_version_mismatch" : "invalid_manifest", e.describe());
        } else if (e.kind == rpckit::CallError::Kind::kRemote) {
          failures.add("initialize_failed",
                       codex_host::error_name(e.error.code()) + ": " + e.error.message());
        }
        return rpckit::roles::judge_handshake(r);
      });
  // The shutdown sender, wrapped to judge the answer (spec 2, decision 8.4: null).
  lifecycle.shutdown = [&](rpckit::Endpoint& endpoint, rpckit::supervision::Duration deadline,
                           rpckit::roles::PluginProcess::Done done) {
    rpckit::call_async<codex::messages::Shutdown>(
        endpoint, {},
        [&failures, done](const rpckit::Result<std::nullptr_t>& r) {
          // After an earlier failure, the shutdown's own outcome says nothing new.
          if (!r.ok() && !failures.any()) {
            failures.add(r.error().kind == rpckit::CallError::Kind::kTimeout ? "shutdown_timeout"
                                                                             : "shutdown_failed",
                         r.error().describe());
          }
          done();
        },
        deadline);
  };

  rpckit::roles::PluginProcess::Observer observer;
  observer.lifecycle = [&](const LifecycleEvent& e) {
    transcript.lifecycle(
        e.plugin_id, to_string(e.kind),
        e.kind == LifecycleEvent::Kind::kStopped || e.kind == LifecycleEvent::Kind::kDisabled
            ? rpckit::supervision::to_string(e.cause)
            : "",
        e.detail);
    if (e.kind == LifecycleEvent::Kind::kStopped) {
      std::string failure = stop_class(e.cause);
      if (!failure.empty() && !(e.cause == StopCause::kHandshakeFailed && failures.any())) {
        failures.add(failure, e.detail);
      } else if (e.cause == StopCause::kRequested && e.detail.rfind("exit code ", 0) == 0 &&
                 e.detail != "exit code 0" && !failures.any()) {
        failures.add("unclean_exit", "after shutdown: " + e.detail);  // spec 2: code 0
      }
    }
    std::lock_guard lock(watch.mutex);
    if (e.kind == LifecycleEvent::Kind::kRunning) watch.running = true;
    if (e.kind == LifecycleEvent::Kind::kStopped || e.kind == LifecycleEvent::Kind::kDisabled) {
      watch.running = false;
      watch.ended = true;
      ++watch.stops;
    }
    watch.changed.notify_all();
  };
  observer.frame = [&](bool outgoing, std::string_view body) {
    transcript.frame(kPluginId, outgoing, body);
  };
  observer.report = [&](std::string_view what) {
    transcript.host("runtime: " + std::string(what));
  };
  // Lines the host drops (spec 1, decision 8.12) are the plugin's violations, not fatal.
  observer.diagnostic = [&](const rpckit::Diagnostic& d) {
    if (d.kind == rpckit::Diagnostic::Kind::kOversize) failures.add("oversized_line", d.detail);
    if (d.kind == rpckit::Diagnostic::Kind::kParseError) failures.add("malformed_line", d.detail);
  };

  // In 1.0 the plugin sends no requests: the host routes nothing (-32601 to anything).
  rpckit::Router<codex::HostToPlugin> nothing;
  rpckit::supervision::Policy policy = rpckit::roles::lifecycle_policy<codex::Protocol>(time_scale);
  script.request_timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(codex::kRequestTimeoutMs * time_scale);
  rpckit::roles::PluginProcess plugin(
      rpckit::roles::process_settings<codex::Protocol>(kPluginId, spawn, policy),
      std::move(lifecycle), rpckit::roles::route_through(nothing), std::move(observer));

  transcript.host("spawning " + spawn.executable.string() + " (credentials: " + delivery + ")");
  plugin.start();
  std::optional<codex::PluginManifest> manifest;
  {
    std::unique_lock lock(watch.mutex);
    // The runtime's own timers end every wait: handshake timeout, exit, kill.
    watch.changed.wait(lock, [&] { return watch.running || watch.ended || failures.any(); });
    if (watch.running) manifest = watch.manifest;
  }
  if (manifest && !failures.any()) {
    if (auto endpoint = plugin.running_endpoint()) {
      rpckit::roles::Caller caller;
      caller.attach(endpoint.get());
      codex::PluginClient client(caller);
      codex_host::SessionEnd end =
          codex_host::run_session(client, *manifest, script, transcript, failures);
      caller.attach(nullptr);
      if (end.lost) {
        // The lifecycle says why the connection closed (crash, oversized line, ...); its
        // stop event follows the failed call promptly.
        std::unique_lock lock(watch.mutex);
        watch.changed.wait_for(lock, std::chrono::seconds(30), [&] { return watch.stops > 0; });
        lock.unlock();
        failures.add("process_lost", end.detail);
      }
    }
  }
  transcript.host("stopping the plugin (shutdown)");
  plugin.stop();
  if (failures.any()) {
    for (const std::string& line : failures.lines()) std::fprintf(stderr, "%s\n", line.c_str());
    transcript.host("session FAILED");
    return 1;
  }
  transcript.host("session complete");
  return 0;
}
