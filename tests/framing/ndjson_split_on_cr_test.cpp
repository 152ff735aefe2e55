// NdjsonReader with ReaderOptions::split_on_cr (a profile's "line_breaks": "any"): LF, CRLF and
// a lone CR each end a line, wherever the reads split them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "resume_support.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using testing::describe;
using testing::describe_all;
using testing::outline;
using testing::read_through;
using testing::ScriptedSource;
using Texts = std::vector<std::string>;

constexpr std::size_t kMax = 1024;

// blank_lines: deliver blank lines as empty bodies, so a line end counted twice (a CRLF split
// into a CR and an LF) shows as an extra "" instead of being skipped unseen.
ReaderOptions any_breaks(bool blank_lines = false, bool resume = false) {
  ReaderOptions options;
  options.split_on_cr = true;
  options.deliver_blank_lines = blank_lines;
  options.resume_after_oversize = resume;
  return options;
}

Texts read_pieces(std::vector<std::string> pieces, ReaderOptions options,
                  std::size_t max = kMax) {
  ScriptedSource source(std::move(pieces));
  NdjsonReader reader(source, max, options);
  return describe_all(read_through(reader));
}

Texts read_chunked(const std::string& input, std::size_t piece, ReaderOptions options,
                   std::size_t max = kMax) {
  MemorySource source(input, piece);
  NdjsonReader reader(source, max, options);
  return describe_all(read_through(reader));
}

TEST(NdjsonSplitOnCr, LfCrLfAndLoneCrEachEndALine) {
  const std::string input = "{1}\n{2}\r\n{3}\r{4}\n";
  const Texts expected = {"ok:{1}", "ok:{2}", "ok:{3}", "ok:{4}", "eof:end of stream"};
  EXPECT_EQ(read_chunked(input, 0, any_breaks()), expected);
  EXPECT_EQ(read_chunked(input, 0, any_breaks(/*blank_lines=*/true)), expected);
}

TEST(NdjsonSplitOnCr, WithoutTheOptionALoneCrIsContent) {
  MemorySource source("{1}\r{2}\n");
  NdjsonReader reader(source, kMax);
  EXPECT_EQ(describe_all(read_through(reader)), (Texts{"ok:{1}\r{2}", "eof:end of stream"}));
}

TEST(NdjsonSplitOnCr, CrAtTheEndOfOneReadAndLfAtTheStartOfTheNextAreOneLineEnd) {
  EXPECT_EQ(read_pieces({"{1}\r", "\n{2}\n"}, any_breaks(/*blank_lines=*/true)),
            (Texts{"ok:{1}", "ok:{2}", "eof:end of stream"}));
  // A CR, then a CRLF: two line ends, the second line empty.
  EXPECT_EQ(read_pieces({"{1}\r", "\r", "\n{2}\n"}, any_breaks(/*blank_lines=*/true)),
            (Texts{"ok:{1}", "ok:", "ok:{2}", "eof:end of stream"}));
}

TEST(NdjsonSplitOnCr, CrAtTheEndOfOneReadAndAnythingElseNextIsALoneCr) {
  EXPECT_EQ(read_pieces({"{1}\r", "{2}\n"}, any_breaks(/*blank_lines=*/true)),
            (Texts{"ok:{1}", "ok:{2}", "eof:end of stream"}));
}

TEST(NdjsonSplitOnCr, CrAtTheEndOfTheStreamEndsTheLastLine) {
  EXPECT_EQ(read_chunked("{1}\r", 0, any_breaks()), (Texts{"ok:{1}", "eof:end of stream"}));
  EXPECT_EQ(read_pieces({"{1}", "\r"}, any_breaks()), (Texts{"ok:{1}", "eof:end of stream"}));
  EXPECT_EQ(read_chunked("{1}\r{2}\r", 0, any_breaks()),
            (Texts{"ok:{1}", "ok:{2}", "eof:end of stream"}));
  // Without a line end the last line is still truncated, as with LF only.
  EXPECT_EQ(read_chunked("{1}\r{2}", 0, any_breaks()),
            (Texts{"ok:{1}",
                   "truncated-body:stream ended inside a line after 3 bytes without a newline"}));
}

