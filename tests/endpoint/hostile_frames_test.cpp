// What a hostile peer can put in one frame, and what the endpoint answers: every case gets
// the documented error (or, where the input is fine, the right result), and the connection
// keeps serving (sync() after each). The frames are far below the 4 MiB cap.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <vector>

#include "endpoint_harness.hpp"
#include "scaling.hpp"

namespace rpckit::endpoint_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string deep(std::size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

class HostileFrames : public ::testing::Test {
 protected:
  void SetUp() override {
    peer.ep().set_handler([this](const Incoming& in) {
      if (in.method != "rpckit.test.sync") ++handled;
      return basic_handler(in);
    });
    peer.start();
  }
  // The error the endpoint answered `body` with.
  json error_for(const std::string& body) {
    peer.send(std::string_view(body));
    json response = peer.next_json();
    EXPECT_TRUE(response.contains("error")) << response.dump().substr(0, 300);
    return response;
  }
  std::atomic<int> handled{0};
  RawPeer peer;
};

TEST_F(HostileFrames, DeepParamsAreAnInvalidRequestAnsweredWithTheirId) {
  // 30,000 levels in an unknown member of params: the frame that crashed the demo host.
  json r = error_for(R"({"jsonrpc":"2.0","id":7,"method":"echo","params":{"junk":)" +
                     deep(30000) + "}}");
  EXPECT_EQ(r["id"], 7);
  EXPECT_EQ(r["error"]["code"], jsonrpc_code::kInvalidRequest);
  EXPECT_EQ(r["error"]["message"], "Invalid Request: at byte 311: nesting deeper than 256 levels");
  // The id is found even when it comes after the deep member, and string ids too.
  r = error_for(R"({"jsonrpc":"2.0","method":"echo","params":)" + deep(5000) + R"(,"id":"late"})");
  EXPECT_EQ(r["id"], "late");
  EXPECT_EQ(r["error"]["code"], jsonrpc_code::kInvalidRequest);
  // A deep notification is answered like every invalid notification: with a null id.
  r = error_for(R"({"jsonrpc":"2.0","method":"echo","params":)" + deep(300) + "}");
  EXPECT_EQ(r["id"], nullptr);
  EXPECT_EQ(handled.load(), 0);
  EXPECT_TRUE(peer.sync());
}

TEST_F(HostileFrames, DepthLimitIsExact) {
  // The envelope is level 1, params level 2: 254 more levels inside params still fit.
  std::string fits = R"({"jsonrpc":"2.0","id":1,"method":"echo","params":[)" + deep(254) + "]}";
  peer.send(std::string_view(fits));
  json ok = peer.next_json();
  ASSERT_TRUE(ok.contains("result")) << ok.dump().substr(0, 200);
  std::string over = R"({"jsonrpc":"2.0","id":2,"method":"echo","params":[)" + deep(255) + "]}";
  EXPECT_EQ(error_for(over)["error"]["code"], jsonrpc_code::kInvalidRequest);
}

TEST_F(HostileFrames, DeepOrTruncatedJsonAfterTheDepthLimitIsAParseError) {
  // Too deep *and* not JSON: not JSON wins (the id cannot be trusted).
  json r = error_for(R"({"jsonrpc":"2.0","id":3,"method":"echo","params":)" +
                     std::string(400, '[') + "}");
  EXPECT_EQ(r["error"]["code"], jsonrpc_code::kParseError);
  EXPECT_EQ(r["id"], nullptr);
  EXPECT_TRUE(peer.sync());
}

TEST_F(HostileFrames, NumbersNoDoubleCanHoldAreRejectedWithTheId) {
  json r = error_for(R"({"jsonrpc":"2.0","id":"n","method":"echo","params":{"x":1e400}})");
  EXPECT_EQ(r["id"], "n");
  EXPECT_EQ(r["error"]["code"], jsonrpc_code::kInvalidRequest);
  EXPECT_THAT(r["error"]["message"].get<std::string>(),
              HasSubstr("number 1e400 is beyond the range of a double"));
  // Within range they pass, whatever their spelling.
  peer.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":[-0,-0.0,1e-400,1.7976931348623157e308,123456789012345678901234567890]})");
  json echoed = peer.next_json();
  ASSERT_TRUE(echoed.contains("result"));
  EXPECT_EQ(echoed["result"].size(), 5u);
  EXPECT_TRUE(peer.sync());
}

