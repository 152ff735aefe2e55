#include "rpckit/roles/one_shot_process.hpp"

#include <algorithm>
#include <filesystem>

#include "rpckit/process/find_executable.hpp"

namespace rpckit::roles {
namespace {

std::string ms_text(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

// Deadlines are now + a duration: a year at most keeps that far from the clock's overflow.
std::chrono::milliseconds bounded(std::chrono::milliseconds d) {
  constexpr std::chrono::milliseconds kLongest = std::chrono::hours(24 * 365);
  return std::clamp(d, std::chrono::milliseconds(0), kLongest);
}

}  // namespace

OneShotProcess::OneShotProcess(Settings settings) : settings_(std::move(settings)) {
  for (auto* d : {&settings_.invoke_timeout, &settings_.launch_timeout, &settings_.teardown_timeout,
                  &settings_.reap_timeout}) {
    *d = bounded(*d);
  }
}

OneShotProcess::~OneShotProcess() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  if (watchdog_.joinable()) watchdog_.join();
  // The child's destructor kills and reaps one still running; the readers go first.
  writer_.reset();
  sink_.reset();
  reader_.reset();
  source_.reset();
}

std::optional<std::string> OneShotProcess::launch() {
  try {
    return start();
  } catch (const std::exception& e) {  // no pipe, no thread: the process cannot be run
    abort();
    return std::string("cannot start: ") + e.what();
  }
}

std::optional<std::string> OneShotProcess::start() {
  if (settings_.invoke_timeout.count() > 0) invoke_deadline_ = Clock::now() + settings_.invoke_timeout;
  const auto& dir = settings_.spawn.working_dir;
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
    return "working directory " + dir.string() + " is not a directory";
  }
  // A relative path is the child's, which starts in `dir`: check the file it will run.
  std::filesystem::path command = settings_.spawn.executable;
  const bool relative_path = command.is_relative() && command.string().find('/') != std::string::npos;
  if (relative_path && !dir.empty()) command = dir / command;
  std::string why;
  auto executable = process::resolve_command(command.string(), &why);
  if (!executable) return why;
  process::SpawnOptions options = settings_.spawn;
  options.executable = std::filesystem::absolute(*executable, ec);
  options.own_process_group = true;  // nothing the child starts outlives the call
  const Clock::time_point before = Clock::now();
  child_ = process::ChildProcess::spawn(options, &why);
  if (!child_) return why;
  if (settings_.launch_timeout.count() > 0 && Clock::now() - before > settings_.launch_timeout) {
    abort();
    return "spawning took longer than the launch timeout (" + ms_text(settings_.launch_timeout) + ")";
  }
  source_ = std::make_unique<framing::InterruptibleFdSource>(child_->stdout_fd());
  reader_ = std::make_unique<framing::NdjsonReader>(*source_, settings_.max_line_bytes,
                                                    line_reader_options(settings_.strict_lines));
  sink_ = std::make_unique<framing::FdSink>(child_->stdin_fd());
  writer_ = std::make_unique<framing::NdjsonWriter>(*sink_, settings_.max_line_bytes);
  if (invoke_deadline_ != Clock::time_point::max()) {
    watchdog_ = std::thread([this] { watch(invoke_deadline_); });
  }
  return std::nullopt;
}

// Kills the child's process group when the invoke deadline passes and wakes a read blocked
// on its stdout (a blocked write fails once no process holds the pipe); whatever step runs
// then fails.
void OneShotProcess::watch(Clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  if (wake_.wait_until(lock, deadline, [this] { return done_; })) return;
  expired_ = true;
  child_->kill();
  source_->interrupt();
}

bool OneShotProcess::expired() const {
  std::lock_guard lock(mutex_);
  return expired_;
}

std::error_code OneShotProcess::send_line(std::string_view line) {
  framing::WriteResult written = writer_->write(line);
  if (expired()) return std::make_error_code(std::errc::timed_out);
  if (written.ok()) return {};
  if (written.status == framing::WriteStatus::kIoError) return written.error;
  return std::make_error_code(std::errc::message_size);  // over the limit, or a raw newline
}

LineReceived OneShotProcess::receive_line(std::chrono::milliseconds within) {
  std::optional<Clock::time_point> step_deadline;
  if (within.count() > 0) step_deadline = std::min(Clock::now() + within, invoke_deadline_);
  source_->set_deadline(step_deadline);
  framing::ReadResult result = reader_->read();
  const bool step_passed = step_deadline && Clock::now() >= *step_deadline;
  if (expired() || result.status == framing::ReadStatus::kTimedOut ||
      (result.status == framing::ReadStatus::kIoError && step_passed)) {
    // Which deadline it was: the step's own, unless the invoke deadline came first.
    const bool invoke = !step_deadline || *step_deadline == invoke_deadline_ || expired();
    LineReceived got;
    got.status = LineReceived::Status::kTimeout;
    got.reason = invoke ? "the invoke deadline (" + ms_text(settings_.invoke_timeout) + ") passed"
                        : "nothing within " + ms_text(within);
    return got;
  }
  if (!result.ok()) return read_failure(result);
  return parse_line(std::move(result.body));
}

OneShotProcess::Finish OneShotProcess::finish() {
  child_->close_stdin();
  Clock::time_point deadline = invoke_deadline_;
  if (settings_.teardown_timeout.count() > 0) {
    deadline = std::min(Clock::now() + settings_.teardown_timeout, deadline);
  }
  std::optional<process::ExitStatus> status =
      deadline == Clock::time_point::max()
          ? std::optional(child_->wait())
          : child_->wait_for(std::chrono::ceil<std::chrono::milliseconds>(
                std::max(deadline - Clock::now(), Clock::duration::zero())));
  Finish done;
  if (status && !(status->signaled && expired())) {
    done.exit = *status;  // it ended by itself, in time (the watchdog's kill is a SIGKILL)
  } else if (status || expired() || Clock::now() >= invoke_deadline_) {
    done.status = Finish::Status::kTimeout;
  } else {
    done.status = Finish::Status::kStillRunning;
  }
  return done;
}

bool OneShotProcess::abort() {
  if (!child_) return true;
  child_->kill();
  if (settings_.reap_timeout.count() == 0) {
    child_->wait();
    return true;
  }
  return child_->wait_for(settings_.reap_timeout).has_value();
}

}  // namespace rpckit::roles
