// core-line-plugin: the sample plugin of core line plugins v1 (/work/shared/spec/
// core-line-plugins-v1.md), on the generated exchange (core_line_v1/exchange.hpp) and the
// generic one-shot role (rpckit::roles::OneShotPeer). One process serves one tool call: it
// reads the handshake, answers with its manifest, reads the request, runs one of its text
// tools (text_tools.hpp) and answers, then exits 0 (spec 9.9).
//
//   core-line-plugin [--plugin-id ID]       (default rpckit.text)
//
// Malformed input, as the spec says: a first line that is not a handshake gets no answer and
// exit 2 (spec 9.2); a protocol_version it does not speak still gets the manifest, with its own
// version, then exit 3 (9.3); a line over 1 MiB, a request that does not decode, or EOF before
// a line: exit 2 with the reason on stderr (9.12). Stray output of ours never reaches stdout.
#include <cstdio>
#include <cstring>
#include <string>

#include "trim.hpp"
#include "core_line_v1/exchange.hpp"
#include "rpckit/roles/one_shot.hpp"
#include "text_tools.hpp"

namespace cl = core_line::v1;
using rpckit::roles::decode_step;
using rpckit::roles::has_tag;
using namespace core_line_sample;

namespace {

constexpr int kRefused = 2;      // the core's line cannot be answered
constexpr int kUnsupported = 3;  // answered the handshake, but does not speak its version

int refuse(const std::string& why) {
  std::fprintf(stderr, "core-line-plugin: %s\n", why.c_str());
  return kRefused;
}

cl::ExecuteResponse run(const cl::ExecuteRequest& request) {
  ToolResult result = run_tool(request.tool_name, request.input.get());
  cl::ExecuteResponse response;
  response.request_id = request.request_id;
  if (result.output) {
    response.status = cl::ResponseStatus::kOk;
    response.output = std::move(*result.output);
  } else {
    response.status = cl::ResponseStatus::kError;
    response.error = rpckit::Nullable<cl::PluginError>(cl::PluginError{result.error_code, result.error_message});
  }
  if (nlohmann::json(response).dump().size() > cl::Exchange::kMaxFrameBytes) {
    // The core would call the line malformed: say why instead.
    response.status = cl::ResponseStatus::kError;
    response.output.reset();
    response.error = rpckit::Nullable<cl::PluginError>(
        cl::PluginError{"output_too_large", "the output does not fit in a 1 MiB line"});
  }
  return response;
}

}  // namespace

int main(int argc, char** argv) {
  std::string plugin_id = "rpckit.text";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--plugin-id") == 0 && i + 1 < argc) {
      plugin_id = argv[++i];
    } else {
      std::fprintf(stderr, "usage: core-line-plugin [--plugin-id ID]\n");
      return kRefused;
    }
  }
  rpckit::roles::OneShotPeer<cl::Exchange> core;
  std::string why;

  // Steps 0 and 1: the handshake.
  rpckit::roles::LineReceived line = core.receive<0>();
  if (!line.ok()) return refuse("handshake: " + line.reason);
  if (!has_tag<cl::Exchange, 0>(line.message)) return refuse("the first line is not a handshake; answering nothing");
  auto handshake = decode_step<cl::Exchange, 0>(line.message, &why);
  if (!handshake) return refuse("handshake: " + why);
  cl::Manifest manifest{plugin_id, "1.0.0", std::string(cl::kProtocolVersion), kToolNames,
                        std::vector<std::string>{"tool.execute"}};
  if (!core.send<1>(cl::HandshakeResponse{manifest})) return refuse("cannot write the handshake answer");
  if (trim(handshake->protocol_version) != cl::kProtocolVersion) {
    std::fprintf(stderr, "core-line-plugin: offered %s, speaks only %s\n",
                 handshake->protocol_version.c_str(), std::string(cl::kProtocolVersion).c_str());
    return kUnsupported;
  }

  // Steps 2 and 3: the request.
  line = core.receive<2>();
  if (!line.ok()) return refuse("request: " + line.reason);
  auto request = decode_step<cl::Exchange, 2>(line.message, &why);
  if (!request) return refuse("request: " + why);
  if (!core.send<3>(run(*request))) return refuse("cannot write the response");
  return 0;  // spec 9.9: exit as soon as the response is out
}
