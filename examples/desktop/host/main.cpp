// desktop-host: the sample host of desktop-plugins v1 (/work/shared/spec), a command line over
// rpckit::desktop::Host (the spec's host policy) and the generic host role. Two modes:
//
//   desktop-host [options] -- <plugin command>          the scripted session: every message of
//       the protocol against the sample plugin; exit 0 when all went as the spec says, else 1
//       with "failure: <class>: <detail>" on stderr (classes: rpckit/desktop/host.hpp)
//   desktop-host --plain [--call M[=JSON]]... [options] -- <plugin command>   any plugin: its
//       lifecycle and the calls given; exit 0 when the peer conformed (examples/common/
//       plain_mode.hpp)
//
// options: --time-scale S, --transcript FILE, --plugin-id ID
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plain_mode.hpp"
#include "plugin_command.hpp"
#include "rpckit/desktop/host.hpp"
#include "script.hpp"
#include "transcript.hpp"

namespace {

int scripted(rpckit::desktop::Host& host, rpckit_examples::Transcript& transcript) {
  std::vector<std::string> violations;
  if (host.start()) violations = desktop_sample::run_script(host, transcript);
  transcript.host("stopping the plugin");
  host.stop();
  auto failure = host.outcome().failure();
  if (!failure && !violations.empty()) {
    failure = rpckit::roles::SessionOutcome::Failure{"protocol_violation", violations.front()};
  }
  if (!failure && (host.counts().pings == 0 || host.counts().approvals == 0)) {
    failure = rpckit::roles::SessionOutcome::Failure{"protocol_violation", "the session did not run"};
  }
  if (failure) {
    transcript.host("session FAILED: " + failure->kind);
    std::fprintf(stderr, "failure: %s: %s\n", failure->kind.c_str(), failure->detail.c_str());
    return 1;
  }
  transcript.host("session complete");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"desktop-host: run a desktop plugin (desktop-plugins v1)"};
  double time_scale = 1.0;
  std::string transcript_path;
  std::string plugin_id = "rpckit.desktop-sample";
  bool plain = false;
  std::vector<std::string> call_args;
  std::vector<std::string> command;
  cli.add_option("--time-scale", time_scale,
                 "Multiplies the protocol's timers (health 10 s, shutdown 5 s, exit grace 5 s)")
      ->check(CLI::Range(0.001, 100.0));
  cli.add_option("--transcript", transcript_path,
                 "Also write a JSON-lines transcript (for rpckit validate and rpckit trace)");
  cli.add_option("--plugin-id", plugin_id,
                 "The id the plugin is installed under (a different plugin_id is a warning)");
  cli.add_flag("--plain", plain,
               "Any plugin: its lifecycle and the --call requests, then a verdict on the peer");
  cli.add_option("--call", call_args, "With --plain: METHOD or METHOD=PARAMS_JSON, in order");
  cli.add_option("command", command, "The plugin's entrypoint and its arguments (after --)");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) return *stop;

  auto parsed = rpckit_examples::parse_plain_calls(call_args);
  if (!parsed) return 2;
  std::vector<rpckit_examples::PlainCall> calls = std::move(*parsed);
  // In plain mode stdout carries the calls' lines only: the readable account goes to stderr.
  rpckit_examples::Transcript transcript(!plain, "host", "plugin", plain ? stderr : stdout);
  if (!transcript_path.empty()) {
    std::string error;
    if (!transcript.open_jsonl(transcript_path, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
  }
  rpckit::desktop::Host host({.installed_id = plugin_id,
                              .command = command,
                              .time_scale = time_scale,
                              .transcript = &transcript});
  if (!plain) return scripted(host, transcript);

  rpckit_examples::PlainProtocol protocol;
  protocol.parameterless = nlohmann::json::object();  // decision 9.6: parameterless methods send {}
  protocol.call_deadline = std::chrono::milliseconds(60000);
  // The host's policy already records failures and violations in outcome(); the plain mode
  // prints them as they come.
  if (rpckit_examples::run_plain(host.plugin(), calls, protocol, time_scale, host.outcome()) == 2) {
    return 2;
  }
  return rpckit_examples::print_verdict(host.outcome(), 0);
}
