// Endpoints over real descriptors: pipe(2) pairs and socketpairs in one process, and a peer
// in a fork()ed child process.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "endpoint_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

std::array<int, 2> make_pipe() {
  std::array<int, 2> fds{-1, -1};
  EXPECT_EQ(::pipe2(fds.data(), O_CLOEXEC), 0);
  return fds;
}

std::array<int, 2> make_socketpair() {
  std::array<int, 2> fds{-1, -1};
  EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds.data()), 0);
  return fds;
}

// Serves basic_handler plus "callback" (asks the peer for "name" first) and "name".
Endpoint::Handler serving(Endpoint& self, std::string name) {
  return [&self, name](const Incoming& in) -> json {
    if (in.method == "name") return name;
    if (in.method == "callback") {
      CallResult r = self.call("name", std::nullopt, 20s);
      if (!r.ok()) throw RpcError(-32000, r.error().describe());
      return name + " called " + r.result().get<std::string>();
    }
    if (in.method == "pid") return static_cast<std::int64_t>(::getpid());
    return basic_handler(in);
  };
}

void exercise(Endpoint& a, Endpoint& b) {
  CallResult sum = a.call("add", json{{"a", 5}, {"b", 6}}, 20s);
  ASSERT_TRUE(sum.ok()) << sum.error().describe();
  EXPECT_EQ(sum.result(), 11);
  CallResult back = b.call("add", json{{"a", -5}, {"b", 6}}, 20s);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back.result(), 1);
  CallResult nested = a.call("callback", std::nullopt, 20s);
  ASSERT_TRUE(nested.ok()) << nested.error().describe();
  EXPECT_EQ(nested.result(), "b called a");
  CallResult error = a.call("fail.rpc", json{{"code", -32001}, {"message", "declined"}, {"data", {1, 2}}}, 20s);
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error().kind, CallError::Kind::kRemote);
  EXPECT_EQ(error.error().error.code(), -32001);
  EXPECT_EQ(error.error().error.message(), "declined");
  EXPECT_EQ(error.error().error.data(), json({1, 2}));
  // Bodies larger than a pipe's 64 KiB buffer, both ways at once: neither side's writer may
  // wait for its peer's reader while that peer waits for it.
  const std::string big(512 * 1024, 'q');
  auto a_big = std::async(std::launch::async, [&] { return a.call("echo", json{{"s", big}}, 20s); });
  auto b_big = std::async(std::launch::async, [&] { return b.call("echo", json{{"s", big}}, 20s); });
  CallResult ra = a_big.get();
  CallResult rb = b_big.get();
  ASSERT_TRUE(ra.ok()) << ra.error().describe();
  ASSERT_TRUE(rb.ok()) << rb.error().describe();
  EXPECT_EQ(ra.result()["s"].get<std::string>().size(), big.size());
  EXPECT_TRUE(rb.result()["s"] == big);
}

TEST(FdPipes, TwoEndpointsOverPipes) {
  auto a_to_b = make_pipe();
  auto b_to_a = make_pipe();
  FdSide a(b_to_a[0], a_to_b[1]);
  FdSide b(a_to_b[0], b_to_a[1]);
  a->set_handler(serving(a.ep(), "a"));
  b->set_handler(serving(b.ep(), "b"));
  a->start();
  b->start();
  exercise(a.ep(), b.ep());
  // Closing a's write end: b reads EOF.
  a.close_output();
  EXPECT_EQ(b->wait().kind, CloseReason::Kind::kEof);
  ASSERT_TRUE(b.closes.wait_size(1));
  EXPECT_EQ(b.closes.items()[0].kind, CloseReason::Kind::kEof);
}

