// endpoint_peer: an rpckit::Endpoint on stdin/stdout (Content-Length framing), driven by
// endpoint_vscode.mjs through vscode-jsonrpc, an independent JSON-RPC implementation.
//
// Serves:
//   add {a, b} -> {sum}                    echo <params> -> <params>
//   fail -> RpcError -32002 with data      fail.std -> std::runtime_error (-32603)
//   call_peer {method, params?, deadline_ms?} -> calls the node side and reports
//       {ok: true, result} or {ok: false, kind, code, message, data?}
//   notify_peer {method, params?} -> {sent}
//   nested {a, b} -> asks the node side's "node.nested" before answering: {via_node}
//   notes -> the "note" notifications received so far, in order
//   diagnostics -> [{kind, detail}] the endpoint reported
// Notifications: note {text} (recorded; text "echo" is sent back as note.echo), exit.
// Exit status 0 when the connection ended by "exit" or EOF.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/content_length_writer.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"

namespace {

using json = nlohmann::json;
using rpckit::CallError;
using rpckit::CallResult;
using rpckit::Diagnostic;
using rpckit::Endpoint;
using rpckit::Incoming;
using rpckit::RpcError;

constexpr std::size_t kMaxBody = 4 * 1024 * 1024;

const char* kind_name(Diagnostic::Kind kind) {
  switch (kind) {
    case Diagnostic::Kind::kUnknownResponseId: return "unknown_response_id";
    case Diagnostic::Kind::kInvalidResponse: return "invalid_response";
    case Diagnostic::Kind::kParseError: return "parse_error";
    case Diagnostic::Kind::kInvalidRequest: return "invalid_request";
    case Diagnostic::Kind::kOversize: return "oversize";
    case Diagnostic::Kind::kLenientEnvelope: return "lenient_envelope";
    case Diagnostic::Kind::kNotificationFailed: return "notification_failed";
    case Diagnostic::Kind::kWriteFailed: return "write_failed";
    case Diagnostic::Kind::kObserverFailed: return "observer_failed";
    case Diagnostic::Kind::kUndeclared:
      return "undeclared";
  }
  return "?";
}

json describe(const CallResult& r) {
  if (r.ok()) return {{"ok", true}, {"result", r.result()}};
  json out = {{"ok", false},
              {"kind", kind_name(r.error().kind)},
              {"code", r.error().error.code()},
              {"message", r.error().error.message()}};
  if (r.error().error.data()) out["data"] = *r.error().error.data();
  return out;
}

json param(const Incoming& in, const char* key) {
  if (in.params == nullptr || !in.params->is_object() || !in.params->contains(key)) {
    throw RpcError(rpckit::jsonrpc_code::kInvalidParams,
                   in.method + ": params." + key + " is required");
  }
  return (*in.params)[key];
}

}  // namespace

int main() {
  rpckit::framing::InterruptibleFdSource source(STDIN_FILENO);
  rpckit::framing::FdSink sink(STDOUT_FILENO);
  Endpoint::Options options;
  options.default_deadline = std::chrono::seconds(20);
  options.interrupt_reader = [&source] { source.interrupt(); };
  Endpoint endpoint(std::make_unique<rpckit::framing::ContentLengthReader>(source, kMaxBody),
                    std::make_unique<rpckit::framing::ContentLengthWriter>(sink, kMaxBody),
                    std::move(options));

  std::mutex mutex;
  std::vector<json> notes;
  std::vector<json> diagnostics;
  endpoint.on_diagnostic([&](const Diagnostic& d) {
    std::lock_guard lock(mutex);
    diagnostics.push_back({{"kind", kind_name(d.kind)}, {"detail", d.detail}});
  });

  endpoint.set_handler([&](const Incoming& in) -> json {
    if (!in.is_request()) {
      if (in.method == "note") {
        json text = param(in, "text");
        {
          std::lock_guard lock(mutex);
          notes.push_back(text);
        }
        if (text == "echo") endpoint.notify("note.echo", json{{"text", text}});
      } else if (in.method == "exit") {
        endpoint.close();
      }
      return nullptr;
    }
    if (in.method == "add") {
      return {{"sum", param(in, "a").get<std::int64_t>() + param(in, "b").get<std::int64_t>()}};
    }
    if (in.method == "echo") return in.params ? *in.params : json();
    if (in.method == "fail") {
      throw RpcError(-32002, "no such stream",
                     json{{"name", "unknown_stream"}, {"retry_after_ms", nullptr}});
    }
    if (in.method == "fail.std") throw std::runtime_error("kaput");
    if (in.method == "call_peer") {
      std::optional<json> params;
      if (in.params->contains("params")) params = (*in.params)["params"];
      std::optional<std::chrono::milliseconds> deadline;
      if (in.params->contains("deadline_ms")) {
        deadline = std::chrono::milliseconds((*in.params)["deadline_ms"].get<std::int64_t>());
      }
      return describe(endpoint.call(param(in, "method").get<std::string>(), params, deadline));
    }
    if (in.method == "notify_peer") {
      std::optional<json> params;
      if (in.params->contains("params")) params = (*in.params)["params"];
      return {{"sent", endpoint.notify(param(in, "method").get<std::string>(), params)}};
    }
    if (in.method == "nested") {
      CallResult r = endpoint.call("node.nested", *in.params);
      if (!r.ok()) throw RpcError(-32000, "node.nested failed: " + r.error().describe());
      return {{"via_node", r.result()}};
    }
    if (in.method == "notes") {
      std::lock_guard lock(mutex);
      return notes;
    }
    if (in.method == "diagnostics") {
      std::lock_guard lock(mutex);
      return diagnostics;
    }
    throw RpcError(rpckit::jsonrpc_code::kMethodNotFound, "Method not found: " + in.method);
  });

  endpoint.start();
  rpckit::CloseReason reason = endpoint.wait();
  const bool clean = reason.kind == rpckit::CloseReason::Kind::kLocal ||
                     reason.kind == rpckit::CloseReason::Kind::kEof;
  std::fprintf(stderr, "endpoint_peer: connection ended (%d) %s\n", static_cast<int>(reason.kind),
               reason.detail.c_str());
  return clean ? 0 : 1;
}
