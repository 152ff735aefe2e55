// rpckit::roles::connection_rules<Profile>(): the rules a generated profile gives each side,
// and an endpoint built from loaf's (NDJSON, lone-CR line ends, null ids, error data, answers
// to bad input) driven over its wire byte for byte.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "endpoint_harness.hpp"
#include "loaf_v1/profile.hpp"
#include "rpckit/framing/memory_pipe.hpp"
#include "rpckit/roles/connection_rules.hpp"
#include "streamnook_v1/profile.hpp"

namespace rpckit::endpoint_test {
namespace {

using roles::connection_rules;
using roles::ConnectionRules;
using roles::Side;
using Loaf = loaf::v1::Profile;

TEST(WireRulesProfile, LoafRulesForEachSide) {
  for (const Side side : {Side::kSpawned, Side::kSpawner}) {
    SCOPED_TRACE(side == Side::kSpawned ? "spawned" : "spawner");
    const ConnectionRules r = connection_rules<Loaf>(side);
    EXPECT_EQ(r.framing, framing::Framing::kNewlineDelimited);
    EXPECT_EQ(r.max_frame_bytes, Loaf::kMaxFrameBytes);
    EXPECT_TRUE(r.reader.split_on_cr);
    const ReceiveRules receive =
        side == Side::kSpawned ? Loaf::kSpawnedReceives : Loaf::kSpawnerReceives;
    EXPECT_EQ(r.wire.receive.not_json, receive.not_json);
    EXPECT_EQ(r.wire.receive.oversize, receive.oversize);
    EXPECT_EQ(r.wire.receive.stray_response, receive.stray_response);
    // Over-long frames are answered, so the reader must go on after one.
    EXPECT_TRUE(r.reader.resume_after_oversize);
    EXPECT_EQ(r.wire.sent_ids, IdKind::kInteger);
    EXPECT_TRUE(contains(r.wire.accepted_ids, IdKind::kNull));
    EXPECT_TRUE(r.wire.envelope.blank_method_invalid);
    EXPECT_TRUE(r.wire.envelope.invalid_request_id_null);
    EXPECT_EQ(r.wire.error_data.member, "reason");
    EXPECT_EQ(r.wire.error_data.batch, "batch_not_supported");
    EXPECT_EQ(r.wire.max_depth, Loaf::kMaxJsonDepth);
  }
  EXPECT_EQ(connection_rules<Loaf>(Side::kSpawned).wire.receive.stray_response,
            OnStrayResponse::kAnswer);
  EXPECT_EQ(connection_rules<Loaf>(Side::kSpawner).wire.receive.not_json, OnNotJson::kLog);
}

TEST(WireRulesProfile, AProfileThatClosesOnOversizeGetsAReaderThatStops) {
  using Streamnook = streamnook::v1::Profile;
  for (const Side side : {Side::kSpawned, Side::kSpawner}) {
    const ConnectionRules r = connection_rules<Streamnook>(side);
    EXPECT_EQ(r.framing, framing::Framing::kContentLength);
    EXPECT_EQ(r.wire.receive.oversize, OnOversize::kClose);
    EXPECT_FALSE(r.reader.resume_after_oversize);
    EXPECT_FALSE(r.reader.split_on_cr);
  }
}

// An endpoint with loaf's spawned-side rules over NDJSON memory pipes; the test writes bytes and
// reads back each line the endpoint writes, split here by hand.
class LoafWire {
 public:
  explicit LoafWire(std::size_t max_frame_bytes) {
    ConnectionRules rules = connection_rules<Loaf>(Side::kSpawned);
    rules.max_frame_bytes = max_frame_bytes;  // so the over-long line need not be 64 MiB
    framing::MemoryPipe in = framing::make_memory_pipe(SIZE_MAX);
    framing::MemoryPipe out = framing::make_memory_pipe();
    to_endpoint_ = std::move(in.sink);
    endpoint_in_ = std::move(in.source);
    endpoint_out_ = std::move(out.sink);
    from_endpoint_ = std::move(out.source);
    Endpoint::Options options;
    options.rules = rules.wire;
    options.interrupt_reader = [source = endpoint_in_.get()] { source->close(); };
    endpoint_ = std::make_unique<Endpoint>(rules.make_reader(*endpoint_in_),
                                           rules.make_writer(*endpoint_out_), std::move(options));
    endpoint_->set_handler([](const Incoming& message) -> json {
      if (message.method == "echo") return message.params ? *message.params : json();
      throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + message.method);
    });
    observe(*endpoint_, diags, closes);
    capture_ = std::thread([this] { capture(); });
    endpoint_->start();
  }
  ~LoafWire() {
    endpoint_.reset();
    endpoint_out_->close();
    capture_.join();
  }
  LoafWire(const LoafWire&) = delete;
  LoafWire& operator=(const LoafWire&) = delete;

