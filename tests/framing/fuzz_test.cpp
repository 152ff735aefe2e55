// Fuzz-style robustness: random bytes and mutated valid streams, fed in random chunks, must end
// in eof or a failure status: no crash, no hang, no frame breaking the limits. Fixed seeds keep
// it reproducible; the iteration counts keep it fast.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

constexpr std::size_t kMax = 64;
constexpr ReaderOptions kOptions{.chunk_bytes = 16, .max_header_bytes = 128};

// Bytes that matter to the parsers, so random input reaches deep states often.
constexpr std::string_view kAlphabet = "Content-Length: 0123456789\r\n\r\n:{}\"\\ \t\x00\xff-+";

std::string random_bytes(std::mt19937& rng, std::size_t max_size) {
  std::uniform_int_distribution<std::size_t> size(0, max_size);
  std::uniform_int_distribution<int> any_byte(0, 255);
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::bernoulli_distribution from_alphabet(0.8);
  std::string out(size(rng), '\0');
  for (char& c : out) {
    c = from_alphabet(rng) ? kAlphabet[pick(rng)] : static_cast<char>(any_byte(rng));
  }
  return out;
}

std::string valid_stream(std::mt19937& rng, Framing framing) {
  std::uniform_int_distribution<int> frames(1, 6);
  std::uniform_int_distribution<std::size_t> length(1, kMax);
  std::string out;
  for (int i = frames(rng); i > 0; --i) {
    const std::string body(length(rng), 'j');
    out += framing == Framing::kContentLength ? testing::cl_frame(body) : body + "\n";
  }
  return out;
}

// Flips, inserts, deletes or duplicates a few bytes.
std::string mutate(std::mt19937& rng, std::string s) {
  std::uniform_int_distribution<int> mutations(1, 4);
  std::uniform_int_distribution<int> kind(0, 3);
  std::uniform_int_distribution<int> any_byte(0, 255);
  for (int i = mutations(rng); i > 0 && !s.empty(); --i) {
    std::uniform_int_distribution<std::size_t> at(0, s.size() - 1);
    const std::size_t pos = at(rng);
    switch (kind(rng)) {
      case 0:
        s[pos] = static_cast<char>(any_byte(rng));
        break;
      case 1:
        s.insert(pos, 1, kAlphabet[pos % kAlphabet.size()]);
        break;
      case 2:
        s.erase(pos, 1);
        break;
      default:
        s.insert(pos, s.substr(pos, 8));
        break;
    }
  }
  return s;
}

// Reads to the end. Each ok frame consumes at least one byte of input, so more reads than
// input bytes would mean the reader is stuck.
void expect_terminates(Framing framing, const std::string& input, std::size_t chunk) {
  MemorySource source(input, chunk);
  auto reader = make_reader(framing, source, kMax, kOptions);
  for (std::size_t i = 0; i <= input.size() + 1; ++i) {
    const ReadResult result = reader->read();
    if (result.ok()) {
      ASSERT_LE(result.body.size(), kMax);
      ASSERT_TRUE(result.reason.empty());
      if (framing == Framing::kNewlineDelimited) {
        ASSERT_EQ(result.body.find('\n'), std::string::npos);
      }
      continue;
    }
    ASSERT_TRUE(result.status == ReadStatus::kEof || result.status == ReadStatus::kOversize ||
                is_malformed(result.status))
        << to_string(result.status);
    ASSERT_FALSE(result.reason.empty());
    const ReadResult again = reader->read();  // terminal states stay put
    ASSERT_EQ(again.status, result.status);
    ASSERT_LE(source.bytes_delivered(), input.size());
    return;
  }
  FAIL() << "reader did not reach eof or a failure";
}

TEST(Fuzz, RandomBytes) {
  std::mt19937 rng(20240521);
  std::uniform_int_distribution<std::size_t> chunk(1, 40);
  for (int i = 0; i < 3000; ++i) {
    const std::string input = random_bytes(rng, 300);
    for (const Framing framing : {Framing::kContentLength, Framing::kNewlineDelimited}) {
      SCOPED_TRACE(::testing::Message() << "iteration " << i << " " << to_string(framing));
      expect_terminates(framing, input, chunk(rng));
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Fuzz, MutatedValidStreams) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> chunk(1, 40);
  for (int i = 0; i < 3000; ++i) {
    for (const Framing framing : {Framing::kContentLength, Framing::kNewlineDelimited}) {
      const std::string input = mutate(rng, valid_stream(rng, framing));
      SCOPED_TRACE(::testing::Message() << "iteration " << i << " " << to_string(framing));
      expect_terminates(framing, input, chunk(rng));
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Fuzz, UnmutatedValidStreamsParseCompletely) {
  // The generator itself is sound: without mutations every stream ends in a clean eof.
  std::mt19937 rng(11);
  for (int i = 0; i < 200; ++i) {
    for (const Framing framing : {Framing::kContentLength, Framing::kNewlineDelimited}) {
      MemorySource source(valid_stream(rng, framing), 1 + static_cast<std::size_t>(i % 17));
      auto reader = make_reader(framing, source, kMax, kOptions);
      EXPECT_EQ(testing::read_all(*reader).back().status, ReadStatus::kEof);
    }
  }
}

}  // namespace
}  // namespace rpckit::framing
