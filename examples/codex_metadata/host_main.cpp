// codex-metadata-host: the sample Codex host (metadata plugins 1.0), a command line over
// rpckit::codex_metadata::Host (the spec's host policy) and the generic host role. Two modes:
//
//   codex-metadata-host [options] -- <plugin command>    the scripted session: initialize
//       (credentials delivered as configured), ping, every metadata method, shutdown; exit 0
//       when all went as the spec says, else 1 with "failure: <class>: <detail>" lines on
//       stderr, the first being the verdict
//   codex-metadata-host --plain [--call M[=JSON]]... [options] -- <plugin command>   any
//       plugin: its lifecycle and the calls given, through the host's policy; exit 0 when the
//       peer conformed (examples/common/plain_mode.hpp)
//
// options: --time-scale S, --transcript FILE, --credential-delivery, --credential, --config,
// --plugin-dir, --query, --title. The command must be allowed (spec section 1): an absolute
// path, or node, npx, python, python3, uv, uvx, or a name in CODEX_PLUGIN_ALLOWED_COMMANDS.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "host_session.hpp"
#include "plain_mode.hpp"
#include "plugin_command.hpp"
#include "rpckit/codex_metadata/host.hpp"
#include "transcript.hpp"

namespace {

namespace cmh = rpckit::codex_metadata;

std::optional<std::map<std::string, std::string>> parse_credentials(
    const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> out;
  for (const std::string& pair : pairs) {
    auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) return std::nullopt;
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

// The contract's line for one call: the answer, or why there is none ("failed"); a -32001
// also says the retry-after the host applies.
nlohmann::json call_line(const std::string& method, const rpckit::CallResult& result) {
  nlohmann::json line = rpckit_examples::plain_line(method, result);
  if (result.ok()) return line;
  const rpckit::CallError& e = result.error();
  if (e.kind != rpckit::CallError::Kind::kRemote) {
    line["failed"] = cmh::failed_reason(e);
  } else if (::codex_metadata::v1::error_code(e) == ::codex_metadata::v1::ErrorCode::kRateLimited) {
    line["retryAfterSeconds"] = cmh::retry_after_seconds(e.error);
  }
  return line;
}

int scripted(cmh::Host& host, const codex_host::Script& script,
             rpckit_examples::Transcript& transcript, codex_host::Failures& failures) {
  if (host.start()) {
    codex_host::run_session(host, script, transcript, failures);
  } else if (auto why = host.why_not_running()) {
    failures.add(why->kind, why->detail);
  }
  transcript.host("stopping the plugin (shutdown)");
  host.stop();
  if (failures.any()) {
    for (const std::string& line : failures.lines()) std::fprintf(stderr, "%s\n", line.c_str());
    transcript.host("session FAILED");
    return 1;
  }
  transcript.host("session complete");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"codex-metadata-host: run a Codex metadata plugin (protocol 1.0)"};
  double time_scale = 1.0;
  std::string transcript_path, delivery = "env", config_text = "{}";
  std::optional<std::string> plugin_dir;
  std::vector<std::string> credential_pairs = {"api_key=sample-key"};
  bool no_credentials = false;
  bool plain = false;
  std::vector<std::string> call_args;
  codex_host::Script script;
  std::vector<std::string> command;
  cli.add_option("--time-scale", time_scale,
                 "Multiplies the protocol's timers (0.1 = ten times faster)")
      ->check(CLI::Range(0.001, 100.0));
  cli.add_option("--transcript", transcript_path,
                 "Also write a JSON-lines transcript (for rpckit validate and rpckit trace)");
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
  cli.add_flag("--plain", plain,
               "Any plugin: its lifecycle and the --call requests, then a verdict on the peer");
  cli.add_option("--call", call_args, "With --plain: METHOD or METHOD=PARAMS_JSON, in order");
  cli.add_option("command", command, "-- <plugin command> [args...]");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) {
    return *stop;
  }

  auto parsed = rpckit_examples::parse_plain_calls(call_args);
  if (!parsed) return 2;
  std::vector<rpckit_examples::PlainCall> calls = std::move(*parsed);
  nlohmann::json config = nlohmann::json::parse(config_text, nullptr, false);
  if (!config.is_object()) {
    std::fprintf(stderr, "--config: not a JSON object\n");
    return 2;
  }
  auto credentials =
      parse_credentials(no_credentials ? std::vector<std::string>{} : credential_pairs);
  if (!credentials) {
    std::fprintf(stderr, "--credential takes KEY=VALUE\n");
    return 2;
  }
  // In plain mode stdout carries the calls' lines only: the readable account goes to stderr.
  rpckit_examples::Transcript transcript(!plain, "host", "plugin", plain ? stderr : stdout);
  if (std::string error;
      !transcript_path.empty() && !transcript.open_jsonl(transcript_path, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }

  codex_host::Failures failures;
  cmh::Host::Options options;
  options.command = command;
  if (plugin_dir) options.plugin_dir = *plugin_dir;
  options.credential_delivery = ::codex_metadata::v1::CredentialDelivery::from_wire(delivery);
  options.credentials = *credentials;
  for (auto& [key, value] : config.items()) options.config[key] = rpckit::JsonValue(value);
  options.time_scale = time_scale;
  options.transcript = &transcript;
  if (plain) {
    // Every call reaches the plugin if it can: a -32001's retry-after is waited out.
    options.while_held = cmh::Host::WhileHeld::kWait;
  } else {
    options.on_finding = [&](const cmh::Finding& f, bool) { failures.add(f.kind, f.detail); };
  }
  cmh::Host host(std::move(options));
  transcript.host("plugin command " + command.front() + " (credentials: " + delivery + ")");
  if (!plain) return scripted(host, script, transcript, failures);

  if (auto refused = host.why_not_running()) {  // the allow-list (section 1)
    std::fprintf(stderr, "cannot launch the plugin: %s\n", refused->describe().c_str());
    return 2;
  }
  rpckit_examples::PlainProtocol protocol;  // parameterless methods send no params member
  protocol.call = [&](const rpckit_examples::PlainCall& call) {
    std::optional<std::string> params;
    if (call.params) params = call.params->dump();
    return call_line(call.method, host.call(call.method, params));
  };
  if (rpckit_examples::run_plain(host.plugin(), calls, protocol, time_scale, host.outcome()) == 2) {
    return 2;
  }
  return rpckit_examples::print_verdict(host.outcome(), 0);
}
