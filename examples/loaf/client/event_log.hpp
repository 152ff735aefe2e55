#pragma once
// What loaf-client keeps of the server's `event` notifications: each decoded as the typed
// EventEnvelope (unknown types are accepted, spec section 7), counted by type, and waited on.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "loaf_v1/roles.hpp"

namespace loaf_client {

struct Server {};  // the one server this client talks to

class EventLog : public loaf::v1::ClientHandler<Server> {
 public:
  void event(Server&, const loaf::v1::EventParams& params) override;

  // Waits until some event satisfies `done` (checked over every event so far).
  bool wait_for(const std::function<bool(const loaf::v1::EventEnvelope&)>& done,
                std::chrono::milliseconds timeout);
  // Whether the turn ended as the spec says: its session.status {pending: false, "ready"}.
  bool wait_turn_end(const std::string& turn_id, std::chrono::milliseconds timeout);
  // Waits until `n` events of `type` have arrived (events and responses travel apart).
  bool wait_count(const std::string& type, int n, std::chrono::milliseconds timeout);
  std::map<std::string, int> counts() const;
  int count(const std::string& type) const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<loaf::v1::EventEnvelope> events_;
  std::map<std::string, int> counts_;
};

}  // namespace loaf_client
