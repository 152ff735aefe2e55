#include "rpckit/validate/transcript.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "rpckit/codec/json_reader.hpp"

namespace rpckit::validate {

using nlohmann::json;

namespace {

Finding at_frame(const Frame& frame, Violation v) {
  return {frame.number, frame.line, frame.peer, frame.from, std::move(v)};
}

Violation rule(std::string instance, std::string keyword, std::string expected, std::string found) {
  return {Violation::Severity::kError, std::move(instance), "", std::move(keyword),
          std::move(expected), std::move(found)};
}

// nlohmann keeps the last of duplicate members; the endpoints refuse such a frame, and so does
// this: "member "id" occurs twice".
json parse_unique(const std::string& text) {
  std::vector<std::set<std::string>> open;
  std::string duplicate;
  json::parser_callback_t track = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) open.emplace_back();
    if (event == json::parse_event_t::object_end && !open.empty()) open.pop_back();
    if (event == json::parse_event_t::key && !open.empty() &&
        !open.back().insert(parsed.get<std::string>()).second && duplicate.empty()) {
      duplicate = parsed.get<std::string>();
    }
    return true;
  };
  json out = json::parse(text, track);
  if (!duplicate.empty()) throw std::runtime_error("member \"" + duplicate + "\" occurs twice");
  return out;
}

}  // namespace

TranscriptChecker::TranscriptChecker(const ProtocolValidator& validator, std::size_t max_tracked)
    : validator_(validator), max_tracked_(max_tracked) {
  // The sender of a request in a raw stream may be unknown (""); sorted as the keys are.
  senders_.emplace_back();
  for (const auto& role : validator_.protocol().roles()) senders_.push_back(role);
  std::sort(senders_.begin(), senders_.end());
  if (validator_.protocol().exchange()) exchange_.emplace(validator_, false, max_tracked_);
}

void TranscriptChecker::set_one_sided(bool one_sided) {
  one_sided_ = one_sided;
  if (validator_.protocol().exchange()) exchange_.emplace(validator_, one_sided, max_tracked_);
}

std::string TranscriptChecker::other_role(const std::string& role) const {
  for (const auto& r : validator_.protocol().roles()) {
    if (r != role) return r;
  }
  return "";
}

std::vector<Finding> TranscriptChecker::feed(const Frame& frame) {
  ++frames_;
  std::vector<Finding> out;
  const auto& protocol = validator_.protocol();
  if (auto cap = protocol.max_frame_bytes(); cap && frame.body.size() > *cap) {
    out.push_back(at_frame(frame, rule("", "max_frame_bytes", "a frame of at most " + std::to_string(*cap) + " bytes",
                                       std::to_string(frame.body.size()) + " bytes")));
    return out;
  }
  json envelope;
  try {
    codec::JsonReader::Options limits;
    if (auto depth = protocol.max_json_depth()) limits.max_depth = *depth;
    codec::validate_json(frame.body, limits);  // strict, and no deeper than the protocol takes
    envelope = parse_unique(frame.body);
  } catch (const std::exception& e) {
    out.push_back(at_frame(frame, rule("", "json", exchange_ ? "a JSON message" : "a JSON envelope", e.what())));
    // Its receiver may answer it with an error carrying the id it could still find.
    ++unreadable_[{frame.peer, frame.from}];
    return out;
  }
  if (exchange_) {
    for (auto& f : exchange_->feed(frame, envelope)) out.push_back(std::move(f));
    return out;
  }
  const auto method = envelope.is_object() ? envelope.find("method") : envelope.end();
  if (envelope.is_object() && method != envelope.end() && method->is_string()) {
    const MessageSchema* m = protocol.find(method->get<std::string>());
    Frame attributed = frame;
    if (m != nullptr && attributed.from.empty()) attributed.from = m->sender();
    for (auto& v : validator_.envelope(envelope)) out.push_back(at_frame(attributed, std::move(v)));
    if (m == nullptr) {
      // Unknown: reported above; its receiver still answers it (-32601), by its id.
      if (envelope.contains("id")) request(attributed, method->get<std::string>(), envelope["id"].dump(), out);
      return out;
    }
    if (!frame.from.empty() && !m->routes.empty() && !m->sent_by(frame.from)) {
      out.push_back(at_frame(
          attributed, rule("/method", "direction",
                           m->method + " sent by " + m->sender() + " (" + m->routes_text() + ")",
                           "sent by " + frame.from)));
    }
    if (m->request && envelope.contains("id")) {
      const auto params = envelope.find("params");
      request(attributed, m->method, envelope["id"].dump(), out,
              params == envelope.end() ? std::string() : m->result_chosen_by(*params));
    }
    return out;
  }
  if (envelope.is_object() && (envelope.contains("result") || envelope.contains("error")) &&
      envelope.contains("id")) {
    response(frame, envelope["id"].dump(), envelope, out);
    return out;
  }
  for (auto& v : validator_.envelope(envelope)) out.push_back(at_frame(frame, std::move(v)));
  // An error with no id answers a request whose id could not be read where the profile leaves
  // the id out ("unknown_id": "omit", MCP) rather than JSON-RPC's null: the protocol's
  // ErrorResponse schema, just applied, says whether its id may be missing.
  const bool idless_error = envelope.is_object() && envelope.contains("error");
  if (out.empty() && !idless_error) {
    out.push_back(at_frame(frame, rule("", "envelope", "a request, a notification or a response",
                                       describe_value(envelope))));
  }
  return out;
}

