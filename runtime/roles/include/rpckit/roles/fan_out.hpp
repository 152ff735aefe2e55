#pragma once
// Events a host sends to many plugins: encoded once (the generated direct encoder), the text
// shared by every plugin's queue, a DOM of the params built only when the message's gate
// reads them. A protocol's host decides who gets one (hooks, grants); the plugins'
// PluginProcess::enqueue_encoded sends it.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/codec/json_writer.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "rpckit/descriptors/message.hpp"
#include "rpckit/dispatch/gate.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit::roles {

struct EncodedEvent {
  std::string_view method;
  std::span<const GateClause> gate;
  std::shared_ptr<const std::string> params_json;
  std::optional<JsonValue> params;  // only when the gate reads params
  // The params' DOM for evaluate_gate, or nullptr.
  const nlohmann::json* params_dom() const { return params ? &params->get() : nullptr; }
};

template <class M>
EncodedEvent encode_event(const typename M::Params& params) {
  EncodedEvent event{M::kMethod, M::kGate,
                     std::make_shared<const std::string>(codec::to_json_text(params)),
                     std::nullopt};
  if (gate_reads_params(M::kGate)) event.params = codec::encode(params);
  return event;
}

}  // namespace rpckit::roles
