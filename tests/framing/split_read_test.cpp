// The same multi-frame stream must parse identically however the reads cut it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using testing::bodies_of;
using testing::kProtocolMax;
using testing::read_all;
using testing::ScriptedSource;

const std::vector<std::string> kBodies = {
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})",
    "",  // Content-Length only; NDJSON cannot carry it
    "{\"s\":\"\xC3\xA9\xE2\x9C\x93\xF0\x9F\x98\x80\"}",
    R"({"jsonrpc":"2.0","method":"event","params":{"text":"a\nb"}})",
    "[1]",
};

std::string content_length_stream() {
  std::string out;
  for (const std::string& body : kBodies) out += testing::cl_frame(body);
  // Same rules with extra headers in other cases.
  out += "content-type: application/json\r\nCONTENT-LENGTH:  4 \r\n\r\nnull";
  return out;
}

std::vector<std::string> content_length_bodies() {
  std::vector<std::string> bodies = kBodies;
  bodies.push_back("null");
  return bodies;
}

std::string ndjson_stream() {
  std::string out;
  for (const std::string& body : kBodies) {
    if (!body.empty()) out += body + "\n";
  }
  return out + "\r\n\nnull\r\n";
}

std::vector<std::string> ndjson_bodies() {
  std::vector<std::string> bodies;
  for (const std::string& body : kBodies) {
    if (!body.empty()) bodies.push_back(body);
  }
  bodies.push_back("null");
  return bodies;
}

struct Case {
  Framing framing;
  std::string stream;
  std::vector<std::string> bodies;
};

std::vector<Case> cases() {
  return {{Framing::kContentLength, content_length_stream(), content_length_bodies()},
          {Framing::kNewlineDelimited, ndjson_stream(), ndjson_bodies()}};
}

void expect_parses(Framing framing, ByteSource& source, const std::vector<std::string>& bodies,
                   ReaderOptions options = {}) {
  auto reader = make_reader(framing, source, kProtocolMax, options);
  const auto results = read_all(*reader);
  EXPECT_EQ(bodies_of(results), bodies);
  EXPECT_EQ(results.back().status, ReadStatus::kEof) << results.back().reason;
}

TEST(SplitReads, EveryChunkSize) {
  for (const Case& c : cases()) {
    for (std::size_t chunk = 1; chunk <= c.stream.size(); ++chunk) {
      SCOPED_TRACE(std::string(to_string(c.framing)) + " chunk " + std::to_string(chunk));
      MemorySource source(c.stream, chunk);
      expect_parses(c.framing, source, c.bodies);
    }
  }
}

TEST(SplitReads, EverySplitPoint) {
  for (const Case& c : cases()) {
    for (std::size_t at = 0; at <= c.stream.size(); ++at) {
      SCOPED_TRACE(std::string(to_string(c.framing)) + " split at " + std::to_string(at));
      ScriptedSource source({c.stream.substr(0, at), c.stream.substr(at)});
      expect_parses(c.framing, source, c.bodies);
    }
  }
}

TEST(SplitReads, EveryChunkSizeWithSmallReaderBuffers) {
  // Small reader chunks move the buffer boundaries and send long bodies down the direct path.
  for (const Case& c : cases()) {
    for (const std::size_t reader_chunk : {1u, 2u, 5u, 16u}) {
      for (std::size_t chunk = 1; chunk <= c.stream.size(); chunk += 3) {
        SCOPED_TRACE(std::string(to_string(c.framing)) + " reader chunk " +
                     std::to_string(reader_chunk) + " source chunk " + std::to_string(chunk));
        MemorySource source(c.stream, chunk);
        expect_parses(c.framing, source, c.bodies, ReaderOptions{.chunk_bytes = reader_chunk});
      }
    }
  }
}

TEST(SplitReads, WholeStreamInOneRead) {
  for (const Case& c : cases()) {
    MemorySource source(c.stream);
    expect_parses(c.framing, source, c.bodies);
    EXPECT_EQ(source.read_calls(), 2u);
  }
}

}  // namespace
}  // namespace rpckit::framing