TEST_F(HostileFrames, IdsBeyondSixtyFourBitsOrFractionalAreInvalid) {
  for (const char* id : {"18446744073709551616", "-9223372036854775809", "1e3", "1.0", "1e400"}) {
    json r = error_for(std::string(R"({"jsonrpc":"2.0","id":)") + id + R"(,"method":"echo"})");
    EXPECT_EQ(r["id"], nullptr) << id;
    EXPECT_EQ(r["error"]["code"], jsonrpc_code::kInvalidRequest) << id;
  }
  // A megabyte string id is echoed intact.
  std::string long_id(1 << 20, 'i');
  peer.send(request(long_id, "echo", json::array()));
  EXPECT_EQ(peer.next_json()["id"], long_id);
  EXPECT_EQ(handled.load(), 1);
}

TEST_F(HostileFrames, DuplicateEnvelopeMembersAreInvalidDuplicateParamsKeysLastWins) {
  json r = error_for(R"({"jsonrpc":"2.0","id":1,"id":2,"method":"echo"})");
  EXPECT_EQ(r["id"], nullptr) << "which of two ids would be a guess";
  EXPECT_EQ(r["error"]["message"], "Invalid Request: member \"id\" occurs twice");
  r = error_for(R"({"jsonrpc":"2.0","id":3,"method":"echo","method":"add"})");
  EXPECT_EQ(r["id"], 3);
  EXPECT_EQ(r["error"]["message"], "Invalid Request: member \"method\" occurs twice");
  r = error_for(R"({"jsonrpc":"2.0","id":4,"method":"echo","params":{},"params":[]})");
  EXPECT_EQ(r["error"]["code"], jsonrpc_code::kInvalidRequest);
  // Inside params, JSON's usual rule (and nlohmann's, and JavaScript's): the last one wins.
  peer.send(R"({"jsonrpc":"2.0","id":5,"method":"echo","params":{"a":1,"a":2}})");
  EXPECT_EQ(peer.next_json()["result"], json({{"a", 2}}));
  EXPECT_EQ(handled.load(), 1);
}

TEST_F(HostileFrames, InvalidUtf8AndLoneSurrogatesAreParseErrors) {
  const std::vector<std::string> bodies = {
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\"\xC0\xAF\"]}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\"\xED\xA0\x80\"]}",
      R"({"jsonrpc":"2.0","id":1,"method":"echo","params":["\ud800"]})",
      R"({"jsonrpc":"2.0","id":1,"method":"echo","params":["\udc00x"]})",
      R"({"jsonrpc":"2.0","id":1,"method":"ec\ud83dho"})",
      std::string("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\0\"params\":[]}", 48),
  };
  for (const std::string& body : bodies) {
    json r = error_for(body);
    EXPECT_EQ(r["error"]["code"], jsonrpc_code::kParseError) << body;
    EXPECT_THAT(r["error"]["message"].get<std::string>(), StartsWith("Parse error: at byte "));
    EXPECT_EQ(r["id"], nullptr);
  }
  EXPECT_EQ(handled.load(), 0);
  EXPECT_TRUE(peer.sync());
}

TEST_F(HostileFrames, EscapedNulAndEveryCodePointArriveIntact) {
  peer.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":["a\u0000b","\ud83d\ude00","\u2028"]})");
  json r = peer.next_json();
  EXPECT_EQ(r["result"], json::array({std::string("a\0b", 3), "\xF0\x9F\x98\x80", "\xE2\x80\xA8"}));
}

