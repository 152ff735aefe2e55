#include "rpckit/validate/exchange_checker.hpp"

#include <algorithm>

namespace rpckit::validate {
namespace {

using nlohmann::json;

Violation rule(std::string instance, std::string expected, std::string found) {
  return {Violation::Severity::kError,
          std::move(instance),
          "",
          std::string(model::keyword(model::Annotation::kExchange)),
          std::move(expected),
          std::move(found)};
}

}  // namespace

ExchangeChecker::ExchangeChecker(const ProtocolValidator& validator, bool one_sided,
                                 std::size_t max_tracked)
    : validator_(validator),
      exchange_(*validator.protocol().exchange()),
      one_sided_(one_sided),
      max_tracked_(std::max<std::size_t>(1, max_tracked)) {}

void ExchangeChecker::forget_one() {
  auto victim = conversations_.begin();
  for (auto it = conversations_.begin(); it != conversations_.end(); ++it) {
    const bool finished = it->second.next >= exchange_.steps.size();
    if (finished) {
      victim = it;
      break;
    }
    if (it->second.first_frame < victim->second.first_frame) victim = it;
  }
  conversations_.erase(victim);
}

std::string ExchangeChecker::describe(std::size_t step) const {
  const ExchangeStepSchema& s = exchange_.steps[step];
  return "step " + std::to_string(step) + " (" + s.type + " from " + s.from + ")";
}

std::vector<Finding> ExchangeChecker::feed(const Frame& frame, const json& message) {
  std::vector<Finding> out;
  auto at = [&](const Frame& f, Violation v) {
    out.push_back({f.number, f.line, f.peer, f.from, std::move(v)});
  };
  if (!conversations_.contains(frame.peer) && conversations_.size() >= max_tracked_) forget_one();
  Conversation& c = conversations_[frame.peer];
  if (c.first_frame == 0) c.first_frame = frame.number;
  const auto& steps = exchange_.steps;
  c.correlation.resize(steps.size());
  c.frame.resize(steps.size());
  c.last_frame = frame.number;
  std::size_t i = c.next;
  if (!frame.from.empty()) {
    // The next step this sender has; skipping the other side's is an error unless the
    // transcript holds one side only.
    std::size_t mine = i;
    while (mine < steps.size() && steps[mine].from != frame.from) ++mine;
    if (mine != i && !one_sided_ && i < steps.size()) {
      at(frame, rule("", describe(i) + " next", "a frame from " + frame.from));
    }
    i = mine;
  }
  if (i >= steps.size()) {
    at(frame, rule("", "no frame after the exchange's " + std::to_string(steps.size()) + " steps" +
                           (frame.from.empty() ? "" : " (none left from " + frame.from + ")"),
                   "one more"));
    c.next = steps.size();
    return out;
  }
  const ExchangeStepSchema& step = steps[i];
  Frame attributed = frame;
  if (attributed.from.empty()) attributed.from = step.from;
  for (auto& v : validator_.schemas().validate(message, step.schema)) at(attributed, std::move(v));
  const json correlation = exchange_.correlation.empty() || !message.is_object()
                               ? json()
                               : message.value(exchange_.correlation, json());
  if (step.correlated && step.answers >= 0 && steps[static_cast<std::size_t>(step.answers)].correlated) {
    const auto answered = static_cast<std::size_t>(step.answers);
    const json& sent = c.correlation[answered];
    if (c.frame[answered] != 0 && !sent.is_null() && correlation != sent) {
      at(attributed, rule("/" + exchange_.correlation,
                          "the " + exchange_.correlation + " of frame " + std::to_string(c.frame[answered]) +
                              " (" + sent.dump() + "), which it answers",
                          correlation.dump()));
    }
  }
  c.correlation[i] = correlation;
  c.frame[i] = frame.number;
  c.next = i + 1;
  return out;
}

std::vector<Finding> ExchangeChecker::finish() {
  std::vector<Finding> out;
  for (const auto& [peer, c] : conversations_) {
    std::size_t missing = c.next;
    if (one_sided_) {
      // Only the recorded side's steps can be missing.
      std::string side = c.next > 0 ? exchange_.steps[c.next - 1].from : "";
      while (missing < exchange_.steps.size() && exchange_.steps[missing].from != side) ++missing;
    }
    if (missing >= exchange_.steps.size()) continue;
    Finding f;
    f.frame = c.last_frame;
    f.peer = peer;
    f.violation = rule("", describe(missing), "the end of the transcript");
    out.push_back(std::move(f));
  }
  conversations_.clear();
  return out;
}

}  // namespace rpckit::validate
