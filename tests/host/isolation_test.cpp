// One misbehaving plugin never stalls the others: three plugins at once, one of them hanging
// in initialize, not reading its stdin, flooding, blocked in a slow host method, or holding
// its ping answers. Isolation is proven by order, never by a duration: the bad plugin is seen
// stuck before the good ones' work begins and still stuck, with no progress, once it is done;
// meanwhile emit() returned for every event, the good ones got every event in order, answered
// their actions and a ping sent in that window. Deadlines only bound waits that succeed long
// before them.
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>

#include "host_test_support.hpp"

namespace host_test {
namespace {

using namespace std::chrono_literals;

struct Misbehaviour {
  const char* name;
  std::vector<std::string> args;
};

void PrintTo(const Misbehaviour& m, std::ostream* os) { *os << m.name; }

// What the bad plugin is stuck in, and a count of what it got done that stays still meanwhile.
struct Stall {
  std::function<bool()> holds;
  std::function<std::size_t()> progress;
};

class HostIsolation : public HostTest, public ::testing::WithParamInterface<Misbehaviour> {
 protected:
  // Pings to `plugin` sent within [from, to], and how many of them were answered (by now).
  struct Pings {
    int sent = 0;
    int answered = 0;
  };
  Pings pings(const std::string& plugin, Clock::time_point from,
              Clock::time_point to = Clock::time_point::max()) const {
    // The endpoint records an outgoing frame once written, so the answer may be recorded
    // first: pair them by id, whatever the order.
    std::set<Json> sent, answered;
    for (const auto& f : app_.frames(plugin)) {
      if (!f.message.is_object() || !f.message.contains("id")) continue;
      if (f.outgoing && f.message.value("method", "") == "ping") {
        if (f.at >= from && f.at <= to) sent.insert(f.message["id"]);
      } else if (!f.outgoing && !f.message.contains("method")) {
        answered.insert(f.message["id"]);
      }
    }
    Pings out;
    out.sent = static_cast<int>(sent.size());
    for (const auto& id : sent) out.answered += answered.count(id) != 0 ? 1 : 0;
    return out;
  }

  std::string describe_pings(const std::string& plugin) const {
    std::string out;
    auto frames = app_.frames(plugin);
    if (frames.empty()) return out;
    for (const auto& f : frames) {
      if (!f.message.is_object()) continue;
      bool ping = f.message.value("method", "") == "ping";
      bool response = !f.outgoing && !f.message.contains("method");
      if (!ping && !response) continue;
      out += std::to_string(std::chrono::duration_cast<milliseconds>(f.at - frames[0].at).count()) +
             " ms " + (f.outgoing ? "-> " : "<- ") + f.message.dump() + "\n";
    }
    for (const auto& r : app_.lifecycle(plugin)) {
      out += std::to_string(std::chrono::duration_cast<milliseconds>(r.at - frames[0].at).count()) +
             " ms " + std::string(rs::to_string(r.kind)) + " " + r.detail + "\n";
    }
    return out;
  }

  std::size_t frame_count(const std::string& plugin, bool outgoing) const {
    auto frames = app_.frames(plugin);
    return static_cast<std::size_t>(std::count_if(
        frames.begin(), frames.end(), [&](const FrameRecord& f) { return f.outgoing == outgoing; }));
  }

  // Host-to-plugin responses (answers to the plugin's own calls).
  std::size_t responses_to(const std::string& plugin) const {
    auto frames = app_.frames(plugin);
    return static_cast<std::size_t>(std::count_if(frames.begin(), frames.end(), [](const auto& f) {
      return f.outgoing && f.message.is_object() && !f.message.contains("method");
    }));
  }

  // One run, still going: a stall that ended in a restart is no stall.
  bool first_run(const std::string& plugin) const {
    return app_.count(plugin, Kind::kStopped) == 0 && app_.count(plugin, Kind::kStarting) == 1;
  }

