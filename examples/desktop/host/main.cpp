// desktop-host: the sample host of desktop-plugins v1 (/work/shared/spec), built from the
// generated bindings (desktop_v1/roles.hpp) and the generic host role (PluginProcess). It
// spawns the plugin command, runs the lifecycle and a scripted session that exercises every
// message of the protocol, prints the transcript, and exits 0 when all went as the spec says;
// otherwise 1, with "failure: <class>: <detail>" on stderr (classes: host_lifecycle.hpp, and
// protocol_violation for an answer the script did not expect).
//
//   desktop-host [--time-scale S] [--transcript FILE] -- <plugin command> [args...]
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "plugin_command.hpp"
#include "desktop_v1/roles.hpp"
#include "host_app.hpp"
#include "host_lifecycle.hpp"
#include "rpckit/process/find_executable.hpp"
#include "rpckit/roles/host_role.hpp"
#include "rpckit/roles/route.hpp"
#include "script.hpp"
#include "transcript.hpp"

namespace dv1 = desktop::v1;

int main(int argc, char** argv) {
  CLI::App cli{
      "desktop-host: run a desktop plugin (desktop-plugins v1) through a scripted session"};
  double time_scale = 1.0;
  std::string transcript_path;
  std::string plugin_id = "rpckit.desktop-sample";
  std::vector<std::string> command;
  cli.add_option("--time-scale", time_scale,
                 "Multiplies the protocol's timers (health 10 s, shutdown 5 s, exit grace 5 s)")
      ->check(CLI::Range(0.001, 100.0));
  cli.add_option("--transcript", transcript_path,
                 "Also write a JSON-lines transcript (for rpckit validate --transcript)");
  cli.add_option("--plugin-id", plugin_id,
                 "The id the plugin is installed under (a different plugin_id is a warning)");
  cli.add_option("command", command, "The plugin's entrypoint and its arguments (after --)");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) {
    return *stop;
  }

  rpckit_examples::Transcript transcript(true);
  if (!transcript_path.empty()) {
    std::string error;
    if (!transcript.open_jsonl(transcript_path, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
  }

  desktop_sample::HostApp app(transcript);
  desktop_sample::PluginContext context{plugin_id};
  rpckit::Router<dv1::PluginToHost> router;
  dv1::bind(router, app, context);

  desktop_sample::LifecycleLog log;
  rpckit::roles::PluginProcess::Observer observer;
  observer.lifecycle = [&](const rpckit::roles::LifecycleEvent& e) {
    transcript.lifecycle(e.plugin_id, rpckit::roles::to_string(e.kind),
                         e.kind == rpckit::roles::LifecycleEvent::Kind::kRunning ||
                                 e.kind == rpckit::roles::LifecycleEvent::Kind::kStarting
                             ? ""
                             : rpckit::supervision::to_string(e.cause),
                         e.detail);
    log.record(e);
  };
  observer.frame = [&](bool outgoing, std::string_view body) {
    transcript.frame(plugin_id, outgoing, body);
  };
  // Non-JSON lines and the like: logged and discarded, never fatal (spec section 3).
  observer.report = [&](std::string_view what) { transcript.plugin_says(plugin_id, what); };

  rpckit::process::SpawnOptions spawn;
  // A command without a slash is looked up on PATH, as a shell would (the spawner does not);
  // one that resolves nowhere is spawned as given, and fails saying why.
  std::string unresolved;
  spawn.executable =
      rpckit::process::resolve_command(command.front(), &unresolved).value_or(command.front());
  spawn.args.assign(command.begin() + 1, command.end());
  rpckit::supervision::Policy policy = rpckit::roles::lifecycle_policy<dv1::Protocol>(time_scale);

  std::vector<std::string> violations;
  {
    rpckit::roles::PluginProcess plugin(
        rpckit::roles::process_settings<dv1::Protocol>(plugin_id, spawn, policy),
        desktop_sample::desktop_lifecycle(plugin_id, transcript, log),
        rpckit::roles::route_through(router), std::move(observer));
    plugin.start();
    // The supervisor's own health deadline ends the wait; the margin only guards a bug.
    if (log.wait_running(policy.handshake_timeout.value_or(std::chrono::seconds(10)) + std::chrono::seconds(60))) {
      if (auto endpoint = plugin.running_endpoint()) {
        violations = desktop_sample::run_script(*endpoint, app, transcript);
      }
    }
    transcript.host("stopping the plugin");
    plugin.stop();
  }

  std::optional<desktop_sample::Failure> failure = log.failure();
  if (!failure && !violations.empty()) {
    failure = desktop_sample::Failure{"protocol_violation", violations.front()};
  }
  if (!failure && (app.counts().pings == 0 || app.counts().approvals == 0)) {
    failure = desktop_sample::Failure{"protocol_violation", "the session did not run"};
  }
  if (failure) {
    transcript.host("session FAILED: " + failure->kind);
    std::fprintf(stderr, "failure: %s: %s\n", failure->kind.c_str(), failure->detail.c_str());
    return 1;
  }
  transcript.host("session complete");
  return 0;
}
