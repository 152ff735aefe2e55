// Test harness for rpckit::Endpoint.
//
// - Recorder / Gate: thread-safe records and one-shot gates with bounded waits, so tests wait
//   for conditions instead of sleeping, and a bug fails a test instead of hanging it.
// - MemorySide / MemoryPair: endpoints over framing::make_memory_pipe, two wired together.
// - FdSide: an endpoint over file descriptors (pipe(2), socketpair), interruptible reader.
// - RawPeer: drives one endpoint with hand-written bytes and captures the exact frames it
//   writes, parsed by hand here (independently of the framing library under the endpoint).
#pragma once

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "gate.hpp"
#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/content_length_writer.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/framing/memory_pipe.hpp"

namespace rpckit::endpoint_test {

using json = nlohmann::json;
using namespace std::chrono_literals;
using Kind = Diagnostic::Kind;

inline constexpr std::size_t kMaxBody = 4 * 1024 * 1024;  // StreamNook's limit
// Bound on every wait for something that must happen: generous (tsan, loaded machines) but
// finite, so a bug fails the test rather than hanging it.
inline constexpr std::chrono::milliseconds kWait{10000};
// "Promptly": well under kWait, far over what the operation needs.
inline constexpr std::chrono::milliseconds kPrompt{3000};

inline std::string cl_frame(std::string_view body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

inline std::chrono::milliseconds since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start);
}

// Items pushed from any thread; waits are bounded.
template <class T>
class Recorder {
 public:
  // Notifies under the lock: a waiter that sees the item may destroy the
  // recorder at once, so push must be done with it before the lock is free.
  void push(T item) {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(item));
    changed_.notify_all();
  }
  std::vector<T> items() const {
    std::lock_guard lock(mutex_);
    return items_;
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return items_.size();
  }
  // True once pred(items) holds; false if it still does not after `limit`.
  template <class Pred>
  bool wait_until(Pred pred, std::chrono::milliseconds limit = kWait) const {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return pred(items_); });
  }
  bool wait_size(std::size_t n, std::chrono::milliseconds limit = kWait) const {
    return wait_until([n](const std::vector<T>& items) { return items.size() >= n; }, limit);
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<T> items_;
};

class Diagnostics : public Recorder<Diagnostic> {
 public:
  std::size_t count(Kind kind) const {
    auto all = items();
    return static_cast<std::size_t>(
        std::count_if(all.begin(), all.end(), [kind](const Diagnostic& d) { return d.kind == kind; }));
  }
  bool wait_for(Kind kind, std::size_t n = 1) const {
    return wait_until([&](const std::vector<Diagnostic>& all) {
      return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [kind](const Diagnostic& d) {
               return d.kind == kind;
             })) >= n;
    });
  }
  std::string dump() const {
    std::string out;
    for (const Diagnostic& d : items()) {
      out += std::to_string(static_cast<int>(d.kind)) + ": " + d.detail + "\n";
    }
    return out;
  }
};

// A one-shot gate: wait() blocks (bounded, kWait by default) until open().
using rpckit_test::Gate;

// Attaches the recorders every side has.
inline void observe(Endpoint& endpoint, Diagnostics& diags, Recorder<CloseReason>& closes) {
  endpoint.on_diagnostic([&diags](const Diagnostic& d) { diags.push(d); });
  endpoint.on_close([&closes](const CloseReason& r) { closes.push(r); });
}

// ---- in-memory endpoints ---------------------------------------------------------------

// One endpoint that reads `in` and writes `out` (Content-Length framing). The interrupt is the
// source's close(), so destroying the side never waits for the peer.
class MemorySide {
 public:
  MemorySide(std::unique_ptr<framing::MemoryPipeSource> in,
             std::unique_ptr<framing::MemoryPipeSink> out, Endpoint::Options options = {},
             std::size_t max_body = kMaxBody)
      : in_(std::move(in)), out_(std::move(out)) {
    if (!options.interrupt_reader) {
      options.interrupt_reader = [source = in_.get()] { source->close(); };
    }
    endpoint_ = std::make_unique<Endpoint>(
        std::make_unique<framing::ContentLengthReader>(*in_, max_body),
        std::make_unique<framing::ContentLengthWriter>(*out_, max_body), std::move(options));
    observe(*endpoint_, diags, closes);
  }
  ~MemorySide() {
    endpoint_.reset();
    out_->close();
  }
  MemorySide(const MemorySide&) = delete;
  MemorySide& operator=(const MemorySide&) = delete;

