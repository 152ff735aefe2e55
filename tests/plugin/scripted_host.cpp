#include "scripted_host.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/framing/memory_io.hpp"

extern char** environ;

namespace plugin_test {
namespace {

constexpr std::size_t kMaxFrame = 4 * 1024 * 1024;  // spec section 1

std::runtime_error sys_error(const std::string& what, int error) {
  return std::runtime_error(what + ": " + std::strerror(error));
}

}  // namespace

// ---- Frame ------------------------------------------------------------------------------

bool Frame::is_request() const {
  return json.is_object() && json.contains("method") && json.contains("id");
}
bool Frame::is_notification() const {
  return json.is_object() && json.contains("method") && !json.contains("id");
}
bool Frame::is_response() const {
  return json.is_object() && !json.contains("method") &&
         (json.contains("result") || json.contains("error"));
}
std::string Frame::method() const {
  if (!json.is_object()) return {};
  auto it = json.find("method");
  return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
}
const Json& Frame::params() const {
  static const Json kNull;
  if (!json.is_object()) return kNull;
  auto it = json.find("params");
  return it != json.end() ? *it : kNull;
}

// ---- byte I/O ---------------------------------------------------------------------------

// Reads the child's stdout and keeps a copy of every byte (to prove it was frames only).
class ScriptedHost::TeeSource final : public rpckit::framing::ByteSource {
 public:
  TeeSource(int fd, ScriptedHost& host) : inner_(fd), host_(host) {}
  rpckit::framing::IoResult read(std::span<char> buffer) override {
    rpckit::framing::IoResult r = inner_.read(buffer);
    std::lock_guard lock(host_.mutex_);
    if (r.bytes > 0) {
      host_.stdout_bytes_.append(buffer.data(), r.bytes);
    } else {
      host_.stdout_done_ = true;
      host_.changed_.notify_all();
    }
    return r;
  }
  void interrupt() { inner_.interrupt(); }

 private:
  rpckit::framing::InterruptibleFdSource inner_;
  ScriptedHost& host_;
};

// The child's stdin, shared by the Endpoint's writer and send_frame/send_raw: one lock, so
// a raw frame never lands inside an Endpoint frame. FdSink turns EPIPE into an error value.
class ScriptedHost::LockedSink final : public rpckit::framing::ByteSink {
 public:
  explicit LockedSink(int fd) : inner_(fd) {}

 private:
  std::error_code write_parts(std::span<const std::string_view> parts) override {
    std::lock_guard lock(mutex_);
    return inner_.write_all(parts);
  }
  rpckit::framing::FdSink inner_;
  std::mutex mutex_;
};

// ---- lifecycle --------------------------------------------------------------------------

ScriptedHost::ScriptedHost(Options options) : options_(std::move(options)) { spawn(); }

void ScriptedHost::spawn() {
  int in[2];
  int out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw sys_error("pipe2", errno);
  if (::pipe2(out, O_CLOEXEC) != 0) {
    int error = errno;
    ::close(in[0]);
    ::close(in[1]);
    throw sys_error("pipe2", error);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears FD_CLOEXEC on the target; every other descriptor of ours is close-on-exec.
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, options_.stderr_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!options_.working_dir.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, options_.working_dir.c_str());
  }
  std::vector<std::string> argv_text;
  argv_text.push_back(options_.executable.string());
  argv_text.insert(argv_text.end(), options_.args.begin(), options_.args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);

  int rc = ::posix_spawn(&pid_, options_.executable.c_str(), &actions, nullptr, argv.data(),
                         environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    pid_ = -1;
    throw sys_error("posix_spawn " + options_.executable.string(), rc);
  }
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];

  source_ = std::make_unique<TeeSource>(stdout_fd_, *this);
  sink_ = std::make_unique<LockedSink>(stdin_fd_);
  rpckit::Endpoint::Options endpoint_options;
  endpoint_options.default_deadline = options_.default_deadline;
  endpoint_options.interrupt_reader = [this] { source_->interrupt(); };
  endpoint_ = std::make_unique<rpckit::Endpoint>(
      rpckit::framing::make_reader(rpckit::framing::Framing::kContentLength, *source_, kMaxFrame),
      rpckit::framing::make_writer(rpckit::framing::Framing::kContentLength, *sink_, kMaxFrame),
      std::move(endpoint_options));
  raw_writer_ =
      rpckit::framing::make_writer(rpckit::framing::Framing::kContentLength, *sink_, kMaxFrame);
  endpoint_->set_handler([this](const rpckit::Incoming& incoming) { return handle(incoming); });
  endpoint_->on_frame(
      [this](bool outgoing, std::string_view body) { record(!outgoing, body); });
}

