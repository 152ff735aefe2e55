// The floor: Content-Length frames of the same sizes as the others' messages, with no JSON at
// all. The parent writes prebuilt frames (one write each); the child reads every frame and
// tells a ping or a "done" from an event by comparing bytes, never by parsing.
//   ping    the ping request's bytes; the child answers with the ping response's bytes
//   events  BATCH event frames, then a frame whose body is "done"; the child answers with a
//           frame whose body is the count of events since the last one, in decimal
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <stdexcept>
#include <string>

#include "wire.hpp"
#include "workload.hpp"

namespace rpckit::compare {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::string_view kDone = "done";

void end(Child& child) {
  const std::string how = finish(child);
  if (!how.empty()) throw std::runtime_error("raw: " + how);
}

std::string_view next(FrameReader& reader) {
  const std::optional<std::string_view> body = reader.next();
  if (!body) throw std::runtime_error("raw: the child closed its stdout");
  return *body;
}

PingResult ping(int count, int warmup) {
  Child child = spawn_self("raw-child");
  FrameReader reader(child.from_child);
  const std::string request = frame(kPingRequest);
  PingResult result;
  result.samples_us.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < warmup + count; ++i) {
    const auto start = Clock::now();
    write_all(child.to_child, request);
    const std::string_view reply = next(reader);
    const std::chrono::duration<double, std::micro> took = Clock::now() - start;
    if (i >= warmup) result.samples_us.push_back(took.count());
    result.response_bytes = framed_size(reply.size());
  }
  result.request_bytes = request.size();
  end(child);
  return result;
}

EventsResult events(const Event& event, const EventsRun& run) {
  const std::string bytes = frame(notification(event));
  const std::string done = frame(kDone);
  Child child = spawn_self("raw-child");
  FrameReader reader(child.from_child);
  auto batch = [&] {
    for (int i = 0; i < run.batch; ++i) write_all(child.to_child, bytes);
    write_all(child.to_child, done);
    const std::string_view ack = next(reader);
    int counted = -1;
    std::from_chars(ack.data(), ack.data() + ack.size(), counted);
    if (counted != run.batch) throw std::runtime_error("raw: the child counted " + std::string(ack));
  };
  batch();  // warm-up
  const auto start = Clock::now();
  for (int b = 0; b < run.batches; ++b) batch();
  const std::chrono::duration<double> took = Clock::now() - start;
  end(child);
  return {took.count(), bytes.size()};
}

int child() {
  FrameReader reader(STDIN_FILENO);
  const std::string pong = frame(kPingResponse);
  long events = 0;
  while (const std::optional<std::string_view> body = reader.next()) {
    if (*body == kDone) {
      write_frame(STDOUT_FILENO, std::to_string(events));
      events = 0;
    } else if (*body == kPingRequest) {
      write_all(STDOUT_FILENO, pong);
    } else {
      ++events;
    }
  }
  return 0;
}

}  // namespace

Pair raw_pair() { return {"raw", "raw-child", ping, events, child}; }

}  // namespace rpckit::compare
