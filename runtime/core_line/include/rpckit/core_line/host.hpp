#pragma once
// rpckit::core_line: the core (host) side of core line plugins v1 (../shared/spec/
// core-line-plugins-v1.md). The four lines, their deadlines and the process are the generated
// Exchange run by rpckit::roles::OneShotCall; this adds what the spec puts on the core beyond
// them:
// - the binding (section 7) and its validation before anything is spawned (3.3 step 1);
// - the child's environment: exactly the binding's `env`, nothing inherited (section 1);
// - the request id, "plugin_req_" + 16 lowercase hex digits of 8 random bytes (section 4);
// - the checks of the handshake reply and the response in the spec's order (3.3), the first
//   failing one naming the outcome by the closed taxonomy of nine codes (3.1);
// - the plugin's own tool errors and how the upstream core classifies them (3.2).
//
//   rpckit::core_line::Binding plugin{.name = "acme.wordcount", .command = "/opt/wc/plugin",
//                                     .allow_list = {"tool.execute"}};
//   rpckit::core_line::Result r = rpckit::core_line::invoke(
//       plugin, {.tool_name = "acme.count_words", .input = nlohmann::json{{"text", "a b c"}}});
//   if (r.failure) log(r.failure->code.wire(), r.failure->detail);       // "timeout", ...
//   else if (r.plugin_error) show(r.plugin_error->message);              // the tool said no
//   else use(r.output.get());                                            // {"words":3}
//
// One call is one process; calls share nothing, so any number may run at once on separate
// threads.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core_line_v1/constants.hpp"
#include "core_line_v1/types.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit::core_line {

namespace clv1 = ::core_line::v1;
using FailureCode = clv1::FailureCode;

// The core-side binding (section 7): which plugin, how to start it, what it may be granted.
struct Binding {
  std::string name{};  // the bound plugin name: the manifest's plugin_id must equal it
  // The process (section 1): a command with a '/' names an executable file (relative to `dir`);
  // one without is looked up on the core's PATH. A non-empty `dir` must be a directory.
  std::string command{};
  std::vector<std::string> args{};
  std::string dir{};
  // "KEY=VALUE" strings: the child's whole environment. Nothing of the core's is inherited;
  // empty means an empty environment.
  std::vector<std::string> env{};
  std::string protocol = std::string(clv1::kProtocolVersion);  // sent as protocol_version
  // The core-owned capability allow-list (the spec's `capabilities`): canonical and unique.
  std::vector<std::string> allow_list{};
  // The invoke timeout; used when > 0, else the protocol's 5 s (scaled).
  std::chrono::milliseconds invoke_timeout{0};
  // Multiplies the protocol's deadlines (invoke 5 s, launch 2 s, handshake 2 s, teardown
  // 500 ms, reap 2 s); for tests and slow machines, not the spec's.
  double time_scale = 1.0;
  // Where the plugin's stderr is appended; the spec's core discards it (decision 9.8).
  std::string stderr_path = "/dev/null";
  // A probe of a plugin the caller does not know (a test harness, core-line-host --plain),
  // not the spec's core, which always knows what it binds: an empty `name` takes the
  // manifest's plugin_id, an empty tool name the first of manifest.exposed_tools, and an
  // empty allow-list grants what the manifest declares (still checked for being canonical
  // and unique). Every other check is the spec's.
  bool probe = false;
};

struct ToolCall {
  std::string tool_name{};
  std::optional<JsonValue> input{};  // any JSON value; {} when absent (section 4)
  clv1::RequestContext context{};    // members that are empty strings are not sent (section 5)
};

// A failure of the taxonomy (section 3.1): never sent on the wire, never turned into success.
struct Failure {
  FailureCode code{};
  std::string detail{};     // what happened, quoting the plugin where it matters
  std::string_view rule{};  // where the spec states the check: "section 3.3 step 8", "section 6", ...
  // Whether the plugin broke the spec. False for what a conforming plugin can meet: a launch
  // failure, and the binding's own choices (another plugin name, a tool the plugin does not
  // expose, a capability outside the allow-list, a protocol_version other than v1's).
  bool peer_violation = false;
  std::string describe() const;  // "<code>: <detail>"
};

// How the upstream core classifies a plugin's error code (section 3.2).
enum class ToolErrorKind { kInvalidInput, kNotFound, kInternal };
ToolErrorKind tool_error_kind(const clv1::PluginError& error);
std::string_view tool_error_kind_name(ToolErrorKind kind);  // "invalid_input", "not_found", "internal"

struct Result {
  // The bound name until the handshake passed every check, then the manifest's plugin_id.
  std::string plugin{};
  // Step 1 refused the binding or the call ("the tool name is blank"): nothing was spawned
  // and no other member is set. Not a taxonomy code.
  std::optional<std::string> invalid_specification{};
  std::optional<clv1::Manifest> manifest{};  // once the handshake passed
  std::string request_id{};                  // once the request was built
  std::optional<Failure> failure{};          // a taxonomy failure, or
  std::optional<clv1::PluginError> plugin_error{};  // the tool's own error (status "error"), or
  JsonValue output{};                               // the tool's output ({} when absent)
  bool ok() const { return !invalid_specification && !failure && !plugin_error; }
};

// What happens during a call, as it happens (on the calling thread).
struct Observer {
  // Every line, as written (outgoing) or read.
  std::function<void(std::string_view plugin, bool outgoing, std::string_view line)> line{};
  // Each step the core takes ("spawning ...", "handshake accepted: ...", "exited 0").
  std::function<void(std::string_view plugin, std::string_view step)> step{};
};

// One tool call (section 2): validate, spawn, handshake, request, response, teardown; the
// first failing check in the spec's order decides (3.3). The process is gone when it returns
// (exited, or killed and waited for at most the reap timeout).
Result invoke(const Binding& binding, const ToolCall& call, const Observer& observer = {});

// 3.3 step 1: why the binding or the call is an invalid plugin specification, or nullopt.
std::optional<std::string> invalid_specification(const Binding& binding, std::string_view tool_name);

// A fresh request id (section 4), from std::random_device.
std::string new_request_id();
// Whether `id` has that form.
bool is_request_id(std::string_view id);

}  // namespace rpckit::core_line
