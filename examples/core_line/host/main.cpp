// core-line-host: the sample core of core line plugins v1 (/work/shared/spec/
// core-line-plugins-v1.md), on the generated types (core_line_v1) and rpckit's process and
// framing layers. It runs one tool call through the bound plugin command (invocation.hpp),
// prints the four lines as they cross, then the tool's output as the last line of stdout.
//
//   core-line-host [--time-scale S] [--transcript FILE] --plugin NAME --tool NAME
//                  [--input JSON] [--allow a,b] [--timeout-ms N] -- <plugin command> [args...]
//
// Exit 0: the call succeeded. 1: a failure of the taxonomy, "failure: <code>: ..." on stderr.
// 3: the plugin reported an error (status "error"), "plugin error: <code>: <message>" on
// stderr. 2: usage, or an invalid plugin specification (nothing is spawned).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "plugin_command.hpp"
#include "checks.hpp"
#include "core_line_v1/constants.hpp"
#include "invocation.hpp"
#include "transcript.hpp"

namespace cl = core_line::v1;
using namespace core_line_sample;

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"core-line-host: run one tool call through a core line plugin (rterm.plugin.v1)"};
  double time_scale = 1.0;
  std::string transcript_path, input_text = "{}", context_text = "{}", allow, dir;
  std::int64_t timeout_ms = 0;
  Binding binding;
  binding.protocol = std::string(cl::kProtocolVersion);
  ToolCall call;
  std::vector<std::string> command;
  cli.add_option("--time-scale", time_scale,
                 "Multiplies the protocol's deadlines (invoke 5 s, launch 2 s, handshake 2 s, "
                 "teardown 500 ms, reap 2 s)")
      ->check(CLI::Range(0.001, 100.0));
  cli.add_option("--transcript", transcript_path, "Also write a JSON-lines transcript of the call");
  cli.add_option("--plugin", binding.name, "The bound plugin name (the manifest's plugin_id must equal it)")
      ->required();
  cli.add_option("--tool", call.tool_name, "The tool to run (one of manifest.exposed_tools)")->required();
  cli.add_option("--input", input_text, "The tool's input, any JSON value (default {})");
  cli.add_option("--context", context_text,
                 "The request context, an object of workspace_id, widget_id, repo_root, role_id, mode_id");
  cli.add_option("--allow", allow, "The core-owned capability allow-list, comma-separated");
  cli.add_option("--timeout-ms", timeout_ms, "The binding's invoke timeout (used when > 0)");
  cli.add_option("--env", binding.env,
                 "KEY=VALUE for the plugin's environment, which holds nothing else (repeatable)");
  cli.add_option("--dir", binding.dir, "The plugin's working directory");
  cli.add_option("--protocol", binding.protocol, "The protocol_version to send");
  cli.add_option("--plugin-stderr", binding.stderr_path, "Append the plugin's stderr here (default: discarded)");
  cli.add_option("command", command, "The plugin's command and its arguments (after --)");
  if (auto stop = rpckit_examples::parse_host_command_line(cli, argc, argv, command)) {
    return *stop;
  }

  call.input = nlohmann::json::parse(input_text, nullptr, false);
  nlohmann::json context = nlohmann::json::parse(context_text, nullptr, false);
  if (call.input.is_discarded() || context.is_discarded()) {
    std::fprintf(stderr, "--input and --context take JSON\n");
    return 2;
  }
  try {
    call.context = context.get<cl::RequestContext>();
  } catch (const rpckit::codec::DecodeError& e) {
    std::fprintf(stderr, "--context: %s\n", e.what());
    return 2;
  }
  binding.command = command.front();
  binding.args.assign(command.begin() + 1, command.end());
  binding.allow_list = split_list(allow);
  binding.invoke_timeout = std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : 0);
  binding.time_scale = time_scale;
  if (auto invalid = invalid_specification(binding.name, binding.command, call.tool_name, binding.allow_list)) {
    std::fprintf(stderr, "invalid plugin specification: %s\n", invalid->c_str());
    return 2;
  }

  rpckit_examples::Transcript transcript(true, "core", "plugin");
  if (!transcript_path.empty()) {
    std::string error;
    if (!transcript.open_jsonl(transcript_path, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
  }
  Observer observer;
  observer.line = [&](std::string_view plugin, bool outgoing, std::string_view line) {
    transcript.frame(plugin, outgoing, line);
  };
  observer.step = [&](std::string_view plugin, std::string_view what) { transcript.plugin_says(plugin, what); };

  Outcome outcome = invoke(binding, call, observer);
  if (outcome.failure) {
    transcript.host("tool call FAILED: " + std::string(outcome.failure->code.wire()));
    std::fprintf(stderr, "failure: %s: %s: %s\n", std::string(outcome.failure->code.wire()).c_str(),
                 outcome.plugin.c_str(), outcome.failure->detail.c_str());
    return 1;
  }
  if (outcome.plugin_error) {
    transcript.host("the plugin reported an error");
    std::fprintf(stderr, "plugin error: %s: %s\n", outcome.plugin_error->code.c_str(),
                 outcome.plugin_error->message.c_str());
    return 3;
  }
  transcript.host("tool call complete; output:");
  std::printf("%s\n", outcome.output.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  return 0;
}
