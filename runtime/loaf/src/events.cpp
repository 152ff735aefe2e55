#include "rpckit/loaf/events.hpp"

#include <nlohmann/json.hpp>

#include "rpckit/codec/decode_error.hpp"

namespace rpckit::loaf {

Event decode_event(const lv1::EventParams& params) {
  Event event{params.type, params.timestamp, {}, std::nullopt};
  nlohmann::json envelope;
  to_json(envelope, params);
  try {
    from_json(envelope, event.envelope);  // an unknown type decodes as the JsonValue
  } catch (const codec::DecodeError& e) {
    event.envelope.value = JsonValue(std::move(envelope));  // kept whole
    event.malformed = e.what();
  }
  return event;
}

bool is_turn_end(const Event& event, std::string_view turn_id) {
  const auto* status = event.as<lv1::SessionStatusEvent>();
  return status != nullptr && !status->payload.pending &&
         status->payload.status_label == "ready" && status->payload.turn_id == turn_id;
}

}  // namespace rpckit::loaf
