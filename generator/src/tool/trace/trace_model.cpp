#include "tool/trace/trace_model.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "rpckit/codec/json_reader.hpp"

namespace rpckit::trace {

using nlohmann::json;

namespace {

// A frame's JSON, when it is JSON the checker would read (strict, no deeper than the protocol
// takes); nullopt otherwise.
std::optional<json> parse(const std::string& body, std::optional<std::size_t> max_depth) {
  try {
    codec::JsonReader::Options limits;
    if (max_depth) limits.max_depth = *max_depth;
    codec::validate_json(body, limits);
  } catch (const codec::JsonError&) {
    return std::nullopt;
  }
  json out = json::parse(body, nullptr, false);
  if (out.is_discarded()) return std::nullopt;
  return out;
}

bool carries_error(const json& message) {
  auto it = message.find("error");
  return it != message.end() && !it->is_null();
}

}  // namespace

TraceModel::TraceModel(const validate::ProtocolSchema& protocol, std::size_t max_tracked)
    : protocol_(protocol), max_tracked_(max_tracked) {
  senders_.emplace_back();
  for (const auto& role : protocol_.roles()) senders_.push_back(role);
  if (const auto& x = protocol_.exchange()) {
    for (const auto& step : x->steps) {
      const model::Json* node = step.schema.json;
      std::string value;
      if (node->contains("properties") && (*node)["properties"].contains(x->discriminator)) {
        value = (*node)["properties"][x->discriminator].value("const", "");
      }
      step_values_.push_back(value);
    }
  }
}

std::string TraceModel::other_role(const std::string& role) const {
  if (role.empty()) return "";
  for (const auto& r : protocol_.roles()) {
    if (r != role) return r;
  }
  return "";
}

int TraceModel::method_index(const std::string& name) {
  if (auto it = method_by_name_.find(name); it != method_by_name_.end()) return it->second;
  if (methods_.size() >= kMaxMethods) return -1;
  bool known = protocol_.find(name) != nullptr;
  if (const auto& x = protocol_.exchange()) {
    known = std::any_of(x->steps.begin(), x->steps.end(),
                        [&](const validate::ExchangeStepSchema& s) { return s.type == name; });
  }
  methods_.push_back({name, known});
  const int index = static_cast<int>(methods_.size() - 1);
  method_by_name_.emplace(name, index);
  return index;
}

std::size_t TraceModel::lane_index(const std::string& peer, const std::string& from) {
  auto [it, added] = lane_by_key_.try_emplace({peer, from}, lanes_.size());
  if (added) lanes_.push_back({peer, from, other_role(from)});
  return it->second;
}

MessageRecord TraceModel::add(const validate::Frame& frame) {
  MessageRecord r;
  r.frame = frame.number;
  std::string from = frame.from;
  std::optional<json> message = parse(frame.body, protocol_.max_json_depth());
  if (message && message->is_object()) {
    if (protocol_.exchange()) {
      exchange(frame, *message, r, from);
    } else {
      json_rpc(frame, *message, r, from);
    }
  }
  r.lane = lane_index(frame.peer, from);
  return r;
}

void TraceModel::json_rpc(const validate::Frame& frame, const json& message, MessageRecord& r,
                          std::string& from) {
  auto id = message.find("id");
  if (id != message.end()) r.id = id->dump();
  if (auto method = message.find("method"); method != message.end()) {
    if (!method->is_string()) return;
    const std::string name = method->get<std::string>();
    const validate::MessageSchema* m = protocol_.find(name);
    if (from.empty() && m != nullptr) from = m->sender();
    r.method = method_index(name);
    if (id == message.end()) {
      r.kind = Kind::kNotification;
      return;
    }
    r.kind = Kind::kRequest;
    r.parent = cause(frame.peer, from);
    track(frame.peer, from, r.id, r);
    return;
  }
  if (id == message.end() || !(message.contains("result") || message.contains("error"))) return;
  r.kind = carries_error(message) ? Kind::kError : Kind::kResult;
  // A response answers a request the other side sent: look there first, then anywhere.
  for (const auto& sender : senders_) {
    if (!from.empty() && sender == from) continue;
    auto it = pending_.find({frame.peer, sender, r.id});
    if (it == pending_.end()) continue;
    r.answers = it->second.frame;
    r.method = it->second.method;
    if (from.empty()) from = other_role(it->second.from);
    untrack(it);
    return;
  }
}

void TraceModel::exchange(const validate::Frame& frame, const json& message, MessageRecord& r,
                          std::string& from) {
  const validate::ExchangeSchema& x = *protocol_.exchange();
  auto tag = message.find(x.discriminator);
  if (tag == message.end() || !tag->is_string()) return;
  if (!x.correlation.empty()) {
    if (auto c = message.find(x.correlation); c != message.end()) r.id = c->dump();
  }
  Conversation& c = conversations_[frame.peer];
  // The step: of this type and sender, the next one expected if it can be, else the first
  // (a new conversation on the same peer).
  std::optional<std::size_t> step;
  for (std::size_t i = 0; i < x.steps.size(); ++i) {
    if (step_values_[i] != tag->get<std::string>()) continue;
    if (!from.empty() && x.steps[i].from != from) continue;
    if (!step) step = i;
    if (i >= c.next) {
      step = i;
      break;
    }
  }
  if (!step) {
    r.method = method_index(tag->get<std::string>());
    return;
  }
  const validate::ExchangeStepSchema& s = x.steps[*step];
  if (*step < c.next) c = {};
  c.frames.resize(x.steps.size(), 0);
  c.frames[*step] = frame.number;
  c.next = *step + 1;
  if (from.empty()) from = s.from;
  r.method = method_index(s.type);
  if (s.answers >= 0) {
    r.kind = carries_error(message) ? Kind::kError : Kind::kResult;
    // Keeps its own type as its method: an exchange's answer is a type of its own, unlike a
    // JSON-RPC response (the page takes latency from the request's side).
    r.answers = c.frames[static_cast<std::size_t>(s.answers)];
  } else {
    const bool answered = std::any_of(x.steps.begin(), x.steps.end(), [&](const auto& later) {
      return later.answers == static_cast<int>(*step);
    });
    r.kind = answered ? Kind::kRequest : Kind::kNotification;
  }
  if (conversations_.size() > max_tracked_) {
    conversations_.erase(conversations_.begin() == conversations_.find(frame.peer)
                             ? std::next(conversations_.begin())
                             : conversations_.begin());
  }
}

std::size_t TraceModel::cause(const std::string& peer, const std::string& from) const {
  if (from.empty()) return 0;
  auto flights = in_flight_.find(peer);
  if (flights == in_flight_.end()) return 0;
  // The latest request of the other side still waiting for its answer: this one was made
  // while that was being handled.
  for (auto it = flights->second.rbegin(); it != flights->second.rend(); ++it) {
    const std::string& sender = std::get<1>(it->second);
    if (!sender.empty() && sender != from) return it->first;
  }
  return 0;
}

void TraceModel::track(const std::string& peer, const std::string& from, const std::string& id,
                       const MessageRecord& r) {
  const Key key{peer, from, id};
  if (auto it = pending_.find(key); it != pending_.end()) untrack(it);  // an id reused in flight
  pending_[key] = {r.frame, r.method, from};
  in_flight_[peer][r.frame] = key;
  peer_of_frame_[r.frame] = peer;
  if (pending_.size() > max_tracked_) {  // bounded: the oldest is taken as never answered
    const auto oldest = peer_of_frame_.begin();
    untrack(pending_.find(in_flight_[oldest->second][oldest->first]));
  }
}

void TraceModel::untrack(std::map<Key, Pending>::iterator it) {
  const std::string& peer = std::get<0>(it->first);
  auto flights = in_flight_.find(peer);
  if (flights != in_flight_.end()) {
    flights->second.erase(it->second.frame);
    if (flights->second.empty()) in_flight_.erase(flights);
  }
  peer_of_frame_.erase(it->second.frame);
  pending_.erase(it);
}

}  // namespace rpckit::trace
