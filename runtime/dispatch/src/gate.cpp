#include "rpckit/dispatch/gate.hpp"

#include <nlohmann/json.hpp>

#include "rpckit/codec/codec.hpp"

namespace rpckit {

namespace {

const nlohmann::json* find_dotted(const nlohmann::json& root, std::string_view path) {
  const nlohmann::json* node = &root;
  while (!path.empty()) {
    auto dot = path.find('.');
    std::string key(path.substr(0, dot));
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return node;
}

bool list_contains(const nlohmann::json* list, const nlohmann::json& value) {
  if (list == nullptr || !list->is_array()) return false;
  for (const auto& item : *list) {
    if (item == value) return true;
  }
  return false;
}

// A capability is granted when its path is there and says neither null nor false (MCP: "a
// present member means supported"; a boolean capability such as listChanged may be false).
bool has_capability(const nlohmann::json& granted, std::string_view path) {
  const nlohmann::json* node = find_dotted(granted, path);
  return node != nullptr && !node->is_null() && *node != false;
}

// kKeyedCapability: the member of the capability object that params field `param` names (the
// clause's `value` when absent). Not a dotted path: the key is the peer's text.
GateVerdict keyed_verdict(const GateClause& clause, const nlohmann::json& granted,
                          const nlohmann::json* params) {
  const nlohmann::json* capability = find_dotted(granted, clause.list);
  if (capability == nullptr || capability->is_null() || *capability == false) {
    return {false, std::string(clause.list) + " is not granted"};
  }
  const nlohmann::json* p = params != nullptr ? find_dotted(*params, clause.param) : nullptr;
  const bool absent = p == nullptr || p->is_null();
  if (!absent && !p->is_string()) {
    return {false, "params." + std::string(clause.param) + " is not a string", true, true};
  }
  const std::string key = absent ? std::string(clause.value) : p->get<std::string>();
  bool declared = key == clause.value;  // all that a capability without members declares
  if (capability->is_object() && !capability->empty()) {
    auto it = capability->find(key);
    declared = it != capability->end() && !it->is_null() && *it != false;
  }
  if (declared) return {};
  return {false, std::string(clause.list) + "." + key + " is not granted", false, true};
}

GateVerdict capability_verdict(const GateClause& clause, const nlohmann::json& granted,
                               const nlohmann::json* params) {
  if (clause.kind == GateClause::Kind::kParamCapability) {
    const nlohmann::json* p = params != nullptr ? find_dotted(*params, clause.param) : nullptr;
    if (p == nullptr || p->is_null()) return {};  // the param that needs it is not sent
    if (has_capability(granted, clause.list)) return {};
    return {false,
            "params." + std::string(clause.param) + " needs " + std::string(clause.list) +
                ", which is not granted",
            false, true};
  }
  if (has_capability(granted, clause.list)) return {};
  return {false, std::string(clause.list) + " is not granted"};
}

}  // namespace

GateVerdict evaluate_gate(std::span<const GateClause> gate, const nlohmann::json& granted,
                                 const nlohmann::json* declared, const nlohmann::json* params) {
  for (const GateClause& clause : gate) {
    if (clause.kind == GateClause::Kind::kCapability ||
        clause.kind == GateClause::Kind::kParamCapability) {
      if (GateVerdict v = capability_verdict(clause, granted, params); !v.allowed) return v;
      continue;
    }
    if (clause.kind == GateClause::Kind::kKeyedCapability) {
      if (GateVerdict v = keyed_verdict(clause, granted, params); !v.allowed) return v;
      continue;
    }
    if (clause.kind == GateClause::Kind::kSenderCapability) {
      if (declared == nullptr || has_capability(*declared, clause.list)) continue;
      return {false, std::string(clause.list) + " was not declared by the sender"};
    }
    nlohmann::json value;
    if (clause.kind == GateClause::Kind::kGrantedValue) {
      value = std::string(clause.value);
    } else {
      const nlohmann::json* p =
          params != nullptr ? find_dotted(*params, clause.param) : nullptr;
      if (p == nullptr) {
        return {false, "params." + std::string(clause.param) + " is missing", true};
      }
      value = *p;
    }
    if (clause.kind == GateClause::Kind::kDeclaredParam) {
      if (declared == nullptr) continue;
      if (!list_contains(find_dotted(*declared, clause.list), value)) {
        return {false, std::string(clause.list) + " does not declare " + codec::snippet(value),
                false, true};
      }
      continue;
    }
    if (!list_contains(find_dotted(granted, clause.list), value)) {
      return {false, std::string(clause.list) + " does not grant " + codec::snippet(value), false,
              clause.kind == GateClause::Kind::kGrantedParam};
    }
  }
  return {};
}

ReceiptVerdict evaluate_on_receipt(std::span<const GateClause> gate, const GateOnReceipt& rule,
                                   const nlohmann::json& own, const nlohmann::json* params) {
  for (const GateClause& clause : gate) {
    // Lists of a grant or manifest, and the sender's own declarations, are not checked here.
    std::optional<int> code;
    if (clause.kind == GateClause::Kind::kCapability) code = rule.capability;
    if (clause.kind == GateClause::Kind::kKeyedCapability) code = rule.keyed;
    if (clause.kind == GateClause::Kind::kParamCapability) code = rule.param;
    if (!code) continue;
    GateVerdict v = evaluate_gate(std::span(&clause, 1), own, nullptr, params);
    if (v.allowed || v.missing_param) continue;
    // A keyed capability missing altogether is the method's refusal, as a plain one.
    if (clause.kind == GateClause::Kind::kKeyedCapability && !v.of_param && rule.capability) {
      code = rule.capability;
    }
    return {code, std::move(v.reason)};
  }
  return {};
}

}  // namespace rpckit
