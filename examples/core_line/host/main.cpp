// core-line-host: the sample core of core line plugins v1 (/work/shared/spec/
// core-line-plugins-v1.md), a command line over rpckit::core_line (the binding, the checks in
// the spec's order, the failure taxonomy). One tool call per run, in one of two modes:
//
//   core-line-host --plugin NAME --tool NAME [options] -- <plugin command> [args...]
//       the sample: prints the four lines as they cross, then the tool's output as the last
//       line of stdout. Exit 0: success. 1: a taxonomy failure, "failure: <code>: <plugin>:
//       <detail>" on stderr. 3: the plugin's own error, "plugin error: <code>: <message>".
//       2: usage, or an invalid plugin specification (nothing is spawned).
//   core-line-host --plain [--plugin NAME] [--tool NAME] [options] -- <plugin command> [args...]
//       any plugin: stdout is one JSON line, {"result": R}, {"error": {code, message, kind}}
//       (the tool's own error) or {"failure": {code, detail}}; each protocol violation of the
//       plugin goes to stderr as "violation: <code>: <detail> (<spec section>)". Without
//       --plugin, --tool or --allow, the manifest's plugin_id, first exposed tool and declared
//       capabilities are taken (Binding::probe). Exit 0: the plugin conformed (whatever the
//       outcome), 1: it did not, 2: usage or launch error (examples/common/plain_mode.hpp).
//
// options: --input TEXT (the input {"text": TEXT}) or --input-json JSON (any JSON; default
// {}), --context JSON, --allow a,b, --timeout-ms N, --env K=V..., --dir D, --protocol P,
// --plugin-stderr F, --time-scale S, --transcript F.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_command.hpp"
#include "rpckit/core_line/host.hpp"
#include "transcript.hpp"

namespace clv1 = core_line::v1;
namespace core = rpckit::core_line;

namespace {

// Entries kept verbatim (a padded one is refused before spawning, spec section 6).
std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  if (list.empty()) return out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  if (list.back() == ',') out.emplace_back();
  return out;
}

