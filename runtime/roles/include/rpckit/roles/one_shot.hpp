#pragma once
// The generic roles of a one-shot exchange (protocol.json "x-exchange", a generated
// `Exchange`): a protocol that is not JSON-RPC, where the spawner starts one process per call
// and both sides send a fixed sequence of typed messages, told apart by a discriminator member
// and matched by a correlation member. OneShotCall is the spawner's side, OneShotPeer the
// spawned one; step I's message is std::tuple_element_t<I, Exchange::Steps>, and a step can
// only be sent by its side (static_assert). What each side checks, and in which order, is the
// protocol's policy: these give it the lines, the typed messages, the discriminator and
// correlation tests, and the deadlines.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>

#include <nlohmann/json.hpp>

#include "rpckit/codec/decode_error.hpp"
#include "rpckit/roles/one_shot_process.hpp"
#include "rpckit/roles/one_shot_stdio.hpp"

namespace rpckit::roles {

template <class Exchange, std::size_t I>
using StepMessage = std::tuple_element_t<I, typename Exchange::Steps>;

// Whether `message`'s discriminator member is step I's (its type's const).
template <class Exchange, std::size_t I>
bool has_tag(const nlohmann::json& message) {
  auto it = message.find(Exchange::kDiscriminator);
  return it != message.end() && it->is_string() &&
         it->template get_ref<const std::string&>() == Exchange::kSteps[I].tag;
}

// Whether `reply` (step I) carries the correlation member of `sent` (the step it answers)
// unchanged; true for a step matched by order.
template <class Exchange, std::size_t I>
bool correlates(const nlohmann::json& reply, const nlohmann::json& sent) {
  if (!Exchange::kSteps[I].correlated) return true;
  auto mine = reply.find(Exchange::kCorrelation);
  auto theirs = sent.find(Exchange::kCorrelation);
  return mine != reply.end() && theirs != sent.end() && *mine == *theirs;
}

// Step I's message decoded from a line's object, or nullopt with the decoder's reason.
template <class Exchange, std::size_t I>
std::optional<StepMessage<Exchange, I>> decode_step(const nlohmann::json& message, std::string* why) {
  try {
    return message.get<StepMessage<Exchange, I>>();
  } catch (const codec::DecodeError& e) {
    *why = e.what();
    return std::nullopt;
  }
}

template <class Exchange>
class OneShotCall {
 public:
  struct Settings {
    process::SpawnOptions spawn;
    double time_scale = 1.0;                      // multiplies every deadline of the Exchange
    std::chrono::milliseconds invoke_timeout{0};  // > 0: replaces the Exchange's (unscaled)
  };

  explicit OneShotCall(const Settings& settings)
      : scale_(settings.time_scale),
        process_(OneShotProcess::Settings{
            settings.spawn, Exchange::kMaxFrameBytes, Exchange::kStrictLines,
            settings.invoke_timeout.count() > 0 ? settings.invoke_timeout : scaled(Exchange::kInvokeTimeout),
            scaled(Exchange::kLaunchTimeout), scaled(Exchange::kTeardownTimeout),
            scaled(Exchange::kReapTimeout)}) {}

  // Every line as it crosses (outgoing, or as read from the child).
  std::function<void(bool outgoing, std::string_view line)> on_line;

  std::optional<std::string> launch() { return process_.launch(); }

  // Sends step I; `sent`, when given, receives the message as JSON (for correlates()).
  template <std::size_t I>
  std::error_code send(const StepMessage<Exchange, I>& message, nlohmann::json* sent = nullptr) {
    static_assert(Exchange::kSteps[I].from_spawner, "step I is sent by the spawned side");
    nlohmann::json json = message;
    std::string line = json.dump();
    if (on_line) on_line(true, line);
    if (sent != nullptr) *sent = std::move(json);
    return process_.send_line(line);
  }

  // Waits for step I's line, within its own deadline (scaled) and the invoke deadline.
  template <std::size_t I>
  LineReceived receive() {
    static_assert(!Exchange::kSteps[I].from_spawner, "step I is sent by the spawner");
    LineReceived got = process_.receive_line(scaled(Exchange::kSteps[I].within));
    if (on_line && (got.ok() || !got.line.empty())) on_line(false, got.line);
    return got;
  }
  OneShotProcess::Finish finish() { return process_.finish(); }
  std::chrono::milliseconds teardown_timeout() const { return process_.teardown_timeout(); }
  bool abort() { return process_.abort(); }
  bool expired() const { return process_.expired(); }

 private:
  // A deadline stays one however small the scale (zero would mean none).
  std::chrono::milliseconds scaled(std::chrono::milliseconds d) const {
    if (d.count() == 0) return d;
    const double ms = static_cast<double>(d.count()) * scale_;
    return std::chrono::milliseconds(std::max<std::int64_t>(1, static_cast<std::int64_t>(ms)));
  }

  double scale_;
  OneShotProcess process_;
};

template <class Exchange>
class OneShotPeer {
 public:
  OneShotPeer() : stdio_(Exchange::kMaxFrameBytes, Exchange::kStrictLines) {}

  template <std::size_t I>
  LineReceived receive() {
    static_assert(Exchange::kSteps[I].from_spawner, "step I is sent by this side");
    return stdio_.receive_line();
  }
  template <std::size_t I>
  bool send(const StepMessage<Exchange, I>& message) {
    static_assert(!Exchange::kSteps[I].from_spawner, "step I is sent by the spawner");
    return stdio_.send_line(nlohmann::json(message).dump());
  }

 private:
  OneShotStdio stdio_;
};

}  // namespace rpckit::roles
