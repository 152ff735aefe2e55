// rpckit::loaf_client as a library, against real processes on real pipes: the sample server
// (the handshake's answer, events by type, history paged as decision 8.10 says, the stop of
// 8.6 with nothing to report), and misbehaving_server.py (each failure in the spec's words, a
// malformed event, an exit status other than 0, and the hostile output a lenient client must
// survive: a flood of non-JSON lines and a line over 64 MiB).
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "loaf_v1/errors.hpp"
#include "rpckit/loaf/client.hpp"

namespace {

namespace lv1 = loaf::v1;
namespace msg = loaf::v1::messages;
using rpckit::loaf::Client;
using rpckit::loaf::Event;

// An outer bound for a call (never a measured duration).
constexpr std::chrono::milliseconds kCallBound{60000};

// Every event, in order, waited on by predicate.
struct Events {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<Event> seen;

  void add(const Event& e) {
    std::lock_guard lock(mutex);
    seen.push_back(e);
    changed.notify_all();
  }
  template <class Pred>
  bool wait_for(Pred pred) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, kCallBound, [&] {
      for (const Event& e : seen) {
        if (pred(e)) return true;
      }
      return false;
    });
  }
};

Client::Options sample(Events& events) {
  return {.command = {LOAF_SERVER_EXE, "rpc"},
          .client_name = "client-library-test",
          .on_event = [&events](const Event& e) { events.add(e); }};
}

Client::Options misbehaving(const std::string& mode, double time_scale = 1.0) {
  return {.command = {PYTHON_EXE, MISBEHAVING_SERVER, mode}, .time_scale = time_scale};
}

std::size_t peak_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoul(line.substr(6));
  }
  return 0;
}

TEST(LoafClient, HandshakeEventsHistoryAndACleanStop) {
  Events events;
  Client client(sample(events));
  ASSERT_TRUE(client.start()) << client.outcome().failure()->describe();
  ASSERT_TRUE(client.handshake().has_value());
  EXPECT_EQ(client.handshake()->protocol_version, "1.0.0");
  EXPECT_FALSE(client.handshake()->methods.empty());

  auto created = client.call<msg::SessionCreate>({}, kCallBound);
  ASSERT_TRUE(created.ok()) << created.error().describe();
  const std::string sid = created->session_id;
  EXPECT_TRUE(events.wait_for([&](const Event& e) {
    const auto* changed = e.as<lv1::StateChangedEvent>();
    return changed != nullptr && changed->payload.reason == "session_created" &&
           changed->payload.session_id == sid;
  }));

  lv1::SessionSendParams send;
  send.session_id = sid;
  send.text = "hello";
  auto sent = client.call<msg::SessionSend>(send, kCallBound);
  ASSERT_TRUE(sent.ok()) << sent.error().describe();
  const std::string turn = sent->turn_id;
  EXPECT_TRUE(events.wait_for([&](const Event& e) { return rpckit::loaf::is_turn_end(e, turn); }));

  // Decision 8.10: paged until a short page; every session whatever the page size.
  auto whole = client.call<msg::HistoryList>({}, kCallBound);
  ASSERT_TRUE(whole.ok());
  auto by_twos = client.list_history({.page_size = 2, .deadline = kCallBound});
  ASSERT_TRUE(by_twos.ok()) << by_twos.error().describe();
  EXPECT_EQ(by_twos->size(), whole->sessions.size());
  ASSERT_FALSE(by_twos->empty());
  EXPECT_EQ(by_twos->front().id, whole->sessions.front().id);

  // The server's own errors keep their code and data (decision 8.11: data may be absent).
  lv1::SessionGetParams unknown;
  unknown.session_id = "no-such-session";
  auto missing = client.call<msg::SessionGet>(unknown, kCallBound);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, rpckit::CallError::Kind::kRemote);
  EXPECT_EQ(lv1::error_code(missing.error()), lv1::ErrorCode::kInternalError);
  EXPECT_EQ(rpckit::loaf::error_reason(missing.error().error), "internal_error");

  client.stop();
  EXPECT_TRUE(client.outcome().conformed())
      << (client.outcome().failure() ? client.outcome().failure()->describe() : "")
      << (client.outcome().violations().empty() ? "" : client.outcome().violations().front());
}

struct FailureCase {
  const char* mode;
  const char* kind;
  double time_scale;  // small only where a timer has to run out
};

class LoafClientFailure : public ::testing::TestWithParam<FailureCase> {};

TEST_P(LoafClientFailure, NamedInTheSpecsWords) {
  const FailureCase& c = GetParam();
  Client client(misbehaving(c.mode, c.time_scale));
  if (client.start()) {
    (void)client.call<msg::StateGet>({}, kCallBound);
  }
  client.stop();
  auto failure = client.outcome().failure();
  ASSERT_TRUE(failure.has_value()) << c.mode;
  EXPECT_EQ(failure->kind, c.kind) << failure->describe();
}

