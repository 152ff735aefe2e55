// Helpers for the WireRules tests: an endpoint with explicit rules under a RawPeer, serving a
// handler that counts its calls, and a record of call outcomes.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "endpoint_harness.hpp"
#include "rpckit/framing/frame_reader.hpp"

namespace rpckit::endpoint_test {

// basic_handler, plus: "whoami" answers the id it was given ("notification" for none), "big"
// answers 1000 bytes, "defer.error" defers and answers -32602 without data through the Reply.
inline json wire_handler(const Incoming& in) {
  if (in.method == "whoami") return in.id ? in.id->get() : json("notification");
  if (in.method == "big") return std::string(1000, 'b');
  if (in.method == "defer.error") {
    Reply reply = in.defer();
    reply.error(RpcError(jsonrpc_code::kInvalidParams, "later"));
    return nullptr;
  }
  return basic_handler(in);
}

struct RulesPeer {
  // Declared first: outlives the endpoint's threads.
  std::shared_ptr<std::atomic<int>> handled = std::make_shared<std::atomic<int>>(0);
  std::unique_ptr<RawPeer> peer;

  RawPeer& operator*() { return *peer; }
  RawPeer* operator->() { return peer.get(); }
  int handled_count() const { return handled->load(); }
};

struct RulesPeerSetup {
  std::size_t max_body = kMaxBody;
  framing::ReaderOptions reader;
  bool handler = true;
};

// A started endpoint with `rules`, driven by hand-written frames.
inline RulesPeer rules_peer(WireRules rules, RulesPeerSetup setup = {}) {
  RulesPeer out;
  Endpoint::Options options;
  options.rules = rules;
  out.peer = std::make_unique<RawPeer>(std::move(options), setup.max_body, setup.reader);
  if (setup.handler) {
    out.peer->ep().set_handler([handled = out.handled](const Incoming& in) {
      if (in.method != "rpckit.test.sync") ++*handled;
      return wire_handler(in);
    });
  }
  out.peer->start();
  return out;
}

// RawPeer::sync() with an id of any kind (for rules that refuse string ids): the very next
// frame the endpoint writes must answer it, so nothing was written for earlier input.
inline ::testing::AssertionResult sync_with(RawPeer& peer, const json& id) {
  peer.send(request(id, "rpckit.test.sync"));
  std::optional<RawPeer::Frame> frame = peer.next();
  if (!frame) return ::testing::AssertionFailure() << "no answer to " << id.dump();
  json parsed = frame->parsed();
  if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("id") ||
      parsed["id"] != id) {
    return ::testing::AssertionFailure() << "expected the answer to " << id.dump() << ", got "
                                         << frame->body;
  }
  return ::testing::AssertionSuccess();
}

// How a call ended, as a test compares it.
struct Outcome {
  bool ok = false;
  std::string text;  // the result's JSON, or the error's message
  CallError::Kind kind = CallError::Kind::kRemote;
};

inline Outcome outcome_of(const CallResult& result) {
  if (result.ok()) return Outcome{true, result.result().dump()};
  return Outcome{false, result.error().error.message(), result.error().kind};
}

// A completion for call_async() that records the outcome.
inline Endpoint::Completion record_into(Recorder<Outcome>& outcomes) {
  return [&outcomes](CallResult result) { outcomes.push(outcome_of(result)); };
}

// The error object every -32600 / -32700 the endpoint makes itself carries, byte for byte.
inline std::string error_frame(const std::string& error_object, const std::string& id) {
  return R"({"error":)" + error_object + R"(,"id":)" + id + R"(,"jsonrpc":"2.0"})";
}

// ErrorReasons naming every runtime error after itself, under the member "reason".
inline ErrorReasons all_reasons() {
  ErrorReasons reasons;
  reasons.member = "reason";
  reasons.parse_error = "parse_error";
  reasons.batch = "batch";
  reasons.invalid_request = "invalid_request";
  reasons.method_not_found = "method_not_found";
  reasons.invalid_params = "invalid_params";
  reasons.internal_error = "internal_error";
  return reasons;
}

}  // namespace rpckit::endpoint_test