  void write(const std::string& bytes) { ASSERT_FALSE(to_endpoint_->write_all(bytes)); }
  // The next line the endpoint wrote, without its LF.
  std::string next() {
    if (!lines_.wait_size(taken_ + 1)) {
      ADD_FAILURE() << "the endpoint wrote no line within " << kWait.count() << " ms";
      return {};
    }
    return lines_.items()[taken_++];
  }

  Diagnostics diags;
  Recorder<CloseReason> closes;

 private:
  void capture() {
    std::string buffer;
    char chunk[4096];
    for (;;) {
      const framing::IoResult got = from_endpoint_->read(chunk);
      if (got.bytes == 0) break;
      buffer.append(chunk, got.bytes);
      for (std::size_t lf; (lf = buffer.find('\n')) != std::string::npos;) {
        lines_.push(buffer.substr(0, lf));
        buffer.erase(0, lf + 1);
      }
    }
    if (!buffer.empty()) ADD_FAILURE() << "the endpoint left a partial line: " << buffer;
  }

  std::unique_ptr<framing::MemoryPipeSink> to_endpoint_;
  std::unique_ptr<framing::MemoryPipeSource> endpoint_in_;
  std::unique_ptr<framing::MemoryPipeSink> endpoint_out_;
  std::unique_ptr<framing::MemoryPipeSource> from_endpoint_;
  std::unique_ptr<Endpoint> endpoint_;
  Recorder<std::string> lines_;
  std::size_t taken_ = 0;
  std::thread capture_;
};

std::string invalid_with_reason(const std::string& why, const std::string& reason = "invalid_request") {
  return R"({"error":{"code":-32600,"data":{"reason":")" + reason +
         R"("},"message":"Invalid Request: )" + why + R"("},"id":null,"jsonrpc":"2.0"})";
}

TEST(WireRulesProfile, LoafSpawnedSideOnTheWire) {
  LoafWire wire(200);
  // A lone CR ends a line (the next byte shows it is not a CRLF). A null id is a request,
  // answered with null; blank lines between are skipped.
  wire.write(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}})"
             "\r  \r\n\r" R"({"jsonrpc":"2.0","id":null,"method":"echo","params":{}})" "\r\n");
  EXPECT_EQ(wire.next(), R"({"id":1,"jsonrpc":"2.0","result":{"a":1}})");
  EXPECT_EQ(wire.next(), R"({"id":null,"jsonrpc":"2.0","result":{}})");
  // An over-long line is answered -32600 (null id, reason) and the next line is read.
  wire.write(std::string(300, 'x') + "\n");
  EXPECT_EQ(wire.next(),
            invalid_with_reason("frame too large: line of 300 bytes exceeds the 200-byte limit"));
  wire.write("[1]\n");
  EXPECT_EQ(wire.next(), invalid_with_reason("batches not supported", "batch_not_supported"));
  // A blank method is invalid, and the answer's id is null though the request's was 7.
  wire.write(R"({"jsonrpc":"2.0","id":7,"method":"  "})" "\n");
  EXPECT_EQ(wire.next(), invalid_with_reason("method is blank"));
  // A response sent to the side that sends no requests is answered.
  wire.write(R"({"jsonrpc":"2.0","id":8,"result":1})" "\n");
  EXPECT_EQ(wire.next(), invalid_with_reason("a response sent to this side"));
  // A handler's error without data gets its reason.
  wire.write(R"({"jsonrpc":"2.0","id":9,"method":"nope"})" "\n");
  EXPECT_EQ(
      wire.next(),
      R"({"error":{"code":-32601,"data":{"reason":"method_not_found"},"message":"Method not found: nope"},"id":9,"jsonrpc":"2.0"})");
  EXPECT_TRUE(wire.closes.items().empty());
}

TEST(WireRulesProfile, LoafAnswersALineEndedByALoneCrWithoutWaitingForMore) {
  LoafWire wire(200);
  wire.write(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}})" "\r");
  EXPECT_EQ(wire.next(), R"({"id":1,"jsonrpc":"2.0","result":{"a":1}})");
}

}  // namespace
}  // namespace rpckit::endpoint_test