ScriptedHost::~ScriptedHost() {
  // A failed test may have left the plugin in any state: do not wait for it to cooperate.
  bool failed = ::testing::Test::HasFailure();
  reap(failed ? Millis(0) : options_.exit_grace);
  if (endpoint_) endpoint_->close();
  endpoint_.reset();  // joins its threads (the reader was interrupted or saw EOF)
  raw_writer_.reset();
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
}

void ScriptedHost::reap(Millis grace) {
  if (pid_ <= 0 || exit_status_) return;
  close_stdin();
  if (grace.count() > 0 && wait_exit(grace)) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void ScriptedHost::answer(const std::string& method, Answer answer) {
  answers_[method] = std::move(answer);
}

void ScriptedHost::answer_result(const std::string& method, Json result) {
  answers_[method] = [result = std::move(result)](const Json&) { return result; };
}

void ScriptedHost::start() { endpoint_->start(); }

Json ScriptedHost::handle(const rpckit::Incoming& incoming) {
  if (!incoming.is_request()) return nullptr;  // recorded already; nothing to answer
  auto it = answers_.find(incoming.method);
  if (it == answers_.end()) {
    throw rpckit::RpcError(rpckit::jsonrpc_code::kMethodNotFound,
                           "scripted host has no answer for " + incoming.method);
  }
  static const Json kEmpty = Json::object();
  return it->second(incoming.params != nullptr ? *incoming.params : kEmpty);
}

// ---- sending ----------------------------------------------------------------------------

rpckit::CallResult ScriptedHost::call(std::string_view method, std::optional<Json> params,
                                      std::optional<Millis> deadline) {
  return endpoint_->call(method, std::move(params), deadline);
}

bool ScriptedHost::notify(std::string_view method, std::optional<Json> params) {
  return endpoint_->notify(method, std::move(params));
}

void ScriptedHost::send_frame(const Json& envelope) {
  std::string body = envelope.dump();
  auto written = raw_writer_->write(body);
  if (!written.ok()) ADD_FAILURE() << "send_frame failed: " << written.reason;
  record(false, body);
}

void ScriptedHost::send_raw(std::string_view bytes) {
  if (auto error = sink_->write_all(bytes)) ADD_FAILURE() << "send_raw failed: " << error.message();
}

void ScriptedHost::close_stdin() {
  // Shut the pipe without closing the descriptor the Endpoint's writer still holds.
  if (stdin_fd_ >= 0) {
    int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull >= 0) {
      ::dup3(devnull, stdin_fd_, O_CLOEXEC);  // atomically replaces the pipe end: EOF
      ::close(devnull);
    }
  }
}

// ---- observing --------------------------------------------------------------------------

void ScriptedHost::record(bool from_plugin, std::string_view body) {
  Frame frame;
  frame.from_plugin = from_plugin;
  frame.body = std::string(body);
  frame.json = Json::parse(frame.body, nullptr, /*allow_exceptions=*/false);
  frame.at = Clock::now();
  std::lock_guard lock(mutex_);
  frames_.push_back(std::move(frame));
  changed_.notify_all();
}

std::vector<Frame> ScriptedHost::frames() const {
  std::lock_guard lock(mutex_);
  return frames_;
}

std::vector<Frame> ScriptedHost::frames_from_plugin() const {
  std::lock_guard lock(mutex_);
  std::vector<Frame> out;
  for (const Frame& f : frames_) {
    if (f.from_plugin) out.push_back(f);
  }
  return out;
}

