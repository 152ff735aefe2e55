#pragma once
// What loaf-client's scripted session keeps of the server's events (decoded by
// rpckit::loaf::Client): every one, counted by type, and waited on.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "rpckit/loaf/events.hpp"

namespace loaf_client {

class EventLog {
 public:
  void add(const rpckit::loaf::Event& event);

  // Waits until some event satisfies `done` (checked over every event so far).
  bool wait_for(const std::function<bool(const rpckit::loaf::Event&)>& done,
                std::chrono::milliseconds timeout);
  // Waits until `n` events of `type` have arrived (events and responses travel apart).
  bool wait_count(const std::string& type, int n, std::chrono::milliseconds timeout);
  std::map<std::string, int> counts() const;
  int count(const std::string& type) const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<rpckit::loaf::Event> events_;
  std::map<std::string, int> counts_;
};

}  // namespace loaf_client