void TranscriptChecker::request(const Frame& frame, const std::string& method,
                                const std::string& id, std::vector<Finding>& out,
                                std::string result_chosen_by) {
  const Key key{frame.peer, frame.from, id};
  if (auto it = pending_.find(key); it != pending_.end()) {
    out.push_back(at_frame(frame, rule("/id", "id",
                                       "an id not in flight (frame " + std::to_string(it->second.frame) +
                                           "'s " + it->second.method + " still waits for its answer)",
                                       id)));
    return;
  }
  forget_answer(key);  // an id may be reused once its request was answered
  pending_[key] = {method, frame.number, frame.from, std::move(result_chosen_by)};
  pending_by_frame_[frame.number] = key;
  if (pending_.size() > max_tracked_) {
    // Bounded memory against a peer that never answers: the oldest request is reported now.
    const auto oldest = pending_by_frame_.begin();
    out.push_back(unanswered(oldest->second, pending_.at(oldest->second),
                             std::to_string(max_tracked_) + " newer requests sent meanwhile"));
    pending_.erase(oldest->second);
    pending_by_frame_.erase(oldest);
  }
}

void TranscriptChecker::forget_answer(const Key& key) {
  if (auto it = answered_.find(key); it != answered_.end()) {
    answered_by_frame_.erase(it->second);
    answered_.erase(it);
  }
}

Finding TranscriptChecker::unanswered(const Key& key, const Pending& p, const std::string& found) {
  Finding f;
  f.frame = p.frame;
  f.peer = std::get<0>(key);
  f.from = p.from;
  f.violation = rule("/id", "unanswered",
                     "an answer to " + p.method + " (id " + std::get<2>(key) + ")", found);
  return f;
}

void TranscriptChecker::response(const Frame& frame, const std::string& id, const json& envelope,
                                 std::vector<Finding>& out) {
  // A response answers a request the other side sent: look there first, then anywhere (a raw
  // stream of one pipe does not know its sender).
  auto found = pending_.end();
  for (const auto& sender : senders_) {
    if (!frame.from.empty() && sender == frame.from) continue;  // own request: not an answer
    found = pending_.find({frame.peer, sender, id});
    if (found != pending_.end()) break;
  }
  Frame attributed = frame;
  if (found == pending_.end() && id == "null" && envelope.contains("error")) {
    // JSON-RPC's answer to a request whose id could not be read.
    for (auto& v : validator_.envelope(envelope)) out.push_back(at_frame(frame, std::move(v)));
    return;
  }
  if (found == pending_.end() && envelope.contains("error")) {
    // The answer to a frame that could not be read (an error with the id found in it).
    for (auto& [sender, count] : unreadable_) {
      if (sender.first != frame.peer || sender.second == frame.from || count == 0) continue;
      --count;
      for (auto& v : validator_.envelope(envelope)) out.push_back(at_frame(frame, std::move(v)));
      return;
    }
  }
  if (found == pending_.end() && one_sided_) {
    // One side's stream: the requests it answers are in the other side's, not here.
    for (auto& v : validator_.envelope(envelope)) out.push_back(at_frame(frame, std::move(v)));
    return;
  }
  if (found == pending_.end()) {
    for (auto& v : validator_.envelope(envelope)) out.push_back(at_frame(frame, std::move(v)));
    std::string why = "no request in flight has this id";
    for (const auto& sender : senders_) {
      if (auto it = answered_.find({frame.peer, sender, id}); it != answered_.end()) {
        why = "its request was already answered by frame " + std::to_string(it->second);
      }
    }
    out.push_back(at_frame(frame, rule("/id", "id", "the id of a request waiting for its answer", id + " (" + why + ")")));
    return;
  }
  if (attributed.from.empty()) attributed.from = other_role(found->second.from);
  std::optional<std::string_view> answers;
  if (validator_.protocol().find(found->second.method) != nullptr) answers = found->second.method;
  for (auto& v : validator_.envelope(envelope, answers, found->second.result_chosen_by)) {
    out.push_back(at_frame(attributed, std::move(v)));
  }
  forget_answer(found->first);
  answered_[found->first] = frame.number;
  answered_by_frame_[frame.number] = found->first;
  if (answered_.size() > max_tracked_) {  // only for "answered twice" messages: the oldest go
    answered_.erase(answered_by_frame_.begin()->second);
    answered_by_frame_.erase(answered_by_frame_.begin());
  }
  pending_by_frame_.erase(found->second.frame);
  pending_.erase(found);
}

std::vector<Finding> TranscriptChecker::finish() {
  std::vector<Finding> out;
  if (exchange_) out = exchange_->finish();
  // One side's stream holds no answers to its own requests: they went the other way.
  for (const auto& [key, p] : pending_) {
    if (!one_sided_) out.push_back(unanswered(key, p, "none by the end of the transcript"));
  }
  pending_.clear();
  pending_by_frame_.clear();
  return out;
}

}  // namespace rpckit::validate