TEST(FdPipes, ConcurrentSendersOverPipes) {
  std::atomic<int> notes{0};
  auto a_to_b = make_pipe();
  auto b_to_a = make_pipe();
  FdSide a(b_to_a[0], a_to_b[1]);
  FdSide b(a_to_b[0], b_to_a[1]);
  a->set_handler(basic_handler);
  b->set_handler([&](const Incoming& in) -> json {
    if (!in.is_request()) {
      ++notes;
      return nullptr;
    }
    return basic_handler(in);
  });
  a->start();
  b->start();
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        CallResult r = a->call("add", json{{"a", t}, {"b", i * 1000}}, 20s);
        if (!r.ok() || r.result() != t + i * 1000) ++wrong;
        if (!a->notify("note", json{{"t", t}})) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  ASSERT_TRUE(a->call("add", json{{"a", 0}, {"b", 0}}, 20s).ok());  // flushes the notes
  EXPECT_EQ(notes.load(), 8 * 40);
}

TEST(FdSockets, TwoEndpointsOverASocketpair) {
  Gate entered;
  Gate release;
  auto fds = make_socketpair();
  FdSide a(fds[0], fds[0]);
  FdSide b(fds[1], fds[1]);
  a->set_handler(serving(a.ep(), "a"));
  b->set_handler([&, inner = serving(b.ep(), "b")](const Incoming& in) -> json {
    if (in.method == "hang") {
      entered.open();
      EXPECT_TRUE(release.wait());
      return nullptr;
    }
    return inner(in);
  });
  a->start();
  b->start();
  exercise(a.ep(), b.ep());
  // A call pending when the peer shuts its side down fails promptly.
  auto pending = std::async(std::launch::async, [&] { return a->call("hang", std::nullopt, 20s); });
  ASSERT_TRUE(entered.wait());
  const auto start = std::chrono::steady_clock::now();
  b.close_output();
  CallResult r = pending.get();
  EXPECT_LT(since(start), kPrompt);
  EXPECT_EQ(r.error().kind, CallError::Kind::kDisconnected);
  EXPECT_EQ(a->wait().kind, CloseReason::Kind::kEof);
  release.open();
}

TEST(FdClose, DestructorWithABlockedReaderReturnsPromptly) {
  auto in = make_pipe();   // nobody ever writes to in[1]; we keep it open: no EOF
  auto out = make_pipe();
  Gate frame_read;
  auto side = std::make_unique<FdSide>(in[0], out[1]);
  side->ep().on_frame([&](bool outgoing, std::string_view) {
    if (!outgoing) frame_read.open();
  });
  side->ep().start();
  // One frame proves the reader is running; after it, it blocks in read() for good.
  const std::string frame = cl_frame(R"({"jsonrpc":"2.0","method":"hello"})");
  ASSERT_EQ(::write(in[1], frame.data(), frame.size()), static_cast<ssize_t>(frame.size()));
  ASSERT_TRUE(frame_read.wait());
  const auto start = std::chrono::steady_clock::now();
  side.reset();  // close(); interrupt_reader unblocks read(); join both threads
  EXPECT_LT(since(start), kPrompt);
  ::close(in[1]);
  ::close(out[0]);
}

TEST(FdClose, WithoutAnInterruptCloseStillFailsCallsAtOnce) {
  // The documented fallback: no interrupt_reader, so close() cannot unblock the reader, but
  // pending calls fail immediately; wait()/the destructor finish once the peer closes.
  auto in = make_pipe();
  auto out = make_pipe();
  Endpoint::Options options;
  options.interrupt_reader = [] {};
  auto side = std::make_unique<FdSide>(in[0], out[1], std::move(options));
  side->ep().start();
  auto pending = std::async(std::launch::async, [&] { return side->ep().call("m", std::nullopt, 20s); });
  char byte = 0;
  ASSERT_EQ(::read(out[0], &byte, 1), 1);
  const auto start = std::chrono::steady_clock::now();
  side->ep().close();
  EXPECT_EQ(pending.get().error().kind, CallError::Kind::kDisconnected);
  EXPECT_LT(since(start), kPrompt);
  ::close(in[1]);  // the peer goes away: the reader sees EOF
  EXPECT_EQ(side->ep().wait().kind, CloseReason::Kind::kLocal);
  side.reset();
  ::close(out[0]);
}