  Endpoint& ep() { return *endpoint_; }
  Endpoint* operator->() { return endpoint_.get(); }
  // The peer reads EOF once it has drained what was written.
  void close_output() { out_->close(); }
  // Destroys the endpoint now (close + join), then ends the output.
  void destroy() {
    endpoint_.reset();
    out_->close();
  }

  Diagnostics diags;
  Recorder<CloseReason> closes;

 private:
  std::unique_ptr<framing::MemoryPipeSource> in_;
  std::unique_ptr<framing::MemoryPipeSink> out_;
  std::unique_ptr<Endpoint> endpoint_;
};

// Two endpoints wired together: a writes to b, b writes to a.
struct MemoryPair {
  explicit MemoryPair(Endpoint::Options a_options = {}, Endpoint::Options b_options = {},
                      std::size_t capacity = framing::kDefaultPipeCapacity) {
    framing::MemoryPipe a_to_b = framing::make_memory_pipe(capacity);
    framing::MemoryPipe b_to_a = framing::make_memory_pipe(capacity);
    a = std::make_unique<MemorySide>(std::move(b_to_a.source), std::move(a_to_b.sink),
                                     std::move(a_options));
    b = std::make_unique<MemorySide>(std::move(a_to_b.source), std::move(b_to_a.sink),
                                     std::move(b_options));
  }
  void start() {
    a->ep().start();
    b->ep().start();
  }
  std::unique_ptr<MemorySide> a;
  std::unique_ptr<MemorySide> b;
};

// ---- file-descriptor endpoints ---------------------------------------------------------

// An endpoint over descriptors it owns: reads in_fd (through an InterruptibleFdSource, the
// interrupt_reader), writes out_fd. in_fd == out_fd for a socket.
class FdSide {
 public:
  FdSide(int in_fd, int out_fd, Endpoint::Options options = {}, std::size_t max_body = kMaxBody)
      : in_fd_(in_fd), out_fd_(out_fd), source_(in_fd), sink_(out_fd) {
    if (!options.interrupt_reader) {
      options.interrupt_reader = [this] { source_.interrupt(); };
    }
    endpoint_ = std::make_unique<Endpoint>(
        std::make_unique<framing::ContentLengthReader>(source_, max_body),
        std::make_unique<framing::ContentLengthWriter>(sink_, max_body), std::move(options));
    observe(*endpoint_, diags, closes);
  }
  ~FdSide() {
    endpoint_.reset();
    if (in_fd_ >= 0) ::close(in_fd_);
    if (out_fd_ >= 0 && out_fd_ != in_fd_) ::close(out_fd_);
  }
  FdSide(const FdSide&) = delete;
  FdSide& operator=(const FdSide&) = delete;

  Endpoint& ep() { return *endpoint_; }
  Endpoint* operator->() { return endpoint_.get(); }
  // The peer reads EOF: close a pipe's write end, shut a socket's write side down.
  void close_output() {
    if (out_fd_ == in_fd_) {
      ::shutdown(out_fd_, SHUT_WR);
    } else if (out_fd_ >= 0) {
      ::close(out_fd_);
      out_fd_ = -1;
    }
  }

  Diagnostics diags;
  Recorder<CloseReason> closes;

 private:
  int in_fd_;
  int out_fd_;
  framing::InterruptibleFdSource source_;
  framing::FdSink sink_;
  std::unique_ptr<Endpoint> endpoint_;
};

// ---- raw wire ---------------------------------------------------------------------------

// One endpoint under test; the test writes its input byte for byte and reads back every frame
// it writes, header included. Frames are split here by hand: the endpoint's writer must emit
// exactly `Content-Length: N\r\n\r\n` + N bytes.
class RawPeer {
 public:
  struct Frame {
    std::string raw;   // header + body, exactly as written
    std::string body;
    json parsed() const { return json::parse(body, nullptr, false); }
  };

