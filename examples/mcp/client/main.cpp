// mcp-sample-client: a Model Context Protocol (2025-11-25) client over stdio, written with the
// generated client surface (mcp_2025_11_25/roles.hpp) and the generic host role, which spawns
// the server and speaks MCP's profile (one JSON-RPC message per line, the stop by closing its
// stdin). It runs any stdio MCP server and goes through what the server offers:
//
//   mcp-sample-client [options] -- <server command> [args...]
//
// the handshake (initialize, then notifications/initialized), the log level, every tool
// (called with arguments made from its input schema, or those given), prompt, resource and
// template, a subscription and completions where offered, and a ping; the server's own
// requests are answered from the policy given below. It prints a readable transcript and exits
// 0 when the server kept to the protocol, 1 when it broke it (a result outside the schema, a
// line that is not JSON-RPC, an answer to nothing, a request for a capability not declared,
// the server going away) with "violation: ..." lines on stderr, 2 on a usage error.
//
// options: --call NAME[=ARGS_JSON] (only these tools, in order), --args NAME=ARGS_JSON,
// --prompt-args NAME=ARGS_JSON, --skip NAME, --sampling reply:TEXT|refuse,
// --elicitation accept|decline|cancel, --roots URI[,URI...], --tasks (sampling and elicitation
// may come as tasks), --timeout-ms N, --max-total-ms N
// (each progress report on a tool call restarts its deadline, up to N ms in all),
// --cancel-after-ms N (a tool call unanswered that long is cancelled), --ping-interval-ms N (0:
// no pings), --max-reads N, --transcript
// FILE (JSON lines for rpckit validate and rpckit trace), --frames
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "client_handler.hpp"
#include "mcp_2025_11_25/constants.hpp"
#include "plain_mode.hpp"
#include "plugin_command.hpp"
#include "session.hpp"
#include "shown.hpp"
#include "transcript.hpp"

namespace {

using mcp_client::mcp::InitializeParams;

// "NAME=JSON" into the map (or, with `json_optional`, "NAME"); false with a message otherwise.
bool parse_named(const std::string& option, const std::string& arg,
                 std::vector<std::pair<std::string, std::optional<nlohmann::json>>>& out,
                 bool json_optional) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos) {
    if (!json_optional || arg.empty()) {
      std::fprintf(stderr, "%s: expected NAME=JSON, got \"%s\"\n", option.c_str(), arg.c_str());
      return false;
    }
    out.emplace_back(arg, std::nullopt);
    return true;
  }
  nlohmann::json value = nlohmann::json::parse(arg.substr(eq + 1), nullptr, false);
  if (value.is_discarded() || !value.is_object()) {
    std::fprintf(stderr, "%s %s: the arguments must be a JSON object\n", option.c_str(),
                 arg.substr(0, eq).c_str());
    return false;
  }
  out.emplace_back(arg.substr(0, eq), std::move(value));
  return true;
}

bool to_map(const std::string& option, const std::vector<std::string>& args,
            std::map<std::string, nlohmann::json>& out) {
  std::vector<std::pair<std::string, std::optional<nlohmann::json>>> named;
  for (const std::string& arg : args) {
    if (!parse_named(option, arg, named, false)) return false;
  }
  for (auto& [name, value] : named) out[name] = std::move(*value);
  return true;
}