// ---- a peer in another process ---------------------------------------------------------

// The child: serves until "exit" (or EOF), then reports through its exit status.
[[noreturn]] void run_child(int fd) {
  ::alarm(30);  // a stuck child dies instead of hanging the test
  int status = 0;
  {
    FdSide side(fd, fd);
    side->set_handler([&side](const Incoming& in) -> json {
      if (in.method == "die") ::_exit(3);  // a crash in the middle of a request
      if (in.method == "exit") {
        side->close();
        return nullptr;
      }
      return serving(side.ep(), "child")(in);
    });
    side->start();
    CloseReason reason = side->wait();
    if (reason.kind != CloseReason::Kind::kLocal && reason.kind != CloseReason::Kind::kEof) {
      status = 10 + static_cast<int>(reason.kind);
    }
  }
  ::_exit(status);
}

struct Child {
  pid_t pid = -1;
  int fd = -1;
};

Child fork_child() {
  auto fds = make_socketpair();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    run_child(fds[1]);
  }
  ::close(fds[1]);
  EXPECT_GT(pid, 0);
  return {pid, fds[0]};
}

int wait_child(pid_t pid) {
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, 0), pid);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(FdFork, PeerInAChildProcess) {
  Child child = fork_child();
  {
    FdSide parent(child.fd, child.fd);
    parent->set_handler(serving(parent.ep(), "parent"));
    parent->start();
    CallResult pid = parent->call("pid", std::nullopt, 20s);
    ASSERT_TRUE(pid.ok()) << pid.error().describe();
    EXPECT_EQ(pid.result(), static_cast<std::int64_t>(child.pid)) << "answered by the child";
    CallResult sum = parent->call("add", json{{"a", 19}, {"b", 23}}, 20s);
    ASSERT_TRUE(sum.ok());
    EXPECT_EQ(sum.result(), 42);
    CallResult nested = parent->call("callback", std::nullopt, 20s);
    ASSERT_TRUE(nested.ok()) << nested.error().describe();
    EXPECT_EQ(nested.result(), "child called parent");
    CallResult error = parent->call(
        "fail.rpc", json{{"code", -32005}, {"message", "none"}, {"data", {{"name", "credential_unavailable"}}}},
        20s);
    ASSERT_FALSE(error.ok());
    EXPECT_EQ(error.error().error.code(), -32005);
    EXPECT_EQ(error.error().error.data(), (json{{"name", "credential_unavailable"}}));
    // String ids from the child's side are not possible with our endpoint; numbers both ways.
    CallResult exit = parent->call("exit", std::nullopt, 20s);
    ASSERT_TRUE(exit.ok()) << exit.error().describe();
    EXPECT_EQ(parent->wait().kind, CloseReason::Kind::kEof);  // the child closed its socket
  }
  EXPECT_EQ(wait_child(child.pid), 0);
}

TEST(FdFork, ChildDyingMidRequestDisconnectsPromptly) {
  Child child = fork_child();
  {
    FdSide parent(child.fd, child.fd);
    parent->start();
    ASSERT_TRUE(parent->call("add", json{{"a", 1}, {"b", 1}}, 20s).ok());
    const auto start = std::chrono::steady_clock::now();
    CallResult r = parent->call("die", std::nullopt, 20s);
    EXPECT_LT(since(start), kPrompt);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, CallError::Kind::kDisconnected);
    EXPECT_EQ(parent->wait().kind, CloseReason::Kind::kEof);
  }
  EXPECT_EQ(wait_child(child.pid), 3);
}

TEST(FdFork, ParentGoingAwayEndsTheChild) {
  Child child = fork_child();
  {
    FdSide parent(child.fd, child.fd);
    parent->start();
    ASSERT_TRUE(parent->call("add", json{{"a", 1}, {"b", 1}}, 20s).ok());
  }  // closes the socket: the child reads EOF, wait() returns, it exits 0
  EXPECT_EQ(wait_child(child.pid), 0);
}

}  // namespace
}  // namespace rpckit::endpoint_test
