// loaf-client: the sample client of loaf RPC v1 (/work/shared/spec), a command line over
// rpckit::loaf::Client (the client side of the spec) and the generic host role. Two modes:
//
//   loaf-client [options] -- <server command>          the scripted session: every method of
//       the spec against the sample server; exit 0 when all went as the spec says, else 1
//       with "failure: <class>: <detail>" on stderr (classes: rpckit/loaf/client.hpp and
//       session_script.hpp)
//   loaf-client --plain [--call M[=JSON]]... [options] -- <server command>   any server: the
//       handshake, the calls given, the stop; exit 0 when the peer conformed
//       (examples/common/plain_mode.hpp)
//
// options: --time-scale S, --transcript FILE
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "event_log.hpp"
#include "plain_mode.hpp"
#include "plugin_command.hpp"
#include "rpckit/loaf/client.hpp"
#include "session_script.hpp"
#include "transcript.hpp"

namespace {

int scripted(rpckit::loaf::Client& client, loaf_client::EventLog& events,
             rpckit_examples::Transcript& transcript, double time_scale) {
  if (client.start()) {
    // How long one call or one turn may take: the client's choice (decision 8.9).
    auto timeout = std::max<std::chrono::milliseconds>(
        std::chrono::milliseconds(1000),
        std::chrono::milliseconds(static_cast<long>(20000 * time_scale)));
    try {
      loaf_client::SessionScript(client, events, transcript, timeout).run();
    } catch (const loaf_client::Failure& f) {
      client.outcome().fail(f.kind, f.what());
    }
  }
  transcript.host("stopping the server");
  client.stop();
  std::string counts;
  for (const auto& [type, n] : events.counts()) counts += " " + type + "=" + std::to_string(n);
  transcript.host("events:" + counts);
  auto failure = client.outcome().failure();
  if (auto violations = client.outcome().violations(); !failure && !violations.empty()) {
    failure = rpckit::roles::SessionOutcome::Failure{"protocol_violation", violations.front()};
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
  CLI::App cli{"loaf-client: drive a loaf RPC v1 server"};
  double time_scale = 1.0;
  std::string transcript_path;
  bool plain = false;
  std::vector<std::string> call_args;
  std::vector<std::string> command;
  cli.add_option("--time-scale", time_scale,
                 "Multiplies every timer (handshake 30 s, stop 5 s + 5 s; 0.1 = ten times faster)")
      ->check(CLI::Range(0.001, 100.0));
  cli.add_option("--transcript", transcript_path,
                 "Also write a JSON-lines transcript (for rpckit validate and rpckit trace)");
  cli.add_flag("--plain", plain,
               "Any server: the handshake, the --call requests, the stop, a verdict on the peer");
  cli.add_option("--call", call_args, "With --plain: METHOD or METHOD=PARAMS_JSON, in order");
  cli.add_option("command", command, "The server command and its arguments (after --)");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) return *stop;

  auto parsed = rpckit_examples::parse_plain_calls(call_args);
  if (!parsed) return 2;
  std::vector<rpckit_examples::PlainCall> calls = std::move(*parsed);
  // In plain mode stdout carries the calls' lines only: the readable account goes to stderr.
  rpckit_examples::Transcript transcript(!plain, "client", "server", plain ? stderr : stdout);
  if (!transcript_path.empty()) {
    std::string error;
    if (!transcript.open_jsonl(transcript_path, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
  }
  loaf_client::EventLog events;
  rpckit::loaf::Client client({.command = command,
                               .client_name = "loaf-client",
                               .time_scale = time_scale,
                               .transcript = &transcript,
                               .on_event = [&events, plain](const rpckit::loaf::Event& e) {
                                 if (!plain) events.add(e);  // the script waits on them
                               }});
  if (!plain) return scripted(client, events, transcript, time_scale);

  rpckit_examples::PlainProtocol protocol;  // a call without params sends no params member
  protocol.call_deadline = std::chrono::milliseconds(60000);  // the client's choice (8.9)
  // The library records failures and violations in outcome(); they are printed at the end.
  if (rpckit_examples::run_plain(client.plugin(), calls, protocol, time_scale, client.outcome()) ==
      2) {
    return 2;
  }
  return rpckit_examples::print_verdict(client.outcome(), 0);
}
