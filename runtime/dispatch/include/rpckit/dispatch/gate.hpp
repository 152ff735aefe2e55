#pragma once
// Evaluates a descriptor's capability gate (M::kGate) against a grant, protocol-agnostically:
// the grant and the declarations are JSON objects whose members are the lists the clauses
// name ("events", "host_methods", ... or dotted paths like "contributes.status").
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rpckit/codec/codec.hpp"

#include "rpckit/descriptors/message.hpp"

namespace rpckit {

struct GateVerdict {
  bool allowed = true;
  std::string reason;  // why not: "host_methods does not grant \"notify\""
  // The clause needs a params field that is absent: the params are invalid, which is the
  // caller's error to report (invalid_params) rather than a denial.
  bool missing_param = false;
};

namespace detail {

inline const nlohmann::json* find_dotted(const nlohmann::json& root, std::string_view path) {
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

inline bool list_contains(const nlohmann::json* list, const nlohmann::json& value) {
  if (list == nullptr || !list->is_array()) return false;
  for (const auto& item : *list) {
    if (item == value) return true;
  }
  return false;
}

}  // namespace detail

// `declared` may be null when the caller cannot know the declarations (a plugin does not
// read its own manifest): declared-list clauses then pass, and the other side enforces them.
inline GateVerdict evaluate_gate(std::span<const GateClause> gate, const nlohmann::json& granted,
                                 const nlohmann::json* declared, const nlohmann::json* params) {
  for (const GateClause& clause : gate) {
    nlohmann::json value;
    if (clause.kind == GateClause::Kind::kGrantedValue) {
      value = std::string(clause.value);
    } else {
      const nlohmann::json* p =
          params != nullptr ? detail::find_dotted(*params, clause.param) : nullptr;
      if (p == nullptr) {
        return {false, "params." + std::string(clause.param) + " is missing", true};
      }
      value = *p;
    }
    if (clause.kind == GateClause::Kind::kDeclaredParam) {
      if (declared == nullptr) continue;
      if (!detail::list_contains(detail::find_dotted(*declared, clause.list), value)) {
        return {false, std::string(clause.list) + " does not declare " + codec::snippet(value)};
      }
      continue;
    }
    if (!detail::list_contains(detail::find_dotted(granted, clause.list), value)) {
      return {false, std::string(clause.list) + " does not grant " + codec::snippet(value)};
    }
  }
  return {};
}

}  // namespace rpckit
