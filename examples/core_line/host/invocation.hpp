#pragma once
// One tool call of core line plugins v1 (spec section 2) on the generic one-shot role
// (rpckit::roles::OneShotCall over the generated Exchange): spawn the bound command, exchange
// the four lines, tear down, and classify the first failure in the spec's order (section
// 3.3). The role bounds every step by its deadline and the whole call by the invoke deadline;
// this file maps what it reports to the taxonomy.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks.hpp"
#include "core_line_v1/types.hpp"

namespace core_line_sample {

// The core-side binding (spec section 7).
struct Binding {
  std::string name;  // the bound plugin name
  std::string command;
  std::vector<std::string> args;
  std::string dir;
  std::vector<std::string> env;  // the child's whole environment
  std::string protocol;          // sent as protocol_version
  std::vector<std::string> allow_list;
  std::chrono::milliseconds invoke_timeout{0};  // > 0: the binding's own
  double time_scale = 1.0;                      // multiplies the protocol's deadlines
  std::string stderr_path = "/dev/null";        // the spec's core discards it
};

struct ToolCall {
  std::string tool_name;
  nlohmann::json input = nlohmann::json::object();
  core_line::v1::RequestContext context;
};

struct Outcome {
  std::string plugin;  // the bound name until the handshake passed, then the manifest's id
  std::optional<Failure> failure;                          // a taxonomy failure, or
  std::optional<core_line::v1::PluginError> plugin_error;  // the plugin's own error, or
  nlohmann::json output;                                   // the tool's output ({} if absent)
};

// What the caller sees as it happens: every line (outgoing or not) and each step.
struct Observer {
  std::function<void(std::string_view plugin, bool outgoing, std::string_view line)> line;
  std::function<void(std::string_view plugin, std::string_view step)> step;
};

Outcome invoke(const Binding& binding, const ToolCall& call, const Observer& observer);

}  // namespace core_line_sample
