// core-line-plugin: the sample plugin of core line plugins v1 (/work/shared/spec/
// core-line-plugins-v1.md), on the generated types (core_line_v1) and rpckit's framing. One
// process serves one tool call: it reads the handshake, answers with its manifest, reads the
// request, runs one of its text tools (text_tools.hpp) and answers, then exits 0 (spec 9.9).
//
//   core-line-plugin [--plugin-id ID]       (default rpckit.text)
//
// Malformed input, as the spec says: a first line that is not a handshake gets no answer and
// exit 2 (spec 9.2); a protocol_version it does not speak still gets the manifest, with its own
// version, then exit 3 (9.3); a line over 1 MiB, a request that does not decode, or EOF before
// a line: exit 2 with the reason on stderr (9.12). Stray output of ours never reaches stdout.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "../line_rules.hpp"
#include "core_line_v1/types.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "rpckit/framing/ndjson_writer.hpp"
#include "rpckit/roles/stdout_guard.hpp"
#include "text_tools.hpp"

namespace cl = core_line::v1;
using namespace core_line_sample;

namespace {

constexpr int kRefused = 2;      // the core's line cannot be answered
constexpr int kUnsupported = 3;  // answered the handshake, but does not speak its version

int refuse(const std::string& why) {
  std::fprintf(stderr, "core-line-plugin: %s\n", why.c_str());
  return kRefused;
}

std::string trimmed(const std::string& s) {
  auto first = s.find_first_not_of(" \t\r\n");
  return first == std::string::npos ? "" : s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
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
  rpckit::roles::StdoutGuard guard;  // fd 1 now goes to stderr; frames use the guard's copy
  rpckit::framing::FdSource in(STDIN_FILENO);
  rpckit::framing::NdjsonReader reader(in, kMaxLineBytes, line_rules());
  rpckit::framing::FdSink out(guard.protocol_fd());
  rpckit::framing::NdjsonWriter writer(out, kMaxLineBytes);

  // 1. The handshake.
  auto line = reader.read();
  if (!line.ok()) return refuse("handshake: " + line.reason);
  auto first = parse_object(line.body);
  if (!first || first->value("type", nlohmann::json()) != "handshake") {
    return refuse("the first line is not a handshake; answering nothing");
  }
  cl::HandshakeRequest handshake;
  try {
    handshake = first->get<cl::HandshakeRequest>();
  } catch (const rpckit::codec::DecodeError& e) {
    return refuse(std::string("handshake: ") + e.what());
  }
  const bool speaks = trimmed(handshake.protocol_version) == cl::kProtocolVersion;
  cl::Manifest manifest{plugin_id, "1.0.0", std::string(cl::kProtocolVersion), kToolNames,
                        std::vector<std::string>{"tool.execute"}};
  if (!writer.write(nlohmann::json(cl::HandshakeResponse{manifest}).dump()).ok()) {
    return refuse("cannot write the handshake answer");
  }
  if (!speaks) {
    std::fprintf(stderr, "core-line-plugin: offered %s, speaks only %s\n",
                 handshake.protocol_version.c_str(), std::string(cl::kProtocolVersion).c_str());
    return kUnsupported;
  }

  // 2. The request.
  line = reader.read();
  if (!line.ok()) return refuse("request: " + line.reason);
  auto second = parse_object(line.body);
  if (!second) return refuse("the request line is not a JSON object");
  cl::ExecuteRequest request;
  try {
    request = second->get<cl::ExecuteRequest>();
  } catch (const rpckit::codec::DecodeError& e) {
    return refuse(std::string("request: ") + e.what());
  }

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
  std::string body = nlohmann::json(response).dump();
  if (body.size() > kMaxLineBytes) {  // the core would call it malformed: say why instead
    response.status = cl::ResponseStatus::kError;
    response.output.reset();
    response.error = rpckit::Nullable<cl::PluginError>(
        cl::PluginError{"output_too_large", "the output does not fit in a 1 MiB line"});
    body = nlohmann::json(response).dump();
  }
  if (!writer.write(body).ok()) return refuse("cannot write the response");
  return 0;  // spec 9.9: exit as soon as the response is out
}