INSTANTIATE_TEST_SUITE_P(
    Modes, LoafClientFailure,
    ::testing::Values(FailureCase{"silent", "handshake_timeout", 0.05},
                      FailureCase{"refuse", "handshake_refused", 1.0},
                      FailureCase{"v2", "unsupported_protocol_version", 1.0},
                      FailureCase{"linger", "exit_timeout", 0.1},
                      FailureCase{"exit-3", "exit_status", 1.0}),
    [](const auto& param_info) { return std::string(param_info.param.kind); });

TEST(LoafClient, LaunchFailureIsNamed) {
  Client client({.command = {"/nonexistent/loaf"}});
  EXPECT_FALSE(client.start());
  ASSERT_TRUE(client.outcome().failure().has_value());
  EXPECT_EQ(client.outcome().failure()->kind, "launch_failed");
}

TEST(LoafClient, AResultOfTheWrongShapeIsAViolationAndALocalError) {
  Client client(misbehaving("bad-result"));
  ASSERT_TRUE(client.start());
  auto got = client.call<msg::StateGet>({}, kCallBound);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, rpckit::CallError::Kind::kLocal);
  client.stop();
  ASSERT_EQ(client.outcome().violation_count(), 1U);
  EXPECT_NE(client.outcome().violations()[0].find("section 4"), std::string::npos);
}

TEST(LoafClient, AMalformedEventIsAViolationAnUnknownTypeIsPassedOn) {
  Events events;
  Client::Options o = misbehaving("bad-event");
  o.on_event = [&events](const Event& e) { events.add(e); };
  Client client(std::move(o));
  ASSERT_TRUE(client.start());
  ASSERT_TRUE(client.call<msg::StateGet>({}, kCallBound).ok());
  ASSERT_TRUE(events.wait_for([](const Event& e) { return e.type == "x.future.kind"; }));
  client.stop();
  std::lock_guard lock(events.mutex);
  bool malformed_seen = false;
  for (const Event& e : events.seen) {
    if (e.type == "state.changed" && e.malformed) malformed_seen = true;
    if (e.type == "x.future.kind") {
      EXPECT_FALSE(e.known_type());
      EXPECT_FALSE(e.malformed.has_value());  // section 7: accepted, not a violation
    }
  }
  EXPECT_TRUE(malformed_seen);
  ASSERT_EQ(client.outcome().violation_count(), 1U);
  EXPECT_NE(client.outcome().violations()[0].find("section 5"), std::string::npos);
}

// Decision 8.8: non-JSON stdout lines are logged and skipped; a flood of them is logged at a
// falling rate (the connection's diagnostics), so the violations stay few.
TEST(LoafClient, AFloodOfNonJsonLinesIsSkippedAndLoggedAtAFallingRate) {
  Client client(misbehaving("flood"));
  ASSERT_TRUE(client.start());
  ASSERT_TRUE(client.call<msg::StateGet>({}, kCallBound).ok());
  auto ping = client.call<msg::SystemPing>({}, kCallBound);
  EXPECT_TRUE(ping.ok());
  client.stop();
  EXPECT_FALSE(client.outcome().failure().has_value());
  EXPECT_GE(client.outcome().violation_count(), 1U);
  EXPECT_LE(client.outcome().violation_count(), 20U);  // 100000 lines: 10, then powers of ten
}

// Decision 8.7: a line over 64 MiB is dropped and the connection keeps serving; a line of
// 160 MiB is never held whole (the client's peak memory grows by less than the line; a
// reader that drops at the limit needs about twice the limit, 128 MiB).
TEST(LoafClient, ALineOver64MiBIsDroppedWithoutHoldingItWhole) {
  const std::size_t before = peak_rss_kib();
  Client client(misbehaving("overlong"));
  ASSERT_TRUE(client.start());
  ASSERT_TRUE(client.call<msg::StateGet>({}, kCallBound).ok());
  EXPECT_TRUE(client.call<msg::SystemPing>({}, kCallBound).ok());
  client.stop();
  EXPECT_FALSE(client.outcome().failure().has_value());
  ASSERT_GE(client.outcome().violation_count(), 1U);
  EXPECT_NE(client.outcome().violations()[0].find("64 MiB"), std::string::npos)
      << client.outcome().violations()[0];
  const std::size_t grew_kib = peak_rss_kib() - before;
  EXPECT_LT(grew_kib, std::size_t{160} * 1024) << grew_kib << " KiB";
}

}  // namespace

namespace {

// Decision 8.11: upstream always sends data.reason; the client tolerates its absence.
TEST(LoafClient, ErrorReasonToleratesErrorsWithoutData) {
  EXPECT_EQ(rpckit::loaf::error_reason(rpckit::RpcError(-32603, "boom")), std::nullopt);
  EXPECT_EQ(rpckit::loaf::error_reason(
                rpckit::RpcError(-32603, "boom", rpckit::JsonValue(nlohmann::json("odd")))),
            std::nullopt);
  lv1::ErrorData data;
  data.reason = lv1::ErrorReason::kInternalError;
  EXPECT_EQ(rpckit::loaf::error_reason(lv1::make_error(lv1::ErrorCode::kInternalError, "boom",
                                                        data)),
            "internal_error");
}

}  // namespace
