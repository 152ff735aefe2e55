// The child process of signal_stop_test: holds a rpckit::roles::SignalStop and answers
// commands read from stdin, one per line, with one line each on stdout.
//
//   signal-stop-child <before> <enabled>
//     before:  what SIGTERM and SIGINT do before the SignalStop: default | ignore | handler
//              (handler: writes "custom <signal number>" when one arrives)
//     enabled: enabled | disabled (the SignalStop's first argument)
//   Prints "ready" once the SignalStop is in place; its hook prints "hook <n>" (n: how many
//   times it has run). Commands:
//     raise    raise(SIGTERM), raise(SIGINT), raise(SIGTERM) from this thread (each handled
//              before raise() returns), then "raised"
//     second   tries a second SignalStop (destroyed at once): "second: logic_error" or
//              "second: constructed"
//     destroy  destroys the SignalStop (its watcher has then handled every signal that came
//              before), then "destroyed hooks=<n> term=<what> int=<what>", <what> naming the
//              disposition now in place (default, ignore, handler, other)
//     exit     "bye", exit status 0
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "rpckit/roles/signal_stop.hpp"

namespace {

void say(const std::string& line) {
  const std::string out = line + "\n";
  (void)!::write(STDOUT_FILENO, out.data(), out.size());  // one write: lines never interleave
}

void custom_handler(int signal) {
  char out[] = "custom 00\n";
  out[7] = static_cast<char>('0' + signal / 10);
  out[8] = static_cast<char>('0' + signal % 10);
  (void)!::write(STDOUT_FILENO, out, sizeof out - 1);
}

void set_disposition(int signal, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal, &action, nullptr);
}

std::string disposition(int signal) {
  struct sigaction now {};
  ::sigaction(signal, nullptr, &now);
  if (now.sa_handler == SIG_DFL) return "default";
  if (now.sa_handler == SIG_IGN) return "ignore";
  if (now.sa_handler == &custom_handler) return "handler";
  return "other";
}

bool read_line(std::string& line) {
  line.clear();
  char c = 0;
  for (;;) {
    // Waits in poll(), not read(): ThreadSanitizer runs a signal's handler at once only in
    // calls it knows to block (poll is one), so a signal that comes while this thread waits
    // is handled then, not after the next command.
    pollfd p{STDIN_FILENO, POLLIN, 0};
    if (::poll(&p, 1, -1) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    const ssize_t n = ::read(STDIN_FILENO, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (c == '\n') return true;
    line += c;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const std::string before = argv[1];
  void (*prior)(int) = SIG_DFL;
  if (before == "ignore") prior = SIG_IGN;
  if (before == "handler") prior = &custom_handler;
  set_disposition(SIGTERM, prior);
  set_disposition(SIGINT, prior);

  std::atomic<int> hooks{0};
  auto hook = [&hooks](int signal) {
    say("hook " + std::to_string(++hooks) + (signal == SIGINT ? " SIGINT" : " SIGTERM"));
  };
  auto stop = std::make_unique<rpckit::roles::SignalStop>(std::strcmp(argv[2], "enabled") == 0,
                                                          hook);
  say("ready");
  std::string command;
  while (read_line(command)) {
    if (command == "raise") {
      ::raise(SIGTERM);
      ::raise(SIGINT);
      ::raise(SIGTERM);
      say("raised");
    } else if (command == "second") {
      bool constructed = false;
      try {
        rpckit::roles::SignalStop second(true, [](int) {});
        constructed = true;
      } catch (const std::logic_error&) {
      }
      // Said once the second one is gone again, so the parent's next signal meets the first.
      say(constructed ? "second: constructed" : "second: logic_error");
    } else if (command == "destroy") {
      stop.reset();
      say("destroyed hooks=" + std::to_string(hooks.load()) + " term=" + disposition(SIGTERM) +
          " int=" + disposition(SIGINT));
    } else if (command == "exit") {
      say("bye");
      return 0;
    } else {
      say("unknown command: " + command);
    }
  }
  return 3;
}
