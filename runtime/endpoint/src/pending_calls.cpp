#include "rpckit/endpoint/detail/pending_calls.hpp"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "rpckit/codec/json_writer.hpp"

namespace rpckit::detail {

namespace {
std::optional<std::int64_t> decimal_id(const std::string& text) {
  // Only the exact text we send: no sign, no leading zero, at most 18 digits.
  if (text.empty() || text.size() > 18 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}
}  // namespace

std::int64_t PendingCalls::open(std::string method, std::chrono::milliseconds timeout,
                                TimePoint until) {
  std::int64_t id = next_id_++;
  PendingCall& call = calls_[id];
  call.id = id;
  call.method = std::move(method);
  call.timeout = timeout;
  call.until = until;
  return id;
}

std::int64_t PendingCalls::open_async(Completion done, std::string method,
                                      std::chrono::milliseconds timeout, TimePoint until) {
  std::int64_t id = next_id_++;
  PendingCall& call = calls_[id];
  call.id = id;
  call.done = std::move(done);
  call.method = std::move(method);
  call.timeout = timeout;
  call.until = until;
  return id;
}

PendingCall* PendingCalls::find(std::int64_t id) {
  auto it = calls_.find(id);
  return it == calls_.end() ? nullptr : &it->second;
}

void PendingCalls::erase(std::int64_t id) { calls_.erase(id); }

std::shared_ptr<const CallOptions::ProgressObserver> PendingCalls::progressed(std::int64_t id,
                                                                              TimePoint now) {
  PendingCall* call = find(id);
  if (call == nullptr || call->settled()) return nullptr;
  if (call->resets_on_progress) call->until = std::min(now + call->timeout, call->latest);
  return call->progress_observer;
}

std::string PendingCalls::id_text(std::int64_t id) const {
  std::string out;
  if (sent_ids_ == IdKind::kString) {
    codec::write_json(out, std::to_string(id));
  } else {
    codec::write_json(out, id);
  }
  return out;
}

bool PendingCalls::in_other_form(const nlohmann::json& id) const {
  return (sent_ids_ == IdKind::kString) != id.is_string();
}

std::optional<std::int64_t> PendingCalls::own_id(const nlohmann::json& id) const {
  // Our ids are counters: sent as numbers or as their decimal text.
  const bool string_form = match_ == IdMatch::kStringForm;
  if (id.is_string()) {
    if (sent_ids_ != IdKind::kString && !string_form) return std::nullopt;
    return decimal_id(id.get_ref<const std::string&>());
  }
  if (sent_ids_ == IdKind::kString && !string_form) return std::nullopt;
  if (!id.is_number_integer()) return std::nullopt;
  if (id.is_number_unsigned() &&
      id.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    return std::nullopt;
  }
  return id.get<std::int64_t>();
}

PendingCalls::Expired PendingCalls::take_async(
    bool all, TimePoint now, const std::function<CallError(const PendingCall&)>& why) {
  Expired out;
  for (auto it = calls_.begin(); it != calls_.end();) {
    PendingCall& call = it->second;
    if (!call.done || (!all && call.until > now)) {
      ++it;
      continue;
    }
    out.emplace_back(std::move(call.done), why(call));
    it = calls_.erase(it);
  }
  return out;
}

PendingCalls::Expired PendingCalls::take_all_async(
    const std::function<CallError(const PendingCall&)>& why) {
  return take_async(true, TimePoint{}, why);
}

PendingCalls::Expired PendingCalls::take_overdue_async(
    TimePoint now, const std::function<CallError(const PendingCall&)>& why) {
  return take_async(false, now, why);
}

bool PendingCalls::has_async() const {
  return std::any_of(calls_.begin(), calls_.end(),
                     [](const auto& entry) { return static_cast<bool>(entry.second.done); });
}

std::optional<TimePoint> PendingCalls::next_async_deadline() const {
  std::optional<TimePoint> next;
  for (const auto& [id, call] : calls_) {
    if (call.done && (!next || call.until < *next)) next = call.until;
  }
  return next;
}

void PendingCalls::disconnect_all() {
  for (auto& [id, call] : calls_) call.disconnected = true;
}

}  // namespace rpckit::detail
