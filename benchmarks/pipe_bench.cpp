// Endpoint to Endpoint over real pipes between two processes, both with Content-Length
// framing (InterruptibleFdSource + FdSink). The child is this executable in peer mode
// (peer.cpp) with the pipes as its stdin/stdout, like a plugin under its host.
//   pipe/notify_throughput/<event>
//                           per iteration: a batch of notifications of one of the three
//                           sized_events() (rpckit::notify<M>: typed encode, frame, write),
//                           then a "done" request whose answer says the child handled all of
//                           them. items/s = events/s, bytes/s = framed bytes on the pipe.
//   pipe/ping_rtt           per iteration: one rpckit::call<Ping> (typed, both directions);
//                           manual time = the call's wall time; counters p50/p90/p99 in us.
//                           With --rpckit-bench-samples=FILE every sample is appended to FILE.
// Each starts with an untimed warm-up (one batch, or kWarmupPings pings), as the comparison
// pairs of benchmarks/compare do.
// Robustness: every call has a deadline, a watchdog SIGKILLs a child that outlives
// kWatchdog (a blocked write then fails with EPIPE), and the child is always reaped.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "payloads.hpp"
#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/endpoint/typed.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/process/child_process.hpp"
#include "streamnook_v1/dispatch.hpp"

namespace rpckit::bench {
namespace {

namespace v1 = streamnook::v1;
using std::chrono::milliseconds;

// Notifications per throughput iteration and iterations per repetition, by event size.
// benchmarks/compare/rounds.py sends the same counts through the other implementations.
struct EventCounts {
  int batch;
  int batches;
};
EventCounts event_counts(const std::string& size) {
  if (size == "large") return {100, 10};
  return {1000, 20};
}
constexpr int kPings = 4000;       // RTT samples per repetition
constexpr int kWarmupPings = 200;  // untimed, before them
constexpr milliseconds kCallDeadline{5000};
constexpr milliseconds kWatchdog{30000};
constexpr milliseconds kReapGrace{3000};

std::string self_exe() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  path.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return path;
}

// The child (rpckit::process::ChildProcess: pipes on its stdin/stdout, no other descriptor of
// ours, never left a zombie) and the parent's Endpoint on those pipes.
class Peer {
 public:
  static std::unique_ptr<Peer> spawn(std::string& error) {
    process::SpawnOptions options;
    options.executable = self_exe();
    options.args = {kPeerFlag};
    std::unique_ptr<process::ChildProcess> child = process::ChildProcess::spawn(options, &error);
    if (!child) return nullptr;
    return std::unique_ptr<Peer>(new Peer(std::move(child)));
  }

  ~Peer() { shutdown(); }

  // Closes our endpoint, then the child's stdin: it reads EOF and exits 0. The watchdog,
  // re-armed for kReapGrace, SIGKILLs a child that does not. Returns how the child ended.
  process::ExitStatus shutdown() {
    if (!endpoint_) return child_->wait();
    endpoint_.reset();  // close(): interrupts our reader, joins both endpoint threads
    child_->close_stdin();
    {
      std::lock_guard lock(mutex_);
      deadline_ = std::min(deadline_, std::chrono::steady_clock::now() + kReapGrace);
    }
    changed_.notify_all();
    const process::ExitStatus status = child_->wait();
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    watchdog_.join();
    return status;
  }

  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  Endpoint& endpoint() { return *endpoint_; }

 private:
  explicit Peer(std::unique_ptr<process::ChildProcess> child)
      : child_(std::move(child)), source_(child_->stdout_fd()), sink_(child_->stdin_fd()) {
    constexpr auto kMaxFrame = static_cast<std::size_t>(v1::kMaxFrameBytes);
    Endpoint::Options options;
    options.default_deadline = kCallDeadline;
    options.interrupt_reader = [this] { source_.interrupt(); };
    endpoint_ = std::make_unique<Endpoint>(
        framing::make_reader(framing::Framing::kContentLength, source_, kMaxFrame),
        framing::make_writer(framing::Framing::kContentLength, sink_, kMaxFrame), options);
    endpoint_->start();
    // A child that hangs without dying would block our writes once the pipe is full (calls
    // have deadlines, writes do not): kill it, and the write fails with EPIPE.
    watchdog_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      bool killed = false;
      while (!stopping_) {
        if (killed) {
          changed_.wait(lock);
        } else if (changed_.wait_until(lock, deadline_) == std::cv_status::timeout &&
                   std::chrono::steady_clock::now() >= deadline_) {
          child_->kill();  // a no-op once reaped (pidfd): never hits a recycled pid
          killed = true;
        }
      }
    });
  }

  std::unique_ptr<process::ChildProcess> child_;
  framing::InterruptibleFdSource source_;  // borrows child_->stdout_fd()
  framing::FdSink sink_;                   // borrows child_->stdin_fd()
  std::unique_ptr<Endpoint> endpoint_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::now() + kWatchdog;
  bool stopping_ = false;
  std::thread watchdog_;
};

// Google Benchmark 1.7.1 crashes computing aggregates when the first repetition failed and a
// later one did not (ComputeStats reads the failed run's statistics). So a failure is sticky:
// once the peer failed, every later repetition of that benchmark fails too, with the reason.
class Failure {
 public:
  // True (and the run marked failed) when an earlier repetition failed.
  bool earlier(benchmark::State& state) const {
    if (reason_.empty()) return false;
    state.SkipWithError(("failed in an earlier repetition: " + reason_).c_str());
    return true;
  }
  void fail(benchmark::State& state, std::string reason) {
    reason_ = std::move(reason);
    state.SkipWithError(reason_.c_str());
  }

 private:
  std::string reason_;
};

