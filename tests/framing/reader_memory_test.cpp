// What a reader skipping an over-long frame holds in memory, measured on the heap: this
// executable replaces the global operator new/delete to count the live bytes allocated on the
// test's thread while a reader runs. (Its own executable: the replacement is process-wide.
// Under a sanitizer, which brings its own allocator, the measurement is skipped.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <span>
#include <string>

#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "sanitizers.hpp"

namespace {

// Counts only what the measuring thread allocates while measuring; each block carries its
// size and whether it was counted, so frees of other blocks change nothing.
thread_local bool t_measuring = false;
thread_local std::size_t t_live = 0;
thread_local std::size_t t_peak = 0;

struct Header {
  std::size_t size;
  bool counted;
};
constexpr std::size_t kHeaderBytes = 2 * alignof(std::max_align_t);  // keeps the alignment
static_assert(sizeof(Header) <= kHeaderBytes);

class Measure {
 public:
  Measure() {
    t_live = t_peak = 0;
    t_measuring = true;
  }
  ~Measure() { t_measuring = false; }
  std::size_t peak() const { return t_peak; }
};

}  // namespace

#ifndef RPCKIT_SANITIZED
void* operator new(std::size_t size) {
  void* block = std::malloc(size + kHeaderBytes);
  if (block == nullptr) throw std::bad_alloc();
  auto* header = static_cast<Header*>(block);
  header->size = size;
  header->counted = t_measuring;
  if (t_measuring) {
    t_live += size;
    t_peak = std::max(t_peak, t_live);
  }
  return static_cast<char*>(block) + kHeaderBytes;
}
void operator delete(void* pointer) noexcept {
  if (pointer == nullptr) return;
  void* block = static_cast<char*>(pointer) - kHeaderBytes;
  const auto* header = static_cast<Header*>(block);
  if (header->counted) t_live -= std::min(t_live, header->size);
  std::free(block);
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete[](void* pointer) noexcept { operator delete(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { operator delete(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { operator delete(pointer); }
#endif

namespace rpckit::framing {
namespace {

// "{1}\n", then `line_bytes` of 'x' and its newline, then "{2}\n"; made up as it is read, so
// the source allocates nothing.
class LongLineSource final : public ByteSource {
 public:
  LongLineSource(std::string_view before, std::size_t line_bytes, std::string_view after)
      : before_(before), line_bytes_(line_bytes), after_(after) {}

  IoResult read(std::span<char> buffer) override {
    std::size_t n = 0;
    const std::size_t total = before_.size() + line_bytes_ + after_.size();
    while (n < buffer.size() && offset_ < total) {
      if (offset_ < before_.size()) {
        buffer[n] = before_[offset_];
      } else if (offset_ < before_.size() + line_bytes_) {
        buffer[n] = 'x';
      } else {
        buffer[n] = after_[offset_ - before_.size() - line_bytes_];
      }
      ++n;
      ++offset_;
    }
    return {n, {}};
  }

 private:
  std::string_view before_;
  std::size_t line_bytes_;
  std::string_view after_;
  std::size_t offset_ = 0;
};

constexpr std::size_t kMax = 1000;
constexpr std::size_t kChunk = 64;
[[maybe_unused]] constexpr std::size_t kLine = std::size_t{4} << 20;  // 4000 times the limit
// The reader's buffer is a std::vector: growing it may double its capacity, and the old block
// lives until the new one is filled, so the heap may hold up to about three times
// max + 1 + chunk, plus the small strings of the results. Anything that kept the line would
// hold megabytes.
[[maybe_unused]] constexpr std::size_t kBound = 3 * (kMax + 1 + kChunk) + 1024;

TEST(ReaderMemory, NdjsonSkippingAnOverlongLineHoldsAboutTheLimit) {
#ifdef RPCKIT_SANITIZED
  GTEST_SKIP() << "the heap is the sanitizer's";
#else
  LongLineSource source("{1}\n", kLine, "\n{2}\n");
  ReaderOptions options;
  options.chunk_bytes = kChunk;
  options.resume_after_oversize = true;
  ReadStatus statuses[4];
  std::size_t peak = 0;
  {
    Measure measure;
    NdjsonReader reader(source, kMax, options);
    for (ReadStatus& status : statuses) status = reader.read().status;
    peak = measure.peak();
  }
  EXPECT_EQ(statuses[0], ReadStatus::kOk);
  EXPECT_EQ(statuses[1], ReadStatus::kOversize);
  EXPECT_EQ(statuses[2], ReadStatus::kOk);
  EXPECT_EQ(statuses[3], ReadStatus::kEof);
  EXPECT_LE(peak, kBound);
  RecordProperty("peak_heap_bytes", std::to_string(peak));
  std::printf("peak heap while skipping a %zu-byte line (max %zu, chunk %zu): %zu bytes\n", kLine,
              kMax, kChunk, peak);
#endif
}

TEST(ReaderMemory, ContentLengthSkippingAnOverlongBodyHoldsAChunk) {
#ifdef RPCKIT_SANITIZED
  GTEST_SKIP() << "the heap is the sanitizer's";
#else
  const std::string header = "Content-Length: " + std::to_string(kLine) + "\r\n\r\n";
  LongLineSource source(header, kLine, "Content-Length: 3\r\n\r\n{2}");
  ReaderOptions options;
  options.chunk_bytes = kChunk;
  options.resume_after_oversize = true;
  ReadStatus statuses[3];
  std::size_t peak = 0;
  {
    Measure measure;
    ContentLengthReader reader(source, kMax, options);
    for (ReadStatus& status : statuses) status = reader.read().status;
    peak = measure.peak();
  }
  EXPECT_EQ(statuses[0], ReadStatus::kOversize);
  EXPECT_EQ(statuses[1], ReadStatus::kOk);
  EXPECT_EQ(statuses[2], ReadStatus::kEof);
  EXPECT_LE(peak, kChunk + 1024);
  std::printf("peak heap while skipping a %zu-byte body (chunk %zu): %zu bytes\n", kLine, kChunk,
              peak);
#endif
}

TEST(ReaderMemory, TheMeasureSeesALineThatIsKept) {
  // The same measure on a reader that must keep the line (it is within the limit): megabytes.
#ifdef RPCKIT_SANITIZED
  GTEST_SKIP() << "the heap is the sanitizer's";
#else
  LongLineSource source("", kLine, "\n");
  std::size_t peak = 0;
  {
    Measure measure;
    NdjsonReader reader(source, kLine, ReaderOptions{.chunk_bytes = kChunk});
    const ReadResult line = reader.read();
    EXPECT_EQ(line.body.size(), kLine);
    peak = measure.peak();
  }
  EXPECT_GE(peak, kLine);
#endif
}

}  // namespace
}  // namespace rpckit::framing
