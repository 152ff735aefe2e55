// tasks-editor <worker command> [args...]: the editor (host) of the tasks protocol, written
// with nothing but the generated role surfaces and the generic host role (PluginProcess with
// host_lifecycle<Protocol>): it spawns the worker, opens the session, sends doc.changed
// events and text/transform requests (one makes the worker ask editor/confirm while the
// editor waits on it), then stops it gracefully. It prints a transcript (one "<" or ">" line
// per frame) and exits 0 when every step went as the protocol says, 1 otherwise.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "demo_tasks/roles.hpp"
#include "rpckit/roles/host_role.hpp"
#include "rpckit/roles/route.hpp"
#include "light_header_checks.hpp"  // the generic role headers stay light

namespace tasks = demo::tasks;
using rpckit::roles::LifecycleEvent;

namespace {

struct Worker {
  std::string name;
};

// What the editor does for a worker: answers its questions and keeps its log lines.
class Editor : public tasks::EditorHandler<Worker> {
 public:
  tasks::EditorConfirmResult editor_confirm(Worker&, const tasks::EditorConfirmParams& p) override {
    tasks::EditorConfirmResult result;
    result.yes = p.question.find("upper") != std::string::npos;
    return result;
  }
  void log_line(Worker&, const tasks::LogLineParams& p) override {
    std::lock_guard lock(mutex_);
    log_.push_back(p.text);
    changed_.notify_all();
  }
  bool wait_for_lines(std::size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(20), [&] { return log_.size() >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> log_;
};

struct Lifecycle {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<LifecycleEvent::Kind> seen;
  bool wait_for(LifecycleEvent::Kind kind) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(20), [&] {
      return std::find(seen.begin(), seen.end(), kind) != seen.end();
    });
  }
};

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tasks-editor <worker command> [args...]\n");
    return 2;
  }
  Editor editor;
  Worker worker_context{"worker-1"};
  rpckit::Router<tasks::WorkerToEditor> router;
  tasks::bind(router, editor, worker_context);

  rpckit::process::SpawnOptions spawn;
  spawn.executable = argv[1];
  for (int i = 2; i < argc; ++i) spawn.args.emplace_back(argv[i]);
  // The profile's timers: a health check every 200 ms, 2 s to exit; the rest the defaults.
  rpckit::supervision::Policy policy = rpckit::roles::lifecycle_policy<tasks::Protocol>();

  tasks::Grant grant;
  grant.powers = {tasks::Power::kConfirm, tasks::Power::kLog};
  auto lifecycle = rpckit::roles::host_lifecycle<tasks::Protocol>(
      [&] {
        tasks::SessionOpenParams p;
        p.protocol_version = tasks::kProtocolVersion;
        p.editor = "tasks-editor";
        p.granted = grant;
        return p;
      },
      [](const rpckit::Result<tasks::SessionOpenResult>& r) {
        if (r.ok()) std::printf("opened: %s\n", r->worker.c_str());
        return rpckit::roles::judge_handshake(r);
      });

  Lifecycle life;
  rpckit::roles::PluginProcess::Observer observer;
  observer.lifecycle = [&](const LifecycleEvent& e) {
    std::printf("lifecycle: %s %s\n", std::string(to_string(e.kind)).c_str(), e.detail.c_str());
    std::lock_guard lock(life.mutex);
    life.seen.push_back(e.kind);
    life.changed.notify_all();
  };
  std::mutex print;
  observer.frame = [&](bool outgoing, std::string_view body) {
    std::lock_guard lock(print);
    std::printf("%s %.*s\n", outgoing ? ">" : "<", static_cast<int>(body.size()), body.data());
  };
  observer.report = [](std::string_view what) {
    std::printf("report: %.*s\n", static_cast<int>(what.size()), what.data());
  };

  rpckit::roles::PluginProcess worker(
      rpckit::roles::process_settings<tasks::Protocol>("worker-1", spawn, policy),
      std::move(lifecycle), rpckit::roles::route_through(router), std::move(observer));
  worker.start();
  check(life.wait_for(LifecycleEvent::Kind::kRunning), "the worker runs after session/open");

  for (int version = 1; version <= 3; ++version) {
    tasks::DocChangedParams doc;
    doc.uri = "file:///notes.txt";
    doc.version = version;
    check(worker.enqueue(tasks::messages::DocChanged::kMethod, rpckit::codec::encode(doc)),
          "doc.changed v" + std::to_string(version) + " queued");
  }
  check(editor.wait_for_lines(3), "three log.line notifications came back");

  auto endpoint = worker.running_endpoint();
  check(endpoint != nullptr, "the running worker's endpoint");
  if (endpoint) {
    tasks::TextTransformParams p;
    p.text = "hello world";
    p.operation = tasks::Operation::kReverse;
    auto reversed = rpckit::call<tasks::messages::TextTransform>(*endpoint, p);
    check(reversed.ok() && reversed->text == "dlrow olleh", "text/transform reverse");

    p.operation = tasks::Operation::kUpper;
    p.confirm = true;
    auto upper = rpckit::call<tasks::messages::TextTransform>(*endpoint, p);
    check(upper.ok() && upper->text == "HELLO WORLD" && upper->confirmed &&
              upper->confirmed->has_value() && **upper->confirmed,
          "text/transform upper after editor/confirm (yes)");

    p.operation = tasks::Operation::kWords;
    auto words = rpckit::call<tasks::messages::TextTransform>(*endpoint, p);
    check(words.ok() && words->text == "hello world" && words->confirmed &&
              words->confirmed->has_value() && !**words->confirmed,
          "text/transform words declined by editor/confirm (no)");

    p.operation = tasks::Operation::from_wire("rot13");
    p.confirm = false;
    auto unknown = rpckit::call<tasks::messages::TextTransform>(*endpoint, p);
    check(!unknown.ok() && unknown.error().kind == rpckit::CallError::Kind::kRemote &&
              unknown.error().error.code() == rpckit::jsonrpc_code::kInvalidParams,
          "an operation the worker does not know is -32602");
  }
  endpoint.reset();
  // Let a few health checks pass while idle.
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  check(worker.state() == rpckit::supervision::State::kRunning, "still running after health checks");
  worker.stop();
  check(worker.state() == rpckit::supervision::State::kStopped, "stopped gracefully");
  std::printf("%s\n", failures == 0 ? "session complete" : "session FAILED");
  return failures == 0 ? 0 : 1;
}
