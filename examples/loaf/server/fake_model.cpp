#include "fake_model.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <stdexcept>

namespace loaf_server {

namespace v1 = loaf::v1;

namespace {

bool has_word(const std::string& text, std::string_view word) {
  return text.find(word) != std::string::npos;
}

std::map<std::string, rpckit::JsonValue> object(const nlohmann::json& j) {
  std::map<std::string, rpckit::JsonValue> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.emplace(it.key(), rpckit::JsonValue(*it));
  return out;
}

}  // namespace

FakeSession::FakeSession(std::string id, const EventSink& events, const std::atomic<bool>& debug)
    : id_(std::move(id)), events_(events), debug_(debug) {
  state_.id = id_;
  state_.createdAt = state_.updatedAt = now_iso();
  state_.statusLabel = "ready";
  state_.conversationProvider = nullptr;
  state_.activeSessionId = nullptr;
  state_.contextTokenSource = v1::ContextTokenSource::kHistory;
  state_.contextTokenProvider = nullptr;
  worker_ = std::thread([this] { loop(); });
}

FakeSession::~FakeSession() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    abort_turn_ = true;
    changed_.notify_all();
  }
  worker_.join();
}

bool FakeSession::submit(Prompt prompt, bool enqueue) {
  std::lock_guard lock(mutex_);
  if (running_ && !enqueue) throw std::runtime_error("session is busy: " + id_);
  bool queued = running_;
  v1::QueueItem item;
  item.id = prompt.turn_id;
  item.text = prompt.text;
  item.images = prompt.images;
  item.enqueuedAt = prompt.enqueued_at;
  if (queued) state_.queue.push_back(item);
  queue_.push_back(std::move(prompt));
  running_ = true;  // taken by the worker at once when nothing ran
  changed_.notify_all();
  return queued;
}

bool FakeSession::steer(const std::string& text) {
  std::lock_guard lock(mutex_);
  if (!running_) return false;
  steering_.push_back(text);
  state_.pendingSteerCount = static_cast<std::int64_t>(steering_.size());
  changed_.notify_all();
  return true;
}

bool FakeSession::interrupt() {
  std::lock_guard lock(mutex_);
  if (!running_) return false;
  abort_turn_ = true;
  changed_.notify_all();
  return true;
}

std::vector<v1::QueueItem> FakeSession::queue() const {
  std::lock_guard lock(mutex_);
  return state_.queue;
}

std::int64_t FakeSession::clear_queue() {
  std::lock_guard lock(mutex_);
  auto cleared = static_cast<std::int64_t>(state_.queue.size());
  drop_queued();
  return cleared;
}

void FakeSession::drop_queued() {
  // Only what session.send queued; a prompt about to run is not queued.
  std::erase_if(queue_, [&](const Prompt& p) {
    return std::any_of(state_.queue.begin(), state_.queue.end(),
                       [&](const v1::QueueItem& q) { return q.id == p.turn_id; });
  });
  state_.queue.clear();
}

void FakeSession::clear_history() {
  std::lock_guard lock(mutex_);
  state_.messages.clear();
  state_.history.clear();
  state_.activeSessionId = nullptr;
  state_.updatedAt = now_iso();
}

void FakeSession::abort_all() {
  std::lock_guard lock(mutex_);
  drop_queued();
  steering_.clear();
  state_.pendingSteerCount = 0;
  if (running_) abort_turn_ = true;
  changed_.notify_all();
}

v1::SessionState FakeSession::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void FakeSession::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return quit_ || !queue_.empty(); });
    if (quit_) return;
    Prompt prompt = std::move(queue_.front());
    queue_.pop_front();
    if (!state_.queue.empty() && state_.queue.front().id == prompt.turn_id) {
      state_.queue.erase(state_.queue.begin());
    }
    state_.pending = true;  // an interrupt that came before the turn started still counts
    lock.unlock();
    run_turn(prompt);
    lock.lock();
  }
}

void FakeSession::finish(const std::string& turn_id) {
  {
    // Idle before "ready" goes out: a client that sends on seeing it must find it idle.
    std::lock_guard lock(mutex_);
    state_.pending = false;
    running_ = !queue_.empty();
    abort_turn_ = false;  // spent on this turn; a later interrupt is for the next one
  }
  status(false, "ready", turn_id);
}

void FakeSession::status(bool pending, const std::string& label, const std::string& turn_id) {
  {
    std::lock_guard lock(mutex_);
    state_.statusLabel = label;
    state_.updatedAt = now_iso();
  }
  v1::SessionStatusEvent e;
  e.payload.session_id = id_;
  e.payload.pending = pending;
  e.payload.status_label = label;
  e.payload.turn_id = turn_id;
  events_.emit(e);
}