  // Once let go, the flood (5000 logs, "flood 0" to "flood 4999") reaches the application
  // whole and in order. The health check may still stop the held run while its backlog drains
  // on a slow machine (its ping answers wait behind the logs): then each run delivered an
  // in-order prefix, each run but the last ended in a stop, and the last, never held, is whole.
  void expect_flood_delivered_in_order(const std::string& bad) {
    auto last_run = [&] {
      auto logs = app_.calls(bad, "log");
      std::size_t start = 0;
      for (std::size_t i = 0; i < logs.size(); ++i) {
        if (logs[i].params.value("message", "") == "flood 0") start = i;
      }
      return logs.size() - start;
    };
    ASSERT_TRUE(app_.await([&] { return last_run() >= 5000; }, 60s))
        << "the last run delivered " << last_run() << " of 5000 logs";
    auto logs = app_.calls(bad, "log");
    std::size_t runs = 0;
    std::size_t expected = 0;
    for (std::size_t i = 0; i < logs.size(); ++i) {
      std::string message = logs[i].params.value("message", "");
      if (message == "flood 0") {
        ++runs;
        expected = 0;
      }
      ASSERT_EQ(message, "flood " + std::to_string(expected)) << "log " << i << " of run " << runs;
      ++expected;
    }
    EXPECT_EQ(expected, 5000u) << "the last run's logs";
    EXPECT_EQ(app_.count(bad, Kind::kStopped), runs - 1) << "a run ended without a stop\n"
                                                         << describe_pings(bad);
  }

