#include "checks.hpp"

#include <algorithm>
#include <set>

#include "../trim.hpp"
#include "core_line_v1/exchange.hpp"
#include "rpckit/roles/one_shot.hpp"

namespace core_line_sample {
namespace {

namespace cl = core_line::v1;
using Exchange = cl::Exchange;

// Section 6: non-empty, no surrounding whitespace.
bool canonical(const std::string& s) { return !s.empty() && trim(s) == s; }

Failure fail(cl::FailureCode code, std::string detail) { return {code, std::move(detail)}; }

// The message as the upstream decoder reads it, for the generated decoder: a null member is
// absent (its zero value).
nlohmann::json upstream_view(nlohmann::json message) {
  for (auto it = message.begin(); it != message.end();) {
    it = it->is_null() ? message.erase(it) : std::next(it);
  }
  return message;
}

// A member as the upstream decoder sees it: absent or null is the zero value (nullptr here);
// a value of another JSON kind is an error (*wrong set).
const nlohmann::json* member(const nlohmann::json& object, const char* key, bool (nlohmann::json::*is)() const,
                             std::string* wrong, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  if (!((*it).*is)()) {
    if (wrong->empty()) *wrong = where + key + " has the wrong JSON type (" + it->type_name() + ")";
    return nullptr;
  }
  return &*it;
}

std::string string_member(const nlohmann::json* object, const char* key, std::string* wrong,
                          const std::string& where) {
  if (object == nullptr) return {};
  const nlohmann::json* v = member(*object, key, &nlohmann::json::is_string, wrong, where);
  return v != nullptr ? v->get<std::string>() : std::string();
}

std::vector<std::string> strings_member(const nlohmann::json* object, const char* key,
                                        std::string* wrong, const std::string& where) {
  std::vector<std::string> out;
  if (object == nullptr) return out;
  const nlohmann::json* v = member(*object, key, &nlohmann::json::is_array, wrong, where);
  if (v == nullptr) return out;
  for (const auto& item : *v) {
    if (!item.is_string()) {
      if (wrong->empty()) *wrong = where + key + " holds a " + item.type_name() + ", not a string";
      return {};
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::optional<Failure> check_capabilities(const std::vector<std::string>& declared,
                                          const std::vector<std::string>& allow_list) {
  if (declared.empty()) {
    if (allow_list.empty()) return std::nullopt;
    return fail(cl::FailureCode::kCapabilityNotDeclared,
                "the binding grants capabilities but the manifest declares none");
  }
  std::set<std::string> seen;
  for (const std::string& c : declared) {
    if (!canonical(c)) {
      return fail(cl::FailureCode::kCapabilityNotDeclared,
                  "capability \"" + c + "\" is empty or padded with whitespace");
    }
    if (!seen.insert(c).second) {
      return fail(cl::FailureCode::kCapabilityNotDeclared, "capability \"" + c + "\" is declared twice");
    }
    if (std::find(allow_list.begin(), allow_list.end(), c) == allow_list.end()) {
      return fail(cl::FailureCode::kCapabilityNotAllowed,
                  "capability \"" + c + "\" is not in the allow-list");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> invalid_specification(const std::string& plugin_name,
                                                 const std::string& command,
                                                 const std::string& tool_name,
                                                 const std::vector<std::string>& allow_list) {
  if (blank(plugin_name)) return "the plugin name is blank";
  if (blank(command)) return "the command is blank";
  if (blank(tool_name)) return "the tool name is blank";
  std::set<std::string> seen;
  for (const std::string& c : allow_list) {
    if (!canonical(c)) return "allow-list entry \"" + c + "\" is empty or padded with whitespace";
    if (!seen.insert(c).second) return "allow-list entry \"" + c + "\" is listed twice";
  }
  return std::nullopt;
}

std::optional<Failure> check_handshake(const nlohmann::json& reply, const HandshakeExpectation& expect,
                                       cl::Manifest* manifest) {
  // Every member read up front, as the upstream decoder does: a wrong JSON type anywhere
  // makes the line malformed before any check runs.
  std::string wrong;
  std::string type = string_member(&reply, "type", &wrong, "");
  const nlohmann::json* m = member(reply, "manifest", &nlohmann::json::is_object, &wrong, "");
  std::string plugin_id = string_member(m, "plugin_id", &wrong, "manifest.");
  std::string plugin_version = string_member(m, "plugin_version", &wrong, "manifest.");
  std::string version = string_member(m, "protocol_version", &wrong, "manifest.");
  std::vector<std::string> tools = strings_member(m, "exposed_tools", &wrong, "manifest.");
  std::vector<std::string> capabilities = strings_member(m, "capabilities", &wrong, "manifest.");
  if (!wrong.empty()) return fail(cl::FailureCode::kMalformedResponse, "handshake reply: " + wrong);

  if (!rpckit::roles::has_tag<Exchange, 1>(reply)) {
    return fail(cl::FailureCode::kHandshakeFailed, "the reply's type is \"" + type + "\", not \"" +
                                                       std::string(Exchange::kSteps[1].tag) + "\"");
  }
  if (trim(version) != expect.protocol_version) {
    return fail(cl::FailureCode::kProtocolVersionMismatch,
                m == nullptr ? "the reply has no manifest"
                             : "the plugin speaks \"" + version + "\", the core sent \"" +
                                   expect.protocol_version + "\"");
  }
  if (blank(plugin_id)) return fail(cl::FailureCode::kHandshakeFailed, "manifest.plugin_id is blank");
  if (blank(plugin_version)) return fail(cl::FailureCode::kHandshakeFailed, "manifest.plugin_version is blank");
  if (tools.empty()) return fail(cl::FailureCode::kHandshakeFailed, "manifest.exposed_tools is empty");
  if (plugin_id != expect.plugin_name) {
    return fail(cl::FailureCode::kHandshakeFailed,
                "manifest.plugin_id is \"" + plugin_id + "\", the binding is \"" + expect.plugin_name + "\"");
  }
  if (std::find(tools.begin(), tools.end(), expect.tool_name) == tools.end()) {
    return fail(cl::FailureCode::kToolNotExposed,
                "\"" + expect.tool_name + "\" is not in manifest.exposed_tools");
  }
  if (auto failure = check_capabilities(capabilities, expect.allow_list)) return failure;
  try {
    nlohmann::json view = upstream_view(reply);
    view["manifest"] = upstream_view(view["manifest"]);
    *manifest = view.get<cl::HandshakeResponse>().manifest;
  } catch (const rpckit::codec::DecodeError& e) {
    return fail(cl::FailureCode::kMalformedResponse, std::string("handshake reply: ") + e.what());
  }
  return std::nullopt;
}

std::optional<Failure> check_response(const nlohmann::json& reply, const nlohmann::json& request,
                                      cl::ExecuteResponse* response) {
  std::string wrong;
  std::string type = string_member(&reply, "type", &wrong, "");
  std::string id = string_member(&reply, "request_id", &wrong, "");
  std::string status = string_member(&reply, "status", &wrong, "");
  const nlohmann::json* error = member(reply, "error", &nlohmann::json::is_object, &wrong, "");
  std::string message = string_member(error, "message", &wrong, "error.");
  string_member(error, "code", &wrong, "error.");
  member(reply, "metadata", &nlohmann::json::is_object, &wrong, "");
  auto malformed = [](std::string why) { return fail(cl::FailureCode::kMalformedResponse, std::move(why)); };
  if (!wrong.empty()) return malformed("response: " + wrong);

  if (!rpckit::roles::has_tag<Exchange, 3>(reply)) {
    return malformed("the response's type is \"" + type + "\", not \"" + std::string(Exchange::kSteps[3].tag) + "\"");
  }
  if (!rpckit::roles::correlates<Exchange, 3>(reply, request)) {
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
    // Spec 9.5: an empty (or, as upstream reads it, missing) error code is accepted.
    if (error != nullptr && !view["error"].contains("code")) view["error"]["code"] = "";
    *response = view.get<cl::ExecuteResponse>();
  } catch (const rpckit::codec::DecodeError& e) {
    return malformed(std::string("response: ") + e.what());
  }
  return std::nullopt;
}

}  // namespace core_line_sample