TEST(NdjsonSplitOnCr, BlankLinesBetween) {
  const std::string input = "\r\r\n\n\r{1}\r\r{2}\n";
  EXPECT_EQ(read_chunked(input, 0, any_breaks()),
            (Texts{"ok:{1}", "ok:{2}", "eof:end of stream"}));
  // CR, CRLF, LF, CR: four empty lines before {1}; one CR-ended empty line after it.
  EXPECT_EQ(read_chunked(input, 0, any_breaks(/*blank_lines=*/true)),
            (Texts{"ok:", "ok:", "ok:", "ok:", "ok:{1}", "ok:", "ok:{2}", "eof:end of stream"}));
}

TEST(NdjsonSplitOnCr, EveryChunkingGivesTheSameLines) {
  const std::string input = "\r\r\n\n\r{1}\r\r{2}\n{3}\r\n{4}\r{5}\r";
  for (const bool blank_lines : {false, true}) {
    const Texts whole = read_chunked(input, 0, any_breaks(blank_lines));
    for (std::size_t piece = 1; piece <= input.size(); ++piece) {
      SCOPED_TRACE("piece " + std::to_string(piece) + (blank_lines ? ", blank lines" : ""));
      EXPECT_EQ(read_chunked(input, piece, any_breaks(blank_lines)), whole);
    }
  }
  EXPECT_EQ(read_chunked(input, 0, any_breaks()),
            (Texts{"ok:{1}", "ok:{2}", "ok:{3}", "ok:{4}", "ok:{5}", "eof:end of stream"}));
}

TEST(NdjsonSplitOnCr, ALineAtTheLimitEndedByALoneCr) {
  const std::string ten(10, 'x');
  for (std::size_t piece = 0; piece <= 16; ++piece) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    EXPECT_EQ(read_chunked(ten + "\r{2}\r", piece, any_breaks(), 10),
              (Texts{"ok:" + ten, "ok:{2}", "eof:end of stream"}));
    // One over, ended by CRLF.
    EXPECT_EQ(outline([&] {
                MemorySource source(std::string(11, 'x') + "\r\n{2}\n", piece);
                NdjsonReader reader(source, 10, any_breaks(false, /*resume=*/true));
                return read_through(reader);
              }()),
              (Texts{"oversize", "ok:{2}", "eof"}));
  }
}

TEST(NdjsonSplitOnCr, OverlongLineEndedByCrLfSplitAcrossReadsIsSkippedOnce) {
  EXPECT_EQ(outline([] {
              ScriptedSource source({std::string(20, 'x') + "\r", "\n{2}\n"});
              NdjsonReader reader(source, 10, any_breaks(false, /*resume=*/true));
              return read_through(reader);
            }()),
            (Texts{"oversize", "ok:{2}", "eof"}));
}

TEST(NdjsonSplitOnCr, OverlongLineEndedByALoneCrAtTheEndOfAReadKeepsTheNextLine) {
  EXPECT_EQ(outline([] {
              ScriptedSource source({std::string(20, 'x') + "\r", "{2}\r"});
              NdjsonReader reader(source, 10, any_breaks(false, /*resume=*/true));
              return read_through(reader);
            }()),
            (Texts{"oversize", "ok:{2}", "eof"}));
  EXPECT_EQ(outline([] {
              ScriptedSource source({std::string(20, 'x') + "\r", "{2}\n{3}\n"});
              NdjsonReader reader(source, 10, any_breaks(false, /*resume=*/true));
              return read_through(reader);
            }()),
            (Texts{"oversize", "ok:{2}", "ok:{3}", "eof"}));
  // The same whenever a read ends just after that CR: eleven bytes and a lone CR, max 10.
  for (std::size_t piece = 1; piece <= 16; ++piece) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    EXPECT_EQ(outline([&] {
                MemorySource source(std::string(11, 'x') + "\r{2}\n", piece);
                NdjsonReader reader(source, 10, any_breaks(false, /*resume=*/true));
                return read_through(reader);
              }()),
              (Texts{"oversize", "ok:{2}", "eof"}));
  }
}

TEST(NdjsonSplitOnCr, ALineEndedByALoneCrIsDeliveredWithoutAnotherRead) {
  ScriptedSource source({"{1}\r"}, /*fail_past_end=*/true);
  NdjsonReader reader(source, kMax, any_breaks());
  const ReadResult first = reader.read();
  EXPECT_EQ(describe(first), "ok:{1}");
  EXPECT_EQ(source.read_calls(), 1u);
}

}  // namespace
}  // namespace rpckit::framing