// Starts the child and waits until it answers, so start-up is not measured.
std::unique_ptr<Peer> start_peer(benchmark::State& state, Failure& failure) {
  if (failure.earlier(state)) return nullptr;
  std::string error;
  std::unique_ptr<Peer> peer = Peer::spawn(error);
  if (!peer) {
    failure.fail(state, error);
    return nullptr;
  }
  Result<v1::PingResult> pong = call<v1::messages::Ping>(peer->endpoint(), {}, kCallDeadline);
  if (!pong) {
    failure.fail(state, "peer did not start: " + pong.error().describe());
    return nullptr;
  }
  return peer;
}

// Stops the child (untimed); one that did not exit 0 on EOF fails the run.
void finish(benchmark::State& state, Peer& peer, Failure& failure) {
  const process::ExitStatus status = peer.shutdown();
  if (!state.error_occurred() && (status.signaled || status.code != 0)) {
    failure.fail(state, "peer ended with " + status.describe());
  }
}

// Bytes one notification takes on the pipe: the body Endpoint::notify writes plus its header.
template <class Params>
std::size_t framed_size(std::string_view method, const Params& params) {
  nlohmann::json envelope = {{"jsonrpc", "2.0"}, {"method", method}, {"params", params}};
  const std::size_t body = envelope.dump().size();
  return body + std::string("Content-Length: " + std::to_string(body) + "\r\n\r\n").size();
}

// One batch of `count` notifications, then "done"; false (and the run failed) on a failure.
template <class M>
bool send_batch(benchmark::State& state, Peer& peer, Failure& failure,
                const typename M::Params& params, int count) {
  bool sent = true;
  for (int i = 0; i < count && sent; ++i) sent = notify<M>(peer.endpoint(), params);
  if (!sent) {
    failure.fail(state, "notify failed: the peer is gone");
    return false;
  }
  CallResult done = peer.endpoint().call("done", nlohmann::json::object(), kCallDeadline);
  if (!done.ok()) {
    failure.fail(state, "done: " + done.error().describe());
    return false;
  }
  if (done.result() != count) {
    failure.fail(state, "the peer counted " + done.result().dump() + " events");
    return false;
  }
  return true;
}

template <class M>
void notify_throughput(benchmark::State& state, const SizedEvent& event) {
  typename M::Params params{};
  codec::DecodePath path("params");
  decode(event.params, params, path);
  const std::size_t frame = framed_size(M::kMethod, params);
  const int batch = event_counts(event.size).batch;

  static Failure failure;  // one per message type M
  std::unique_ptr<Peer> peer = start_peer(state, failure);
  if (!peer) return;
  if (send_batch<M>(state, *peer, failure, params, batch)) {  // warm-up, untimed
    for (auto _ : state) {
      if (!send_batch<M>(state, *peer, failure, params, batch)) break;
    }
  }
  finish(state, *peer, failure);
  state.SetItemsProcessed(state.iterations() * batch);
  state.SetBytesProcessed(state.iterations() * batch * static_cast<std::int64_t>(frame));
  state.SetLabel(event.size);
  state.counters["frame_bytes"] = static_cast<double>(frame);
  state.counters["batch"] = batch;
}

// Appends the samples of one run to the --rpckit-bench-samples file, as a JSON line.
void save_samples(const char* name, const std::vector<double>& us) {
  if (samples_file().empty()) return;
  std::ofstream out(samples_file(), std::ios::app);
  out << nlohmann::json{{"benchmark", name}, {"samples_us", us}}.dump() << "\n";
}

void ping_rtt(benchmark::State& state) {
  static Failure failure;
  std::unique_ptr<Peer> peer = start_peer(state, failure);
  if (!peer) return;
  for (int i = 0; i < kWarmupPings; ++i) {  // untimed
    Result<v1::PingResult> pong = call<v1::messages::Ping>(peer->endpoint(), {}, kCallDeadline);
    if (!pong) {
      failure.fail(state, "ping: " + pong.error().describe());
      finish(state, *peer, failure);
      return;
    }
  }
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(state.max_iterations));
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    Result<v1::PingResult> pong = call<v1::messages::Ping>(peer->endpoint(), {}, kCallDeadline);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (!pong) {
      failure.fail(state, "ping: " + pong.error().describe());
      break;
    }
    state.SetIterationTime(took.count());
    us.push_back(took.count() * 1e6);
  }
  finish(state, *peer, failure);
  if (us.empty()) return;
  save_samples("pipe/ping_rtt", us);
  auto percentile = [&us](double p) {
    auto at = us.begin() + static_cast<std::ptrdiff_t>(p * static_cast<double>(us.size() - 1));
    std::nth_element(us.begin(), at, us.end());
    return *at;
  };
  state.counters["p50_us"] = percentile(0.50);
  state.counters["p90_us"] = percentile(0.90);
  state.counters["p99_us"] = percentile(0.99);
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

std::string& samples_file() {
  static std::string path;
  return path;
}

void register_pipe_benchmarks() {
  // Fixed iteration counts: one child per repetition, none spent on iteration estimates.
  for (const SizedEvent& event : sized_events()) {
    void (*body)(benchmark::State&, const SizedEvent&) = nullptr;
    if (event.method == v1::messages::OnWatchTick::kMethod) {
      body = notify_throughput<v1::messages::OnWatchTick>;
    } else if (event.method == v1::messages::OnChatMessage::kMethod) {
      body = notify_throughput<v1::messages::OnChatMessage>;
    } else {
      body = notify_throughput<v1::messages::OnFollowedLive>;
    }
    benchmark::RegisterBenchmark(("pipe/notify_throughput/" + event.name).c_str(), body, event)
        ->Iterations(event_counts(event.size).batches)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("pipe/ping_rtt", ping_rtt)
      ->Iterations(kPings)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace rpckit::bench
