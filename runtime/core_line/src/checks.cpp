#include "rpckit/core_line/checks.hpp"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "core_line_v1/exchange.hpp"
#include "rpckit/roles/one_shot.hpp"
#include "whitespace.hpp"

namespace rpckit::core_line {
namespace {

using Exchange = clv1::Exchange;
using detail::blank;
using detail::canonical;
using detail::trim;

constexpr std::string_view kWireTypes = "section 4";
constexpr std::string_view kHandshakeChecks = "section 3.3 step 5";
constexpr std::string_view kVersion = "section 3.3 step 5, section 8";
constexpr std::string_view kBoundName = "section 3.3 step 5, section 7";
constexpr std::string_view kCapabilities = "section 3.3 step 5, section 6";
constexpr std::string_view kResponseChecks = "section 3.3 step 8";

Failure violation(FailureCode code, std::string detail, std::string_view rule) {
  return {std::move(code), std::move(detail), rule, true};
}
// What a conforming plugin can meet: the binding's own choice decided.
Failure refusal(FailureCode code, std::string detail, std::string_view rule) {
  return {std::move(code), std::move(detail), rule, false};
}

// The message as the upstream decoder reads it, for the generated decoder: a null member is
// absent (its zero value).
nlohmann::json upstream_view(nlohmann::json message) {
  for (auto it = message.begin(); it != message.end();) {
    it = it->is_null() ? message.erase(it) : std::next(it);
  }
  return message;
}

// Reads members as the upstream decoder does, remembering the first of the wrong JSON type.
class Members {
 public:
  // Absent or null: nullptr (the zero value); another JSON kind: nullptr and remembered.
  const nlohmann::json* get(const nlohmann::json* object, const char* key, bool (nlohmann::json::*is)() const,
                            const char* where) {
    if (object == nullptr) return nullptr;
    auto it = object->find(key);
    if (it == object->end() || it->is_null()) return nullptr;
    if (!((*it).*is)()) {
      if (wrong_.empty()) wrong_ = std::string(where) + key + " has the wrong JSON type (" + it->type_name() + ")";
      return nullptr;
    }
    return &*it;
  }
  std::string text(const nlohmann::json* object, const char* key, const char* where) {
    const nlohmann::json* v = get(object, key, &nlohmann::json::is_string, where);
    return v != nullptr ? v->get<std::string>() : std::string();
  }
  std::vector<std::string> texts(const nlohmann::json* object, const char* key, const char* where) {
    std::vector<std::string> out;
    const nlohmann::json* v = get(object, key, &nlohmann::json::is_array, where);
    if (v == nullptr) return out;
    for (const auto& item : *v) {
      if (!item.is_string()) {
        if (wrong_.empty()) wrong_ = std::string(where) + key + " holds a " + item.type_name() + ", not a string";
        return {};
      }
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  const std::string& wrong() const { return wrong_; }

 private:
  std::string wrong_;
};

// Section 6, element by element in order. In a probe, an empty allow-list grants what is
// declared (so only the canonical and unique rules apply).
std::optional<Failure> check_capabilities(const std::vector<std::string>& declared,
                                          const std::vector<std::string>& allow_list, bool grant_declared) {
  if (declared.empty()) {
    if (allow_list.empty()) return std::nullopt;
    return violation(FailureCode::kCapabilityNotDeclared,
                     "the binding grants capabilities but the manifest declares none", kCapabilities);
  }
  std::set<std::string, std::less<>> seen;
  for (const std::string& c : declared) {
    if (!canonical(c)) {
      return violation(FailureCode::kCapabilityNotDeclared,
                       "capability \"" + c + "\" is empty or padded with whitespace", kCapabilities);
    }
    if (!seen.insert(c).second) {
      return violation(FailureCode::kCapabilityNotDeclared, "capability \"" + c + "\" is declared twice",
                       kCapabilities);
    }
    if (!grant_declared && std::find(allow_list.begin(), allow_list.end(), c) == allow_list.end()) {
      return refusal(FailureCode::kCapabilityNotAllowed, "capability \"" + c + "\" is not in the allow-list",
                     kCapabilities);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Failure> check_handshake(const nlohmann::json& reply, const HandshakeExpectation& expect,
                                       clv1::Manifest* manifest) {
  // Every member read up front, as the upstream decoder does: a wrong JSON type anywhere
  // makes the line malformed before any check runs.
  Members read;
  std::string type = read.text(&reply, "type", "");
  const nlohmann::json* m = read.get(&reply, "manifest", &nlohmann::json::is_object, "");
  std::string plugin_id = read.text(m, "plugin_id", "manifest.");
  std::string plugin_version = read.text(m, "plugin_version", "manifest.");
  std::string version = read.text(m, "protocol_version", "manifest.");
  std::vector<std::string> tools = read.texts(m, "exposed_tools", "manifest.");
  std::vector<std::string> capabilities = read.texts(m, "capabilities", "manifest.");
  if (!read.wrong().empty()) {
    return violation(FailureCode::kMalformedResponse, "handshake reply: " + read.wrong(), kWireTypes);
  }

  if (!roles::has_tag<Exchange, 1>(reply)) {
    return violation(FailureCode::kHandshakeFailed,
                     "the reply's type is \"" + type + "\", not \"" + std::string(Exchange::kSteps[1].tag) + "\"",
                     kHandshakeChecks);
  }
  if (trim(version) != expect.protocol_version) {
    if (m == nullptr) return violation(FailureCode::kProtocolVersionMismatch, "the reply has no manifest", kVersion);
    // A plugin that does not speak the offered version answers with its own (decision 9.3):
    // not a v1 plugin when v1 was offered, a legal answer when the binding offered another.
    Failure f{FailureCode::kProtocolVersionMismatch,
              "the plugin speaks \"" + version + "\", the core sent \"" + expect.protocol_version + "\"", kVersion,
              expect.protocol_version == clv1::kProtocolVersion};
    return f;
  }
  if (blank(plugin_id)) return violation(FailureCode::kHandshakeFailed, "manifest.plugin_id is blank", kHandshakeChecks);
  if (blank(plugin_version)) {
    return violation(FailureCode::kHandshakeFailed, "manifest.plugin_version is blank", kHandshakeChecks);
  }
  if (tools.empty()) return violation(FailureCode::kHandshakeFailed, "manifest.exposed_tools is empty", kHandshakeChecks);
  const bool adopt_name = expect.probe && expect.plugin_name.empty();
  if (!adopt_name && plugin_id != expect.plugin_name) {
    return refusal(FailureCode::kHandshakeFailed,
                   "manifest.plugin_id is \"" + plugin_id + "\", the binding is \"" + expect.plugin_name + "\"",
                   kBoundName);
  }
  const bool first_tool = expect.probe && expect.tool_name.empty();
  if (!first_tool && std::find(tools.begin(), tools.end(), expect.tool_name) == tools.end()) {
    return refusal(FailureCode::kToolNotExposed, "\"" + expect.tool_name + "\" is not in manifest.exposed_tools",
                   kHandshakeChecks);
  }
  const bool grant_declared = expect.probe && expect.allow_list.empty();
  if (auto failure = check_capabilities(capabilities, expect.allow_list, grant_declared)) return failure;
  try {
    nlohmann::json view = upstream_view(reply);
    view["manifest"] = upstream_view(view["manifest"]);
    *manifest = view.get<clv1::HandshakeResponse>().manifest;
  } catch (const codec::DecodeError& e) {
    return violation(FailureCode::kMalformedResponse, std::string("handshake reply: ") + e.what(), kWireTypes);
  }
  return std::nullopt;
}

std::optional<Failure> check_response(const nlohmann::json& reply, const nlohmann::json& request,
                                      clv1::ExecuteResponse* response) {
  Members read;
  std::string type = read.text(&reply, "type", "");
  std::string id = read.text(&reply, "request_id", "");
  std::string status = read.text(&reply, "status", "");
  const nlohmann::json* error = read.get(&reply, "error", &nlohmann::json::is_object, "");
  std::string message = read.text(error, "message", "error.");
  read.text(error, "code", "error.");
  read.get(&reply, "metadata", &nlohmann::json::is_object, "");
  if (!read.wrong().empty()) {
    return violation(FailureCode::kMalformedResponse, "response: " + read.wrong(), kWireTypes);
  }
  auto malformed = [](std::string why) {
    return violation(FailureCode::kMalformedResponse, std::move(why), kResponseChecks);
  };

  if (!roles::has_tag<Exchange, 3>(reply)) {
    return malformed("the response's type is \"" + type + "\", not \"" + std::string(Exchange::kSteps[3].tag) + "\"");
  }
  if (!roles::correlates<Exchange, 3>(reply, request)) {
    return malformed("request_id \"" + id + "\" is not the one sent (" +
                     request.value(Exchange::kCorrelation, nlohmann::json()).dump() + ")");
  }
  if (status == "ok") {
    if (error != nullptr) return malformed("status \"ok\" with an error");
  } else if (status == "error") {
    if (error == nullptr) return malformed("status \"error\" without an error");
    if (blank(message)) return malformed("status \"error\" with a blank error.message");
  } else {
    return malformed("unknown status \"" + status + "\"");
  }
  try {
    nlohmann::json view = upstream_view(reply);
    // Decision 9.5: an empty (or, as upstream reads it, missing) error code is accepted.
    if (error != nullptr && !view["error"].contains("code")) view["error"]["code"] = "";
    *response = view.get<clv1::ExecuteResponse>();
  } catch (const codec::DecodeError& e) {
    return violation(FailureCode::kMalformedResponse, std::string("response: ") + e.what(), kWireTypes);
  }
  return std::nullopt;
}

ToolErrorKind tool_error_kind(const clv1::PluginError& error) {
  if (error.code == "invalid_input") return ToolErrorKind::kInvalidInput;
  if (error.code == "not_found") return ToolErrorKind::kNotFound;
  return ToolErrorKind::kInternal;
}

std::string_view tool_error_kind_name(ToolErrorKind kind) {
  switch (kind) {
    case ToolErrorKind::kInvalidInput: return "invalid_input";
    case ToolErrorKind::kNotFound: return "not_found";
    case ToolErrorKind::kInternal: break;
  }
  return "internal";
}

}  // namespace rpckit::core_line
