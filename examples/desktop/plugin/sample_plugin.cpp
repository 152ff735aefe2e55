#include "sample_plugin.hpp"

#include <cctype>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace desktop_sample {
namespace dv1 = desktop::v1;

namespace {

[[noreturn]] void fail(dv1::ErrorCode code, const std::string& message) {
  throw rpckit::RpcError(static_cast<int>(code), message);
}

std::string string_member(const nlohmann::json& params, const char* name, const char* fallback) {
  auto it = params.find(name);
  if (it == params.end()) {
    if (fallback != nullptr) return fallback;
    fail(dv1::ErrorCode::kInvalidParams,
         std::string("params.") + name + ": missing required field");
  }
  if (!it->is_string()) {
    fail(dv1::ErrorCode::kInvalidParams, std::string("params.") + name + ": expected string");
  }
  return it->get<std::string>();
}

nlohmann::json count(const std::string& text) {
  int words = 0, lines = text.empty() ? 0 : 1;
  std::string word, longest;
  for (char c : text + " ") {
    if (c == '\n') ++lines;
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (!word.empty()) ++words;
      if (word.size() > longest.size()) longest = word;
      word.clear();
    } else {
      word += c;
    }
  }
  return {{"status", "finished"},
          {"words", words},
          {"lines", lines},
          {"chars", text.size()},
          {"longest_word", longest}};
}

}  // namespace

dv1::HealthResult SamplePlugin::plugin_health(PluginState&, const dv1::PluginHealthParams&) {
  dv1::HealthResult result;  // form A, the one our plugins send (decision 9.1)
  result.ok = true;
  result.plugin_id = kPluginId;
  result.version = kPluginVersion;
  return result;
}

void SamplePlugin::event(const std::string& method, const nlohmann::json& params) const {
  dv1::CodexEvent e;
  e.kind = dv1::CodexEventKind::from_wire("notification");
  e.method = method;
  for (const auto& [key, value] : params.items()) e.params[key] = value;
  host_.codex_event(e);
}

rpckit::JsonValue SamplePlugin::word_count(PluginState& state, const nlohmann::json* params,
                                           bool healthy) {
  if (!healthy) {
    fail(dv1::ErrorCode::kInvalidRequest,
         std::string(kWordCountMethod) + " before a successful plugin/health");
  }
  if (params == nullptr || !params->is_object()) {
    fail(dv1::ErrorCode::kInvalidParams, "params: expected object");
  }
  std::string text = string_member(*params, "text", nullptr);
  dv1::ApprovalRequest approval;
  approval.permission = string_member(*params, "permission", "workspace.read");

  event("turn/started", {{"turn", {{"id", ++state.requests_served}}}});
  // Calls to the host while it waits on this request: the endpoint keeps dispatching.
  if (auto pong = host_.host_ping(); !pong.ok()) {
    std::fprintf(stderr, "desktop-plugin: host/ping failed: %s\n", pong.error().describe().c_str());
  }
  auto answer = host_.host_request_approval(approval);
  if (!answer.ok()) {
    fail(dv1::ErrorCode::kInternal, "host/request_approval failed: " + answer.error().describe());
  }
  if (!answer->approved) {
    event("item/completed",
          {{"item",
            {{"type", "agentMessage"}, {"text", approval.permission + " was not approved"}}}});
    return nlohmann::json{{"status", "denied"}, {"permission", approval.permission}};
  }
  nlohmann::json result = count(text);
  event("item/completed",
        {{"item",
          {{"type", "agentMessage"},
           {"text", "counted " + std::to_string(result["words"].get<int>()) + " words"}}}});
  return result;
}

}  // namespace desktop_sample