std::optional<Frame> ScriptedHost::wait_for(const std::function<bool(const Frame&)>& pred,
                                            Millis timeout, std::size_t from) const {
  auto until = Clock::now() + timeout;
  std::unique_lock lock(mutex_);
  std::size_t seen = 0;       // plugin frames looked at so far
  std::size_t next_index = 0; // next index into frames_ to examine
  for (;;) {
    for (; next_index < frames_.size(); ++next_index) {
      const Frame& f = frames_[next_index];
      if (!f.from_plugin) continue;
      if (seen++ < from) continue;
      if (pred(f)) return f;
    }
    if (changed_.wait_until(lock, until) == std::cv_status::timeout &&
        next_index == frames_.size()) {
      return std::nullopt;
    }
  }
}

std::optional<Frame> ScriptedHost::wait_request(std::string_view method, Millis timeout,
                                                std::size_t from) const {
  return wait_for([&](const Frame& f) { return f.method() == method; }, timeout, from);
}

std::optional<Frame> ScriptedHost::wait_response(const Json& id, Millis timeout) const {
  return wait_for([&](const Frame& f) { return f.is_response() && f.json.value("id", Json()) == id; },
                  timeout);
}

bool ScriptedHost::wait_count(std::string_view method, std::size_t n, Millis timeout) const {
  if (n == 0) return true;
  std::size_t seen = 0;
  return wait_for([&](const Frame& f) { return f.method() == method && ++seen == n; }, timeout)
      .has_value();
}

std::vector<std::string> ScriptedHost::plugin_methods() const {
  std::vector<std::string> out;
  for (const Frame& f : frames_from_plugin()) {
    if (!f.is_response()) out.push_back(f.method());
  }
  return out;
}

std::size_t ScriptedHost::count_from_plugin(std::string_view method) const {
  std::size_t n = 0;
  for (const Frame& f : frames_from_plugin()) {
    if (f.method() == method) ++n;
  }
  return n;
}

std::optional<int> ScriptedHost::wait_exit(Millis timeout) {
  if (exit_status_) return exit_status_;
  if (pid_ <= 0) return std::nullopt;
  auto until = Clock::now() + timeout;
  for (;;) {
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      std::unique_lock lock(mutex_);
      changed_.wait_until(lock, until, [&] { return stdout_done_; });
      return exit_status_;
    }
    if (r < 0 && errno != EINTR) return std::nullopt;
    if (Clock::now() >= until) return std::nullopt;
    std::this_thread::sleep_for(Millis(2));
  }
}

std::string ScriptedHost::stderr_text() const {
  std::ifstream in(options_.stderr_path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool ScriptedHost::wait_stderr(std::string_view needle, Millis timeout) const {
  auto until = Clock::now() + timeout;
  for (;;) {
    if (stderr_text().find(needle) != std::string::npos) return true;
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(Millis(5));
  }
}

std::string ScriptedHost::stdout_bytes() const {
  std::lock_guard lock(mutex_);
  return stdout_bytes_;
}

std::string ScriptedHost::check_stdout_frames(std::size_t* frame_count) const {
  rpckit::framing::MemorySource source(stdout_bytes());
  auto reader =
      rpckit::framing::make_reader(rpckit::framing::Framing::kContentLength, source, kMaxFrame);
  std::size_t count = 0;
  if (frame_count != nullptr) *frame_count = 0;
  for (;;) {
    rpckit::framing::ReadResult r = reader->read();
    if (r.status == rpckit::framing::ReadStatus::kEof) break;
    if (!r.ok()) {
      return "frame " + std::to_string(count) + ": " +
             std::string(rpckit::framing::to_string(r.status)) + " (" + r.reason + ")";
    }
    Json envelope = Json::parse(r.body, nullptr, false);
    if (!envelope.is_object() || envelope.value("jsonrpc", Json()) != "2.0") {
      return "frame " + std::to_string(count) + " is not a JSON-RPC 2.0 envelope: " +
             r.body.substr(0, 200);
    }
    ++count;
  }
  if (frame_count != nullptr) *frame_count = count;
  return {};
}

}  // namespace plugin_test