void FakeSession::append(const v1::UiMessageKind& kind, const std::string& text) {
  v1::UiMessage message;
  message.kind = kind;
  message.text = text;
  {
    std::lock_guard lock(mutex_);
    message.id = static_cast<std::int64_t>(state_.messages.size()) + 1;
    state_.messages.push_back(message);
    if (kind != v1::UiMessageKind::kSystem) {
      v1::ChatMessage chat;
      chat.role = kind == v1::UiMessageKind::kUser ? v1::ChatRole::kUser : v1::ChatRole::kAssistant;
      chat.text = text;
      state_.history.push_back(chat);
    }
    state_.contextTokenEstimate += static_cast<std::int64_t>(text.size() / 4 + 1);
    state_.contextTokenBreakdown.conversation_tokens = state_.contextTokenEstimate;
  }
  v1::SessionMessageAppendedEvent e;
  e.payload.session_id = id_;
  e.payload.message = message;
  events_.emit(e);
}

void FakeSession::note_error(const std::string& turn_id, const std::string& message) {
  v1::SessionErrorEvent e;
  e.payload.session_id = id_;
  e.payload.turn_id = turn_id;
  e.payload.message = message;
  events_.emit(e);
}

bool FakeSession::pause(int ms) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return abort_turn_ || quit_; });
  return !(abort_turn_ || quit_);
}

void FakeSession::run_turn(const Prompt& prompt) {
  const std::string& t = prompt.turn_id;
  std::string answer;
  auto chunk = [&](v1::StreamSegmentKind kind, const std::string& piece) {
    v1::SessionStreamChunkEvent e;
    e.payload.session_id = id_;
    e.payload.turn_id = t;
    if (kind == v1::StreamSegmentKind::kThought) e.payload.chunk.thoughts = {piece};
    e.payload.chunk.answerText = answer;
    e.payload.chunk.segments = std::vector<v1::StreamSegment>{{kind, piece}};
    events_.emit(e);
  };
  auto interrupted = [&] {
    status(true, "interrupting...", t);
    v1::SessionInterruptedEvent e;
    e.payload.session_id = id_;
    e.payload.turn_id = t;
    e.payload.partial_output = !answer.empty();
    events_.emit(e);
    finish(t);
  };
  auto apply_steering = [&] {
    std::unique_lock lock(mutex_);
    if (steering_.empty()) return;
    steering_.clear();
    state_.pendingSteerCount = 0;
    lock.unlock();
    status(true, "steer applied; continuing...", t);
  };

  status(true, "preparing...", t);
  append(v1::UiMessageKind::kUser, prompt.text);
  if (debug_) {
    v1::SessionDebugEvent e;
    e.payload.session_id = id_;
    e.payload.turn_id = t;
    e.payload.stage = "request.prepared";
    e.payload.data = object({{"model", "fake"}, {"prompt_chars", prompt.text.size()}});
    events_.emit(e);
  }
  status(true, "thinking...", t);
  if (!pause(5)) return interrupted();
  chunk(v1::StreamSegmentKind::kThought, "Reading the prompt.");

  if (has_word(prompt.text, "tool")) {
    nlohmann::json call = {{"name", "read_file"}, {"input", {{"path", "README.md"}}},
                           {"providerToolName", "read_file"}, {"callId", "call_1"}};
    v1::SessionToolCallStartedEvent started;
    started.payload = {id_, t, object({{"toolRound", 1}, {"call", call}})};
    events_.emit(started);
    if (!pause(5)) return interrupted();
    nlohmann::json executed = {{"name", "read_file"}, {"ok", true}, {"input", call["input"]},
                               {"result", "# loaf"}, {"error", nullptr}};
    v1::SessionToolCallCompletedEvent completed;
    completed.payload = {id_, t, object({{"toolRound", 1}, {"executed", executed}})};
    events_.emit(completed);
    v1::SessionToolResultsEvent results;
    results.payload = {id_, t, object({{"toolRound", 1}, {"executed", {executed}}})};
    events_.emit(results);
  }
  if (has_word(prompt.text, "fail")) {
    note_error(t, "provider error: the scripted model failed on purpose");
    finish(t);
    return;
  }

  status(true, "drafting response...", t);
  apply_steering();
  std::istringstream words("Hello from loaf's scripted model. You said: " + prompt.text);
  for (std::string word; words >> word;) {
    if (!pause(2)) return interrupted();
    answer += (answer.empty() ? "" : " ") + word;
    chunk(v1::StreamSegmentKind::kAnswer, word);
  }
  if (has_word(prompt.text, "slow")) {
    // Keeps drafting until interrupted (a minute at most), applying steering as it comes.
    for (int i = 0; i < 3000; ++i) {
      if (!pause(20)) return interrupted();
      apply_steering();
    }
  }
  apply_steering();
  append(v1::UiMessageKind::kAssistant, answer);
  v1::SessionCompletedEvent done;
  done.payload = {id_, t, static_cast<std::int64_t>(answer.size())};
  events_.emit(done);
  v1::SessionContextEstimateEvent estimate;
  {
    std::lock_guard lock(mutex_);
    estimate.payload.session_id = id_;
    estimate.payload.provider = nullptr;
    estimate.payload.source = v1::ContextTokenSource::kHistory;
    estimate.payload.total_tokens_estimate = state_.contextTokenEstimate;
    estimate.payload.breakdown = state_.contextTokenBreakdown;
  }
  events_.emit(estimate);
  finish(t);
}

}  // namespace loaf_server
