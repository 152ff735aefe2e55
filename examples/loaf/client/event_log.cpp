#include "event_log.hpp"

#include <nlohmann/json.hpp>

namespace loaf_client {

namespace v1 = loaf::v1;

void EventLog::event(Server&, const v1::EventParams& params) {
  nlohmann::json j;
  to_json(j, params);
  v1::EventEnvelope typed;
  try {
    from_json(j, typed);
  } catch (const std::exception&) {
    typed.value = rpckit::JsonValue(j);  // a known type with an odd payload: kept whole
  }
  std::lock_guard lock(mutex_);
  events_.push_back(std::move(typed));
  ++counts_[params.type];
  changed_.notify_all();
}

bool EventLog::wait_for(const std::function<bool(const v1::EventEnvelope&)>& done,
                        std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] {
    for (const auto& e : events_) {
      if (done(e)) return true;
    }
    return false;
  });
}

bool EventLog::wait_turn_end(const std::string& turn_id, std::chrono::milliseconds timeout) {
  return wait_for(
      [&](const v1::EventEnvelope& e) {
        const auto* s = std::get_if<v1::SessionStatusEvent>(&e.value);
        return s != nullptr && !s->payload.pending && s->payload.status_label == "ready" &&
               s->payload.turn_id == turn_id;
      },
      timeout);
}

bool EventLog::wait_count(const std::string& type, int n, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return counts_[type] >= n; });
}

std::map<std::string, int> EventLog::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

int EventLog::count(const std::string& type) const {
  std::lock_guard lock(mutex_);
  auto it = counts_.find(type);
  return it == counts_.end() ? 0 : it->second;
}

}  // namespace loaf_client