  Stall stall_of(const std::string& name, const std::string& bad) {
    auto epoch = Clock::time_point::min();
    if (name == "hang-in-initialize") {
      return {[=, this] {
                return first_run(bad) && app_.count_frames(bad, true, "initialize") == 1 &&
                       app_.count(bad, Kind::kRunning) == 0;
              },
              [=, this] { return frame_count(bad, false); }};
    }
    if (name == "stop-reading") {  // its stdin pipe and its event queue are full
      return {[=, this] {
                return first_run(bad) && app_.has_report(bad, "dropped: the plugin is not reading");
              },
              [=, this] { return frame_count(bad, true); }};
    }
    if (name == "flood") {  // the application holds its first log; the rest wait
      return {[=, this] { return first_run(bad) && !app_.calls(bad, "log").empty(); },
              [=, this] { return app_.calls(bad, "log").size(); }};
    }
    if (name == "slow-host-call") {  // the application holds its get_followed_live
      return {[=, this] {
                return first_run(bad) && app_.calls(bad, "get_followed_live").size() == 1;
              },
              [=, this] { return responses_to(bad); }};
    }
    // slow-ping: a ping sent, none answered
    return {[=, this] {
              Pings p = pings(bad, epoch);
              return first_run(bad) && p.sent >= 1 && p.answered == 0;
            },
            [=, this] { return static_cast<std::size_t>(pings(bad, epoch).answered); }};
  }
};

TEST_P(HostIsolation, AMisbehavingPluginDoesNotStallTheOthers) {
  // Pings every 3 s. The bad plugin's stall must outlast the good ones' work: a plugin that
  // answers no ping is stopped at the fourth, 12 s after it came up, and the work takes at
  // most one ping interval beyond the events and actions.
  const double scale = 0.1;
  const std::string name = GetParam().name;
  // A hanging initialize stays in its first handshake through the whole test.
  make_host(scale, 64, name == "hang-in-initialize" ? milliseconds(300000) : kStartAllowance);
  const std::vector<std::string> good = {"test.good-a", "test.good-b"};
  const std::string bad = "test.bad";
  for (const auto& id : good) {
    add(PluginSpec(id, {"well-behaved"}).with_events({"on_chat_message"}));
  }
  PluginSpec bad_spec = PluginSpec(bad, GetParam().args)
                            .with_events({"on_chat_message"})
                            .with_host_methods({"get_followed_live", "log"});
  bad_spec.actions.push_back("t.answer-pings");
  add(bad_spec);
  app_.block(bad, "get_followed_live");
  app_.block(bad, "log");
  host().start_all();
  for (const auto& id : good) ASSERT_TRUE(await_running(id));
  const Stall stall = stall_of(name, bad);

  // One 4 KiB chat event to all three; then waits until each good plugin has been written all
  // but 32 of the events so far, so their queues (64) never overflow however slow the build.
  long seq = 0;
  auto emit_one = [&] {
    ++seq;
    std::size_t delivered = host().emit<msg::OnChatMessage>(chat(seq, 4096));
    EXPECT_GE(delivered, 2u) << "event " << seq;  // the good ones, whatever the bad one does
    return app_.await(
        [&] {
          return std::all_of(good.begin(), good.end(), [&](const std::string& id) {
            return app_.count_frames(id, true, "on_chat_message") >= seq - 32;
          });
        },
        30s);
  };

  // Events until the misbehaviour shows (stop-reading needs them to fill its pipe).
  {
    Watchdog watchdog("events while the misbehaviour sets in", 120s);
    auto give_up = Clock::now() + 60s;
    while (!stall.holds()) {
      ASSERT_LT(Clock::now(), give_up) << "the bad plugin never misbehaved\n"
                                       << describe_pings(bad);
      ASSERT_TRUE(emit_one()) << "a good plugin is not being written its events";
      app_.await(stall.holds, 10ms);
    }
  }

  // The good plugins' work, while the bad one is stuck: emit() returning at all shows that it
  // never waits for the bad plugin (which gets nothing done until the window's end).
  const std::size_t progress_before = stall.progress();
  const auto window_start = Clock::now();
  {
    Watchdog watchdog("the good plugins' work beside a misbehaving plugin", 120s);
    for (int i = 1; i <= 100; ++i) {
      ASSERT_TRUE(emit_one()) << "a good plugin is not being written its events";
      if (i % 25 == 0) {
        auto echoed = action(good[static_cast<std::size_t>(i / 25) % 2], "t.echo", {{"n", i}});
        ASSERT_TRUE(echoed.ok()) << echoed.error().describe();
        EXPECT_EQ(echoed->get(), (Json{{"n", i}}));
      }
    }
    // A ping sent in the window and answered, by each good plugin (and by the slow host call's
    // plugin: pings are not queued behind its call).
    std::vector<std::string> answering = good;
    if (name == "slow-host-call") answering.push_back(bad);
    EXPECT_TRUE(app_.await(
        [&] {
          return std::all_of(answering.begin(), answering.end(), [&](const std::string& id) {
            return pings(id, window_start).answered >= 1;
          });
        },
        30s))
        << describe_pings(good[0]) << describe_pings(good[1]);
  }
  const auto window_end = Clock::now();
  EXPECT_TRUE(stall.holds()) << "the bad plugin got unstuck before the good ones were done: "
                                "the window proves nothing\n"
                             << describe_pings(bad);
  EXPECT_EQ(stall.progress(), progress_before) << "the bad plugin got something done";
  // The flood is let go at once: held longer, it would meet the health check's fourth ping.
  if (name == "flood") app_.release();

  for (const auto& id : good) {
    // Every event, in order.
    Json state;
    ASSERT_TRUE(eventually(
        [&] {
          state = plugin_state(id);
          return state["chat_seqs"].size() >= static_cast<std::size_t>(seq);
        },
        30s))
        << id << " got " << state["chat_seqs"].size() << " of " << seq << " events";
    EXPECT_TRUE(state["chat_in_order"].get<bool>()) << id;
    EXPECT_EQ(state["chat_seqs"].size(), static_cast<std::size_t>(seq)) << id;
    // No ping missed: at most the one in flight at the window's end is unanswered.
    Pings p = pings(id, Clock::time_point::min(), window_end);
    EXPECT_GE(p.answered, 1) << id;
    EXPECT_LE(p.sent - p.answered, 1) << id << "\n" << describe_pings(id);
    EXPECT_EQ(app_.count(id, Kind::kStopped), 0) << id;
  }

  // What the bad plugin was held in really ends as it should once let go.
  if (name == "hang-in-initialize") {
    EXPECT_EQ(app_.count(bad, Kind::kRunning), 0);
  } else if (name == "flood") {
    expect_flood_delivered_in_order(bad);
  } else if (name == "slow-host-call") {
    EXPECT_EQ(app_.calls(bad, "get_followed_live").size(), 1u);
  } else if (name == "slow-ping") {
    auto answered = action(bad, "t.answer-pings");
    ASSERT_TRUE(answered.ok()) << answered.error().describe();
    EXPECT_GE(answered->get().value("answered", 0), 1);
    // The late answers reach the host: answered pings, counted.
    EXPECT_TRUE(app_.await([&] { return pings(bad, Clock::time_point::min()).answered >= 1; }, 30s))
        << describe_pings(bad);
  }

  // Stopping everything is bounded, whatever the bad plugin does.
  app_.release();
  {
    Watchdog watchdog("stop_all with a misbehaving plugin", 60s);
    host().stop_all();
  }
  for (const auto& id : host().plugin_ids()) {
    auto state = host().state(id);
    EXPECT_TRUE(state == State::kStopped || state == State::kDisabled) << id;
  }
  // Stopped once, on request. At this time scale the exit grace is 500 ms, which a sanitizer
  // build's exit can outlast on a loaded machine: then the host kills it, as it must. The
  // graceful path is host lifecycle_test's (StopIsShutdownThenExit..., at real timings).
  for (const auto& id : good) {
    EXPECT_EQ(app_.count(id, Kind::kStopped, StopCause::kRequested) +
                  app_.count(id, Kind::kStopped, StopCause::kExitTimeout),
              1)
        << id << "\n" << describe_pings(id);
    EXPECT_EQ(app_.count(id, Kind::kStopped), 1) << id;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Misbehaviours, HostIsolation,
    ::testing::Values(Misbehaviour{"hang-in-initialize", {"hang-in-initialize"}},
                      Misbehaviour{"stop-reading", {"stop-reading"}},
                      Misbehaviour{"flood", {"flood", "count=5000"}},
                      Misbehaviour{"slow-host-call", {"slow-host-call"}},
                      Misbehaviour{"slow-ping", {"slow-ping"}}),
    [](const ::testing::TestParamInfo<Misbehaviour>& param) {
      std::string name = param.param.name;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

class HostStopping : public HostTest {};

// A plugin that stopped reading its stdin while the pipe is full must still stop in bounded
// time: shutdown cannot be written, exit cannot be written, and the grace period ends in a kill.
TEST_F(HostStopping, APluginThatDoesNotReadStopsInBoundedTime) {
  make_host(0.03, 8);  // shutdown wait 900 ms, exit grace 150 ms
  add(PluginSpec("test.deaf", {"stop-reading"}).with_events({"on_chat_message"}));
  host().start("test.deaf");
  ASSERT_TRUE(await_running("test.deaf"));
  // Fill the pipe (64 KiB) and the queue (8 events).
  ASSERT_TRUE(eventually(
      [&] {
        host().emit<msg::OnChatMessage>(chat(1, 8192));
        return app_.has_report("test.deaf", "dropped: the plugin is not reading");
      },
      10s));
  {
    // The bound: shutdown's wait (900 ms) and the grace (150 ms) many times over.
    Watchdog watchdog("stop of a plugin that does not read", 30s);
    host().stop("test.deaf");
  }
  EXPECT_EQ(host().state("test.deaf"), State::kStopped);
  auto records = app_.lifecycle("test.deaf");
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.back().kind, Kind::kStopped);
  EXPECT_EQ(records.back().cause, StopCause::kExitTimeout) << records.back().detail;
}

// A host method the application is slow to answer (a consent prompt may take 120 s) must
// not hold up the restart of the plugin that called it once that plugin has died, nor its
// stop: both happen while the application still holds the call.
TEST_F(HostStopping, APluginThatDiesDuringASlowHostCallIsRestartedWhileTheCallIsHeld) {
  make_host(0.05);  // first backoff 50 ms
  add(PluginSpec("test.dies-waiting", {"slow-host-call"}).with_host_methods({"get_followed_live"}));
  app_.block("test.dies-waiting", "get_followed_live");
  // Set once the application lets the call go (release(), or its own 20 s cap); shared, as the
  // call may return after this test body.
  auto call_returned = std::make_shared<std::atomic<bool>>(false);
  app_.set_call_hook([call_returned](const std::string&, const std::string& method, const Json&) {
    if (method == "get_followed_live") *call_returned = true;
  });
  host().start("test.dies-waiting");
  ASSERT_TRUE(await_running("test.dies-waiting"));
  ASSERT_TRUE(app_.await(
      [&] { return app_.calls("test.dies-waiting", "get_followed_live").size() == 1; }, 10s));
  int pid = plugin_state("test.dies-waiting")["pid"];
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  ASSERT_TRUE(
      app_.await_lifecycle("test.dies-waiting", Kind::kStopped, StopCause::kCrashed, 1, 10s));
  // Restarted after its backoff, while the application is still busy with the call.
  ASSERT_TRUE(app_.await_lifecycle("test.dies-waiting", Kind::kRunning, 2, 30s));
  EXPECT_FALSE(*call_returned) << "the restart waited for the application";
  {
    Watchdog watchdog("stop while the application is still busy", 30s);
    host().stop("test.dies-waiting");
  }
  EXPECT_EQ(host().state("test.dies-waiting"), State::kStopped);
  EXPECT_FALSE(*call_returned) << "the stop waited for the application";
  app_.release();
}

}  // namespace
}  // namespace host_test
