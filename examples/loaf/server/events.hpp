#pragma once
// The server's side of the `event` notification: typed events (types/event.json) sent as the
// untyped envelope the message carries, stamped with the time of emission.
#include <string>

#include <nlohmann/json.hpp>

#include "loaf_v1/roles.hpp"

namespace loaf_server {

// ISO 8601 UTC with milliseconds ("2025-01-02T03:04:05.678Z"), as the spec stamps things.
std::string now_iso();

class EventSink {
 public:
  explicit EventSink(const loaf::v1::ClientClient& client) : client_(client) {}

  // Sends one typed event (e.g. loaf::v1::SessionStatusEvent); false if it was not sent.
  template <class Event>
  bool emit(Event event) const {
    event.timestamp = now_iso();
    nlohmann::json j;
    to_json(j, event);
    return send(j);
  }

 private:
  bool send(const nlohmann::json& envelope) const;
  const loaf::v1::ClientClient& client_;
};

}  // namespace loaf_server
