#pragma once
// One live session and its scripted fake model: no network, canned replies streamed as
// `event` notifications (status, messages, stream chunks, tool calls, completion, errors),
// one turn at a time on the session's own thread, with the spec's queueing, steering and
// interrupts. Prompt words pick the script: "tool" adds a tool round, "slow" keeps the turn
// drafting until it is interrupted (or a minute passes), "fail" ends it with session.error.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "events.hpp"
#include "loaf_v1/types.hpp"

namespace loaf_server {

struct Prompt {
  std::string turn_id;
  std::string text;
  std::vector<loaf::v1::QueuedImageInput> images;
  std::string enqueued_at;
};

class FakeSession {
 public:
  FakeSession(std::string id, const EventSink& events, const std::atomic<bool>& debug);
  ~FakeSession();  // aborts and joins
  FakeSession(const FakeSession&) = delete;
  FakeSession& operator=(const FakeSession&) = delete;

  const std::string& id() const { return id_; }
  // Runs the prompt now, or queues it when a turn runs and `enqueue`; returns whether it was
  // queued. Throws std::runtime_error when busy and not `enqueue`.
  bool submit(Prompt prompt, bool enqueue);
  bool steer(const std::string& text);  // false when no turn runs
  bool interrupt();                     // false when nothing to abort
  std::vector<loaf::v1::QueueItem> queue() const;
  std::int64_t clear_queue();
  void clear_history();
  // system.shutdown: aborts the running turn, clears the queue and steering.
  void abort_all();
  loaf::v1::SessionState state() const;
  // Appends a system message (image errors, command notes).
  void note_error(const std::string& turn_id, const std::string& message);

 private:
  void loop();
  void run_turn(const Prompt& prompt);
  void drop_queued();  // mutex_ held
  void finish(const std::string& turn_id);  // the turn's last event: session.status ready
  void status(bool pending, const std::string& label, const std::string& turn_id);
  void append(const loaf::v1::UiMessageKind& kind, const std::string& text);
  // Waits `ms` or until aborted; false when aborted.
  bool pause(int ms);

  const std::string id_;
  const EventSink& events_;
  const std::atomic<bool>& debug_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  loaf::v1::SessionState state_;
  std::deque<Prompt> queue_;
  std::vector<std::string> steering_;
  bool running_ = false;  // a turn runs (or is about to)
  bool abort_turn_ = false;
  bool quit_ = false;
  std::thread worker_;
};

}  // namespace loaf_server
