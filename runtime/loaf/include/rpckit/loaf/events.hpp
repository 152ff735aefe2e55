#pragma once
// The server's `event` notifications (loaf RPC 1.0.0, section 5), by type: each envelope
// decoded into the spec's EventEnvelope (a tagged union on `type`), an unknown type passed on
// untyped (sections 5 and 7: clients accept unknown types, and ignore them).
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "loaf_v1/types.hpp"

namespace rpckit::loaf {

namespace lv1 = ::loaf::v1;

struct Event {
  std::string type;
  std::string timestamp;
  // The payload typed by `type` (e.g. lv1::SessionStatusEvent); the whole envelope as a
  // rpckit::JsonValue when the type is one this version does not list, or when the payload
  // does not have its type's shape (`malformed` then says how).
  lv1::EventEnvelope envelope;
  std::optional<std::string> malformed;

  // The typed event, or nullptr when it is another type (or untyped).
  template <class E>
  const E* as() const {
    return std::get_if<E>(&envelope.value);
  }
  // A type the spec lists (both tables of section 5).
  bool known_type() const { return lv1::EventType::from_wire(type).is_known(); }
};

// Decodes one notification's params.
Event decode_event(const lv1::EventParams& params);

// Whether `event` ends turn `turn_id`: every turn ends with session.status {pending: false,
// status_label: "ready"} (section 5).
bool is_turn_end(const Event& event, std::string_view turn_id);

}  // namespace rpckit::loaf