// Each round trip (read, parse, handle, answer) at 12,500 and at 100,000 elements: 8x the
// input must take well under 64x the time (test_support::grows_linearly).
TEST_F(HostileFrames, WideArraysAndObjectsAreHandledInLinearTime) {
  int id = 0;
  EXPECT_TRUE(test_support::grows_linearly([&](std::size_t n) {
    std::string wide =
        R"({"jsonrpc":"2.0","id":)" + std::to_string(++id) + R"(,"method":"echo","params":[)";
    for (std::size_t i = 0; i < n; ++i) wide += i == 0 ? "0" : ",0";
    wide += "]}";
    peer.send(std::string_view(wide));
    EXPECT_EQ(peer.next_json()["result"].size(), n);
  }, 12500));
  EXPECT_TRUE(test_support::grows_linearly([&](std::size_t n) {
    std::string members =
        R"({"jsonrpc":"2.0","id":)" + std::to_string(++id) + R"(,"method":"echo","params":{)";
    for (std::size_t i = 0; i < n; ++i) {
      members += (i == 0 ? "\"" : ",\"") + std::to_string(i) + "\":0";
    }
    members += "}}";
    peer.send(std::string_view(members));
    EXPECT_EQ(peer.next_json()["result"].size(), n);
  }, 12500));
}

TEST_F(HostileFrames, HugeStringsAreFine) {
  std::string big(3 << 20, 'x');
  peer.send(request(1, "echo", json::array({big})));
  EXPECT_EQ(peer.next_json()["result"][0].get<std::string>().size(), big.size());
}

// A response too deep to read fails the call it names at once, instead of at its deadline.
TEST(HostileResponses, UnreadableResponseFailsItsCallNow) {
  RawPeer peer;
  peer.start();
  auto pending = std::async(std::launch::async, [&] {
    return peer->call("m", std::nullopt, std::chrono::milliseconds(60000));
  });
  const json id = peer.next_json()["id"];
  peer.send(R"({"jsonrpc":"2.0","id":)" + id.dump() + R"(,"result":)" + deep(1000) + "}");
  ASSERT_EQ(pending.wait_for(kWait), std::future_status::ready);
  CallResult result = pending.get();
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().error.message(), HasSubstr("nesting deeper than 256 levels"));
  EXPECT_TRUE(peer.diags.wait_for(Kind::kInvalidResponse));
  EXPECT_EQ(peer.diags.count(Kind::kInvalidRequest), 0u) << "a response is never answered";
  EXPECT_TRUE(peer.sync());
}

// While the handler is busy, the endpoint holds at most max_queued_bytes of frames: past
// that it stops reading, so a flood waits in the pipe (pushing back on the peer) instead of
// in memory. Nothing is lost: every request is answered once the handler frees up.
TEST(HostileFlood, QueueIsBoundedByBytesAndNothingIsLost) {
  Endpoint::Options options;
  options.max_queued_bytes = 256 * 1024;
  RawPeer peer(options);
  Gate release;
  std::atomic<int> read{0};
  peer.ep().on_frame([&](bool outgoing, std::string_view) {
    if (!outgoing) ++read;
  });
  peer.ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "block") release.wait();
    return in.params ? in.params->size() : 0;
  });
  peer.start();
  const std::string payload(100 * 1024, 'p');
  peer.send(request(0, "block"));
  constexpr int kFlood = 20;
  for (int i = 1; i <= kFlood; ++i) peer.send(request(i, "fill", json::array({payload})));
  // One frame in the handler, two fit the 256 KiB budget, one more is read and waits for
  // room: four read, sixteen still in the pipe.
  auto settled = [&] { return read.load() >= 4; };
  for (auto start = std::chrono::steady_clock::now(); !settled() && since(start) < kWait;) {
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(read.load(), 4);
  std::this_thread::sleep_for(200ms);  // a reader ignoring the budget would take them all now
  EXPECT_EQ(read.load(), 4) << "the reader kept reading past the queue budget";
  release.open();
  for (int i = 0; i <= kFlood; ++i) {
    json r = peer.next_json();
    EXPECT_EQ(r["id"], i);
    EXPECT_TRUE(r.contains("result"));
  }
  EXPECT_EQ(read.load(), kFlood + 1);
}

}  // namespace
}  // namespace rpckit::endpoint_test