  explicit RawPeer(Endpoint::Options options = {}, std::size_t max_body = kMaxBody,
                   framing::ReaderOptions reader_options = {}) {
    framing::MemoryPipe in = framing::make_memory_pipe(SIZE_MAX);  // test writes never block
    framing::MemoryPipe out = framing::make_memory_pipe();
    to_endpoint_ = std::move(in.sink);
    endpoint_in_ = std::move(in.source);
    endpoint_out_ = std::move(out.sink);
    from_endpoint_ = std::move(out.source);
    if (!options.interrupt_reader) {
      options.interrupt_reader = [source = endpoint_in_.get()] { source->close(); };
    }
    endpoint_ = std::make_unique<Endpoint>(
        std::make_unique<framing::ContentLengthReader>(*endpoint_in_, max_body, reader_options),
        std::make_unique<framing::ContentLengthWriter>(*endpoint_out_, max_body),
        std::move(options));
    observe(*endpoint_, diags, closes);
    capture_ = std::thread([this] { capture_loop(); });
  }
  ~RawPeer() {
    endpoint_.reset();
    endpoint_out_->close();
    capture_.join();
  }
  RawPeer(const RawPeer&) = delete;
  RawPeer& operator=(const RawPeer&) = delete;

  Endpoint& ep() { return *endpoint_; }
  Endpoint* operator->() { return endpoint_.get(); }
  void start() { endpoint_->start(); }
  void destroy_endpoint() { endpoint_.reset(); }
  // Ends what the endpoint writes (after destroy_endpoint(): every frame it wrote is then
  // captured once wait_output_end() returns true).
  void end_output() { endpoint_out_->close(); }

  void write_raw(std::string_view bytes) {
    std::error_code error = to_endpoint_->write_all(bytes);
    ASSERT_FALSE(error) << error.message();
  }
  void send(std::string_view body) { write_raw(cl_frame(body)); }
  void send(const char* body) { send(std::string_view(body)); }
  void send(const std::string& body) { send(std::string_view(body)); }
  void send(const json& message) { send(message.dump()); }
  void close_input() { to_endpoint_->close(); }