std::string dump(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

int sample(const core::Result& r, rpckit_examples::Transcript& transcript) {
  if (r.failure) {
    transcript.host("tool call FAILED: " + std::string(r.failure->code.wire()));
    std::fprintf(stderr, "failure: %s: %s: %s\n", std::string(r.failure->code.wire()).c_str(), r.plugin.c_str(),
                 r.failure->detail.c_str());
    return 1;
  }
  if (r.plugin_error) {
    transcript.host("the plugin reported an error");
    std::fprintf(stderr, "plugin error: %s: %s\n", r.plugin_error->code.c_str(), r.plugin_error->message.c_str());
    return 3;
  }
  transcript.host("tool call complete; output:");
  std::printf("%s\n", dump(r.output.get()).c_str());
  return 0;
}

int plain(const core::Result& r) {
  nlohmann::json line;
  int status = 0;
  if (r.failure) {
    line["failure"] = {{"code", r.failure->code.wire()}, {"detail", r.failure->detail}};
    if (r.failure->code == clv1::FailureCode::kLaunchFailed) {
      std::fprintf(stderr, "cannot launch the plugin: %s\n", r.failure->detail.c_str());
      status = 2;
    } else if (r.failure->peer_violation) {
      std::fprintf(stderr, "violation: %s (%s)\n", r.failure->describe().c_str(),
                   std::string(r.failure->rule).c_str());
      status = 1;
    }
  } else if (r.plugin_error) {
    line["error"] = {{"code", r.plugin_error->code},
                     {"message", r.plugin_error->message},
                     {"kind", core::tool_error_kind_name(core::tool_error_kind(*r.plugin_error))}};
  } else {
    line["result"] = r.output.get();
  }
  std::printf("%s\n", dump(line).c_str());
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"core-line-host: run one tool call through a core line plugin (rterm.plugin.v1)"};
  double time_scale = 1.0;
  bool plain_mode = false;
  std::string transcript_path, context_text = "{}", allow;
  std::optional<std::string> input_text, input_json;
  std::int64_t timeout_ms = 0;
  core::Binding binding;
  core::ToolCall call;
  std::vector<std::string> command;
  cli.add_flag("--plain", plain_mode, "Any plugin: one JSON line for the outcome, a verdict on the plugin");
  cli.add_option("--time-scale", time_scale,
                 "Multiplies the protocol's deadlines (invoke 5 s, launch 2 s, handshake 2 s, "
                 "teardown 500 ms, reap 2 s)")
      ->check(CLI::Range(0.001, 100.0));
  cli.add_option("--transcript", transcript_path, "Also write a JSON-lines transcript of the call");
  cli.add_option("--plugin", binding.name,
                 "The bound plugin name (the manifest's plugin_id must equal it); with --plain, "
                 "by default the manifest's");
  cli.add_option("--tool", call.tool_name, "The tool to run; with --plain, by default the first exposed");
  auto* text = cli.add_option("--input", input_text, "The tool's input as {\"text\": TEXT}");
  cli.add_option("--input-json", input_json, "The tool's input, any JSON value (default {})")->excludes(text);
  cli.add_option("--context", context_text,
                 "The request context, an object of workspace_id, widget_id, repo_root, role_id, mode_id");
  cli.add_option("--allow", allow,
                 "The core-owned capability allow-list, comma-separated; with --plain, by default "
                 "what the manifest declares");
  cli.add_option("--timeout-ms", timeout_ms, "The binding's invoke timeout (used when > 0)");
  cli.add_option("--env", binding.env,
                 "KEY=VALUE for the plugin's environment, which holds nothing else (repeatable)");
  cli.add_option("--dir", binding.dir, "The plugin's working directory");
  cli.add_option("--protocol", binding.protocol, "The protocol_version to send");
  cli.add_option("--plugin-stderr", binding.stderr_path, "Append the plugin's stderr here (default: discarded)");
  cli.add_option("command", command, "The plugin's command and its arguments (after --)");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) return *stop;
  if (!plain_mode && (binding.name.empty() || call.tool_name.empty())) {
    std::fprintf(stderr, "--plugin and --tool are required (or --plain)\n");
    return 2;
  }

  nlohmann::json input = nlohmann::json::object();
  if (input_text) input = {{"text", *input_text}};
  if (input_json) input = nlohmann::json::parse(*input_json, nullptr, false);
  nlohmann::json context = nlohmann::json::parse(context_text, nullptr, false);
  if (input.is_discarded() || context.is_discarded()) {
    std::fprintf(stderr, "--input-json and --context take JSON\n");
    return 2;
  }
  call.input = std::move(input);
  try {
    call.context = context.get<clv1::RequestContext>();
  } catch (const rpckit::codec::DecodeError& e) {
    std::fprintf(stderr, "--context: %s\n", e.what());
    return 2;
  }
  binding.command = command.front();
  binding.args.assign(command.begin() + 1, command.end());
  binding.allow_list = split_list(allow);
  binding.invoke_timeout = std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : 0);
  binding.time_scale = time_scale;
  binding.probe = plain_mode;

  // In plain mode stdout carries the outcome's line only: the readable account goes to stderr.
  rpckit_examples::Transcript transcript(!plain_mode, "core", "plugin", plain_mode ? stderr : stdout);
  if (!transcript_path.empty()) {
    std::string error;
    if (!transcript.open_jsonl(transcript_path, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
  }
  core::Observer observer;
  // A probe knows the plugin's name only from its manifest.
  auto name = [](std::string_view plugin) { return plugin.empty() ? std::string_view("plugin") : plugin; };
  observer.line = [&](std::string_view plugin, bool outgoing, std::string_view line) {
    transcript.frame(name(plugin), outgoing, line);
  };
  observer.step = [&](std::string_view plugin, std::string_view what) {
    transcript.plugin_says(name(plugin), what);
  };

  core::Result result = core::invoke(binding, call, observer);
  if (result.invalid_specification) {
    std::fprintf(stderr, "invalid plugin specification: %s\n", result.invalid_specification->c_str());
    return 2;
  }
  return plain_mode ? plain(result) : sample(result, transcript);
}