// The diagnostics of the connection that mean the server broke the protocol.
bool is_violation(rpckit::Diagnostic::Kind kind, bool gave_up_on_a_call) {
  using Kind = rpckit::Diagnostic::Kind;
  switch (kind) {
    case Kind::kParseError:
    case Kind::kInvalidRequest:
    case Kind::kInvalidResponse:
    case Kind::kOversize:
    case Kind::kNotificationFailed:
    case Kind::kUndeclared:  // it asked for what this client did not declare
      return true;
    // An answer to nothing, unless to a call this client gave up on (and cancelled).
    case Kind::kUnknownResponseId:
      return !gave_up_on_a_call;
    default:
      return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"mcp-sample-client: run a stdio MCP server through what it offers"};
  std::vector<std::string> command, call_args, tool_args, prompt_args, skip;
  std::string sampling, elicitation, roots, transcript_path;
  int timeout_ms = 30000;
  std::size_t max_reads = 20;
  bool frames = false;
  cli.add_option("--call", call_args, "Only these tools, in order: NAME or NAME=ARGS_JSON");
  cli.add_option("--args", tool_args, "A tool's arguments when every tool is called: NAME=JSON");
  cli.add_option("--prompt-args", prompt_args, "A prompt's arguments: NAME=JSON");
  cli.add_option("--skip", skip, "A tool not to call");
  cli.add_option("--sampling", sampling,
                 "Declare sampling and answer sampling/createMessage: reply:TEXT or refuse");
  cli.add_option("--elicitation", elicitation,
                 "Declare elicitation (form mode) and answer it: accept, decline or cancel");
  cli.add_option("--roots", roots, "Declare roots and answer roots/list with these URIs");
  bool tasks = false;
  cli.add_flag("--tasks", tasks,
               "Declare tasks for the sampling and elicitation declared: the server may send "
               "them as tasks (answered through tasks/get and tasks/result)");
  cli.add_option("--timeout-ms", timeout_ms, "Deadline of each request (default 30000)")
      ->check(CLI::Range(1, 3600000));
  int cancel_after_ms = 0;
  int max_total_ms = 0;
  cli.add_option("--max-total-ms", max_total_ms,
                 "Each progress report on a tool call restarts its deadline, up to N ms in all")
      ->check(CLI::Range(1, 86400000));
  cli.add_option("--cancel-after-ms", cancel_after_ms,
                 "Cancel a tool call still unanswered after N ms (notifications/cancelled)")
      ->check(CLI::Range(1, 3600000));
  int ping_interval_ms = -1;
  cli.add_option("--ping-interval-ms", ping_interval_ms,
                 "Ping the server every N ms while it runs, 0: never (default: the profile's "
                 "ping_interval_ms, 60000)")
      ->check(CLI::Range(0, 86400000));
  cli.add_option("--max-reads", max_reads, "Resources read at most (default 20)");
  cli.add_option("--transcript", transcript_path,
                 "Also write a JSON-lines transcript (for rpckit validate and rpckit trace)");
  cli.add_flag("--frames", frames, "Show every frame, not only the account of the session");
  cli.add_option("command", command, "The server command and its arguments (after --)");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) return *stop;

  // The profile's health check (ping, every ping_interval_ms), at the interval asked for.
  rpckit::supervision::Policy lifecycle =
      rpckit::roles::lifecycle_policy<mcp_client::mcp::Protocol>();
  if (ping_interval_ms == 0) lifecycle.health_check_interval.reset();
  if (ping_interval_ms > 0)
    lifecycle.health_check_interval = std::chrono::milliseconds(ping_interval_ms);

  mcp_client::SessionOptions options;
  options.timeout = std::chrono::milliseconds(timeout_ms);
  if (cancel_after_ms > 0) options.cancel_after = std::chrono::milliseconds(cancel_after_ms);
  if (max_total_ms > 0) options.max_total = std::chrono::milliseconds(max_total_ms);
  options.max_reads = max_reads;
  options.skip.insert(skip.begin(), skip.end());
  for (const std::string& arg : call_args) {
    if (!parse_named("--call", arg, options.calls, true)) return 2;
  }
  if (!to_map("--args", tool_args, options.tool_arguments) ||
      !to_map("--prompt-args", prompt_args, options.prompt_arguments)) {
    return 2;
  }
  std::string error;
  auto policy = mcp_client::Policy::parse(sampling, elicitation, roots, &error);
  if (!policy) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  policy->tasks = tasks;

  try {
    rpckit_examples::Transcript transcript(frames, "client", "server");
    if (!transcript_path.empty() && !transcript.open_jsonl(transcript_path, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
    rpckit::roles::SessionOutcome outcome;
    mcp_client::ClientHandler handler(*policy, transcript);
    mcp_client::Peer peer;
    const mcp_client::mcp::ClientCapabilities capabilities = policy->capabilities();
    mcp_client::Server server({
        .id = "server",
        .command = command,
        .policy = lifecycle,
        .handshake_params =
            [capabilities] {
              InitializeParams p;
              p.protocolVersion = std::string(mcp_client::mcp::kProtocolVersion);
              p.capabilities = capabilities;
              p.clientInfo.name = "rpckit-mcp-sample-client";
              p.clientInfo.version = "0.1.0";
              return p;
            },
        // A server that answers a protocol version this client does not speak is left as a
        // refusal: the profile's version check (lifecycle, "Version Negotiation").
        .transcript = &transcript,
    });
    server.bind(handler, peer);
    mcp_client::Session session(server, handler, options, transcript, outcome);
    server.on_diagnostic([&outcome, &session](const rpckit::Diagnostic& d) {
      if (is_violation(d.kind, session.gave_up_on_a_call())) outcome.violation(d.detail);
    });

    if (server.start()) {
      if (auto hello = server.handshake_result()) {
        transcript.host("server " + hello->serverInfo.name + " " + hello->serverInfo.version +
                        ", protocol " + hello->protocolVersion + ", capabilities " +
                        nlohmann::json(hello->capabilities).dump());
        if (hello->instructions) {
          transcript.host("instructions: " + mcp_client::shortened(*hello->instructions, 200));
        }
      }
      session.run();
    }
    transcript.host("stopping the server");
    server.stop();
    if (auto why = server.stop_reason()) {
      if (why->cause == rpckit::supervision::StopCause::kExitTimeout) {
        // MCP's stdio shutdown: close stdin, wait, then SIGTERM; a server that needs the
        // signal is slow to leave, not in breach.
        transcript.host("the server did not exit when its stdin closed: " + why->detail);
      } else {
        outcome.fail(std::string(rpckit::supervision::to_string(why->cause)), why->detail);
      }
    }
    std::string counts;
    for (const auto& [method, n] : handler.counts()) {
      counts += (counts.empty() ? "" : ", ") + method + " " + std::to_string(n);
    }
    transcript.host("from the server: " + (counts.empty() ? std::string("nothing") : counts));
    transcript.host(outcome.conformed() ? "the server kept to the protocol"
                                        : "the server broke the protocol (see below)");
    return rpckit_examples::print_verdict(outcome, 0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mcp-sample-client: fatal: %s\n", e.what());
    return 1;
  }
}