  // The next frame the endpoint wrote; nullopt (and a failure) when none comes within limit.
  std::optional<Frame> next(std::chrono::milliseconds limit = kWait) {
    if (!frames_.wait_size(taken_ + 1, limit)) return std::nullopt;
    return frames_.items()[taken_++];
  }
  // The next n frames, taken together with one copy of the record (for floods); empty (and
  // a failure) when they do not all come within limit.
  std::vector<Frame> next_n(std::size_t n, std::chrono::milliseconds limit = kWait) {
    if (!frames_.wait_size(taken_ + n, limit)) {
      ADD_FAILURE() << "the endpoint wrote " << frames_.size() - taken_ << " of " << n
                    << " frames within " << limit.count() << " ms";
      return {};
    }
    std::vector<Frame> all = frames_.items();
    std::vector<Frame> out(all.begin() + static_cast<std::ptrdiff_t>(taken_),
                           all.begin() + static_cast<std::ptrdiff_t>(taken_ + n));
    taken_ += n;
    return out;
  }
  json next_json() {
    std::optional<Frame> frame = next();
    if (!frame) {
      ADD_FAILURE() << "the endpoint wrote no frame within " << kWait.count() << " ms";
      return json();
    }
    json parsed = frame->parsed();
    EXPECT_FALSE(parsed.is_discarded()) << "endpoint wrote invalid JSON: " << frame->body;
    return parsed;
  }
  std::string next_body() {
    std::optional<Frame> frame = next();
    if (!frame) {
      ADD_FAILURE() << "the endpoint wrote no frame within " << kWait.count() << " ms";
      return {};
    }
    return frame->body;
  }
  // Sends a request with a fresh string id and checks that the very next frame answers it.
  // Messages are handled in order and answered by one dispatcher, so anything the endpoint
  // would have written for earlier input (e.g. a wrong response to a notification) comes
  // first: this proves "nothing was written" without sleeping.
  ::testing::AssertionResult sync() {
    std::string id = "sync-" + std::to_string(++syncs_);
    send(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "rpckit.test.sync"}});
    std::optional<Frame> frame = next();
    if (!frame) return ::testing::AssertionFailure() << "no answer to " << id;
    json parsed = frame->parsed();
    if (parsed.is_discarded() || !parsed.is_object() || parsed.value("id", json()) != id) {
      return ::testing::AssertionFailure() << "expected the answer to " << id << ", got "
                                          << frame->body;
    }
    return ::testing::AssertionSuccess();
  }
  // Frames written so far that nobody took with next().
  std::size_t untaken() const { return frames_.size() - taken_; }
  // True once the endpoint's output ended (its writer closed and the capture saw EOF).
  bool wait_output_end(std::chrono::milliseconds limit = kWait) {
    return output_end_.wait(limit);
  }

  Diagnostics diags;
  Recorder<CloseReason> closes;

 private:
  void capture_loop() {
    std::string buffer;
    char chunk[4096];
    for (;;) {
      framing::IoResult got = from_endpoint_->read(chunk);
      if (got.bytes == 0) break;
      buffer.append(chunk, got.bytes);
      for (;;) {
        std::size_t end = buffer.find("\r\n\r\n");
        if (end == std::string::npos) break;
        std::string header = buffer.substr(0, end);
        constexpr std::string_view kPrefix = "Content-Length: ";
        if (header.rfind(kPrefix, 0) != 0 ||
            header.find_first_not_of("0123456789", kPrefix.size()) != std::string::npos ||
            header.size() == kPrefix.size()) {
          ADD_FAILURE() << "endpoint wrote an unexpected header: " << header;
          output_end_.open();
          return;
        }
        std::size_t length = std::stoul(header.substr(kPrefix.size()));
        if (buffer.size() < end + 4 + length) break;
        Frame frame;
        frame.raw = buffer.substr(0, end + 4 + length);
        frame.body = buffer.substr(end + 4, length);
        buffer.erase(0, end + 4 + length);
        frames_.push(std::move(frame));
      }
    }
    if (!buffer.empty()) ADD_FAILURE() << "endpoint left a partial frame: " << buffer;
    output_end_.open();
  }

  std::unique_ptr<framing::MemoryPipeSink> to_endpoint_;
  std::unique_ptr<framing::MemoryPipeSource> endpoint_in_;
  std::unique_ptr<framing::MemoryPipeSink> endpoint_out_;
  std::unique_ptr<framing::MemoryPipeSource> from_endpoint_;
  std::unique_ptr<Endpoint> endpoint_;
  Recorder<Frame> frames_;
  std::size_t taken_ = 0;
  int syncs_ = 0;
  Gate output_end_;
  std::thread capture_;
};

// A request / notification / response envelope, for hand-written frames.
inline json request(json id, std::string method, std::optional<json> params = std::nullopt) {
  json j = {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", std::move(method)}};
  if (params) j["params"] = std::move(*params);
  return j;
}
inline json notification(std::string method, std::optional<json> params = std::nullopt) {
  json j = {{"jsonrpc", "2.0"}, {"method", std::move(method)}};
  if (params) j["params"] = std::move(*params);
  return j;
}
inline json result_response(json id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"result", std::move(result)}};
}

// A handler for the common test methods: "add" {a,b} -> a+b, "echo" -> params, "fail.rpc"
// throws RpcError(params.code, params.message, params.data), "fail.std" throws
// std::runtime_error; anything else is -32601.
inline json basic_handler(const Incoming& in) {
  const json params = in.params ? *in.params : json();
  if (in.method == "add") return params.at("a").get<std::int64_t>() + params.at("b").get<std::int64_t>();
  if (in.method == "echo") return params;
  if (in.method == "fail.rpc") {
    std::optional<json> data;
    if (params.contains("data")) data = params["data"];
    throw RpcError(params.at("code").get<int>(), params.at("message").get<std::string>(), data);
  }
  if (in.method == "fail.std") throw std::runtime_error("boom");
  throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + in.method);
}

}  // namespace rpckit::endpoint_test
