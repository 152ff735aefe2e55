// SpawnedPlugin<Protocol>, the generic host role for one plugin, on the tasks fixture protocol
// (NDJSON, string ids, a nested editor/confirm call): the worker is a real process (tasks-worker).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "demo_tasks/roles.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace {

namespace tasks = demo::tasks;
using rpckit::roles::LifecycleEvent;
using rpckit::roles::SpawnedPlugin;

struct Worker {};

class Editor : public tasks::EditorHandler<Worker> {
 public:
  tasks::EditorConfirmResult editor_confirm(Worker&, const tasks::EditorConfirmParams&) override {
    ++confirms;
    return {.yes = true};
  }
  std::atomic<int> confirms{0};
};

SpawnedPlugin<tasks::Protocol>::Options worker_options(std::vector<std::string> command) {
  tasks::Grant grant;
  grant.powers = {tasks::Power::kConfirm, tasks::Power::kLog};
  return {.id = "worker-1",
          .command = std::move(command),
          .handshake_params =
              [grant] {
                return tasks::SessionOpenParams{.protocol_version = tasks::kProtocolVersion,
                                                .editor = "spawned-plugin-test",
                                                .granted = grant};
              }};
}

TEST(SpawnedPlugin, StartsHandshakesCallsTypedAndStopsCleanly) {
  Editor editor;
  Worker context;
  SpawnedPlugin<tasks::Protocol> worker(worker_options({TASKS_WORKER_EXE}));
  worker.bind(editor, context);
  ASSERT_TRUE(worker.start()) << (worker.stop_reason() ? worker.stop_reason()->detail : "");
  ASSERT_TRUE(worker.handshake_result().has_value());
  EXPECT_FALSE(worker.handshake_result()->worker.empty());

  auto reversed = worker.client().text_transform(
      {.text = "hello world", .operation = tasks::Operation::kReverse});
  ASSERT_TRUE(reversed.ok()) << reversed.error().describe();
  EXPECT_EQ(reversed->text, "dlrow olleh");
  // The worker asks the editor while it handles the call: the bound handler answers.
  auto upper = worker.client().text_transform(
      {.text = "abc", .operation = tasks::Operation::kUpper, .confirm = true});
  ASSERT_TRUE(upper.ok()) << upper.error().describe();
  EXPECT_EQ(upper->text, "ABC");
  EXPECT_EQ(editor.confirms.load(), 1);

  worker.stop();
  EXPECT_EQ(worker.state(), rpckit::supervision::State::kStopped);
  EXPECT_FALSE(worker.stop_reason()) << "a requested stop is not a failure";
  // Calls after the stop fail at once, without a process to go to.
  auto late = worker.client().text_transform({.text = "x", .operation = tasks::Operation::kUpper});
  EXPECT_FALSE(late.ok());
}

// An observer told of an event, or a caller woken by it, that asks state() gets the state the
// event announces: state() is published before anyone is told (it once lagged until the
// control thread had finished its batch, and a loaded machine showed the gap).
TEST(SpawnedPlugin, StateIsCurrentWhenAnEventIsReported) {
  Editor editor;
  Worker context;
  SpawnedPlugin<tasks::Protocol> worker(worker_options({TASKS_WORKER_EXE}));
  worker.bind(editor, context);
  std::vector<std::pair<LifecycleEvent::Kind, rpckit::supervision::State>> seen;
  worker.on_lifecycle([&](const LifecycleEvent& e) { seen.emplace_back(e.kind, worker.state()); });
  ASSERT_TRUE(worker.start());
  EXPECT_EQ(worker.state(), rpckit::supervision::State::kRunning);
  worker.stop();
  using K = LifecycleEvent::Kind;
  using S = rpckit::supervision::State;
  const std::vector<std::pair<K, S>> expected = {
      {K::kStarting, S::kLaunching}, {K::kRunning, S::kRunning}, {K::kStopped, S::kStopped}};
  EXPECT_EQ(seen, expected);
}

// Starts a worker that must not come up; its stop reason.
auto start_fails(SpawnedPlugin<tasks::Protocol>::Options options) {
  SpawnedPlugin<tasks::Protocol> worker(std::move(options));
  Editor editor;
  Worker context;
  worker.bind(editor, context);
  EXPECT_FALSE(worker.start());
  return worker.stop_reason();
}

// Repeated: the launch failure may be reported before start() begins to wait, and the wait
// has no bound here (the profile sets no handshake timeout), so a missed report is a hang.
TEST(SpawnedPlugin, AWrongCommandSaysWhyAtOnce) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    auto why = start_fails(worker_options({"/nonexistent/tasks-worker"}));
    ASSERT_TRUE(why.has_value());
    EXPECT_EQ(why->cause, rpckit::supervision::StopCause::kLaunchFailed);
    EXPECT_NE(why->detail.find("No such file or directory"), std::string::npos) << why->detail;
  }
}

TEST(SpawnedPlugin, ARefusedHandshakeIsTheStopReason) {
  auto options = worker_options({TASKS_WORKER_EXE});
  options.handshake_params = [] {
    return tasks::SessionOpenParams{.protocol_version = 999, .editor = "too new"};
  };
  auto why = start_fails(std::move(options));
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->cause, rpckit::supervision::StopCause::kHandshakeFailed) << why->detail;
}

TEST(SpawnedPlugin, ATranscriptRecordsEveryFrameAndEvent) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("spawned-plugin-" + std::to_string(::getpid()) + ".jsonl");
  {
    rpckit::roles::Transcript transcript({.readable = nullptr});
    std::string error;
    ASSERT_TRUE(transcript.open_jsonl(path.string(), &error)) << error;
    auto options = worker_options({TASKS_WORKER_EXE});
    options.transcript = &transcript;
    SpawnedPlugin<tasks::Protocol> worker(std::move(options));
    Editor editor;
    Worker context;
    worker.bind(editor, context);
    ASSERT_TRUE(worker.start());
    ASSERT_TRUE(worker.client()
                    .text_transform({.text = "a", .operation = tasks::Operation::kUpper})
                    .ok());
    worker.stop();
  }
  std::ifstream in(path);
  std::string line;
  int frames = 0, lifecycle = 0;
  while (std::getline(in, line)) {
    frames += line.find("\"type\":\"frame\"") != std::string::npos;
    lifecycle += line.find("\"type\":\"lifecycle\"") != std::string::npos;
  }
  std::filesystem::remove(path);
  // session/open, its answer, session/ready, text/transform, its answer, shutdown and its
  // answer, exit: at least eight frames; starting, running, stopped.
  EXPECT_GE(frames, 8);
  EXPECT_GE(lifecycle, 3);
}

}  // namespace
