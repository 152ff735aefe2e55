// misbehaving_plugin: the test plugin of host_e2e_test. One binary; the behaviour is chosen by
// argv (the manifest's runtime.args): argv[1] is the mode, the rest are key=value options.
//
// It speaks the wire directly (Content-Length frames on stdin/stdout, one thread, no rpckit
// plugin role), so it can do what the plugin role would prevent: call ungranted host methods,
// hook ungranted events, write garbage, never answer.
//
// Modes:
//   well-behaved            answers everything; records what it receives
//   crash-at-start          exits with code `code` (default 3) before reading anything
//   crash-after-initialize  after `initialized`: exits with `code` (default 7), or SIGKILLs
//                           itself when signal=1
//   crash-on-event          well-behaved, but exits with code 5 on on_stream_stop
//   hang-in-initialize      reads initialize and never answers anything
//   ignore-pings            well-behaved, but never answers ping
//   slow-ping               holds every ping unanswered until the action t.answer-pings,
//                           then answers the held ones and every later ping at once
//   garbage-stdout          after `initialized`: a header line without ':', then hangs
//   oversized-frame         after `initialized`: Content-Length 4194305 (no body), then hangs
//   hooks-outside-grant     answers initialize with every event of the spec plus an unknown
//                           one as hooks, whatever the grant
//   no-exit-after-exit      ignores `exit` and stdin EOF: keeps running until killed
//   stop-reading            after `initialized`: never reads stdin again (hangs)
//   flood                   after `initialized`: sends `count` (default 5000) log notifications
//   slow-host-call          after `initialized`: calls get_followed_live (the test's app
//                           blocks in it) and keeps serving the host meanwhile
//   protocol-mismatch       answers initialize with error `code` (default -32600) named
//                           protocol_version_mismatch
//   call-during-shutdown    on `shutdown`: calls get_followed_live first, and answers the
//                           shutdown once the host has answered that call
//
// Options: hooks=a,b (default: granted.events; "none" for none), init_delay_ms=N (sleep
// before answering initialize), report_fds=1 (after `initialized`, send log "fds=0,1,2" with
// the descriptors open at start-up, this program's own directory handle excluded).
//
// Actions (invoke_action), for the test to drive the plugin:
//   t.call  {method, params?}  sends that request to the host; answers {response: envelope}
//   t.fire  {method, params?}  sends that request to the host; answers {} at once (the
//                              host's response is only seen in the host's transcript)
//   t.send  {method, params?}  sends that notification; answers {}
//   t.state {}                 answers {methods, events, chat_seqs, chat_in_order, init, pid}
//   t.echo  args               answers args
//   t.never {}                 never answers
//   t.answer-pings {}          answers the held pings (slow-ping); answers {answered: N}
// Every other action gets -32601.
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using nlohmann::json;

[[noreturn]] void hang() {
  for (;;) ::pause();
}

void write_all(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(STDOUT_FILENO, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      std::_Exit(9);  // the host is gone
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void send(const json& message) {
  std::string body = message.dump();
  write_all("Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
}

void respond(const json& id, json result) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void respond_error(const json& id, int code, const std::string& message, json data = nullptr) {
  json error = {{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = std::move(data);
  send({{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
}

// Reads Content-Length frames from stdin.
class Input {
 public:
  // The next frame's body; nullopt at EOF (or on a stream this plugin cannot read).
  std::optional<std::string> next() {
    std::size_t length = 0;
    for (;;) {
      auto end = buffer_.find("\r\n\r\n");
      if (end != std::string::npos) {
        std::istringstream headers(buffer_.substr(0, end));
        std::string line;
        bool found = false;
        while (std::getline(headers, line)) {
          if (!line.empty() && line.back() == '\r') line.pop_back();
          auto colon = line.find(':');
          if (colon == std::string::npos) continue;
          std::string name = line.substr(0, colon);
          for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (name == "content-length") {
            length = std::stoul(line.substr(colon + 1));
            found = true;
          }
        }
        if (!found) return std::nullopt;
        buffer_.erase(0, end + 4);
        break;
      }
      if (!fill()) return std::nullopt;
    }
    while (buffer_.size() < length) {
      if (!fill()) return std::nullopt;
    }
    std::string body = buffer_.substr(0, length);
    buffer_.erase(0, length);
    return body;
  }

 private:
  bool fill() {
    char chunk[65536];
    for (;;) {
      ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      buffer_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
  }

  std::string buffer_;
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// The descriptors open now, without the one opendir() uses to list them.
std::string open_fds() {
  std::string out;
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return "unavailable";
  int own = ::dirfd(dir);
  std::vector<int> fds;
  while (dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    int fd = std::atoi(entry->d_name);
    if (fd != own) fds.push_back(fd);
  }
  ::closedir(dir);
  std::sort(fds.begin(), fds.end());
  for (int fd : fds) out += (out.empty() ? "" : ",") + std::to_string(fd);
  return out;
}

class Plugin {
 public:
  Plugin(std::string mode, std::map<std::string, std::string> options)
      : mode_(std::move(mode)), options_(std::move(options)), fds_(open_fds()) {}

  int run() {
    // The steady clock is the system's monotonic one, shared with the host: a test reads the
    // gap between two launches from these lines (lifecycle_test's backoff check).
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    std::fprintf(stderr, "misbehaving_plugin[%d] mode=%s started at_us=%lld\n",
                 static_cast<int>(::getpid()), mode_.c_str(),
                 static_cast<long long>(
                     std::chrono::duration_cast<std::chrono::microseconds>(now).count()));
    if (mode_ == "crash-at-start") std::exit(option_int("code", 3));
    for (;;) {
      std::optional<std::string> body = input_.next();
      if (!body) break;
      json message = json::parse(*body, nullptr, false);
      if (message.is_discarded() || !message.is_object()) continue;
      handle(message);
    }
    std::fprintf(stderr, "misbehaving_plugin[%d] stdin closed\n", static_cast<int>(::getpid()));
    if (mode_ == "no-exit-after-exit") hang();
    return 0;
  }

 private:
  int option_int(const std::string& key, int fallback) const {
    auto it = options_.find(key);
    return it == options_.end() ? fallback : std::atoi(it->second.c_str());
  }

  void handle(const json& message) {
    if (!message.contains("method")) return handle_response(message);
    std::string method = message["method"].get<std::string>();
    json params = message.value("params", json::object());
    if (params.is_null()) params = json::object();
    methods_.push_back(method);
    if (ignoring_) return;
    std::optional<json> id;
    if (message.contains("id")) id = message["id"];

    if (method == "initialize") return initialize(*id, params);
    if (method == "initialized") return initialized();
    if (method == "ping") {
      if (mode_ == "ignore-pings") return;
      if (mode_ == "slow-ping" && holding_pings_) return held_pings_.push_back(*id);
      return respond(*id, json::object());
    }
    if (method == "shutdown") {
      if (mode_ != "call-during-shutdown") return respond(*id, nullptr);
      shutdown_id_ = *id;
      return send({{"jsonrpc", "2.0"},
                   {"id", kShutdownCallId},
                   {"method", "get_followed_live"},
                   {"params", json::object()}});
    }
    if (method == "exit") {
      if (mode_ == "no-exit-after-exit") {
        std::fprintf(stderr, "misbehaving_plugin[%d] ignoring exit\n",
                     static_cast<int>(::getpid()));
        return;
      }
      std::exit(0);
    }
    if (method == "invoke_action") return action(*id, params);
    if (method.rfind("on_", 0) == 0 && !id) return event(method, params);
    if (id) respond_error(*id, -32601, "Method not found: " + method);
  }

  void initialize(const json& id, const json& params) {
    init_ = params;
    if (mode_ == "hang-in-initialize") {
      ignoring_ = true;
      return;
    }
    if (mode_ == "protocol-mismatch") {
      return respond_error(id, option_int("code", -32600), "protocol version not supported",
                           {{"name", "protocol_version_mismatch"}, {"retry_after_ms", nullptr}});
    }
    if (int delay = option_int("init_delay_ms", 0); delay > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    }
    json hooks = json::array();
    if (mode_ == "hooks-outside-grant") {
      hooks = {"on_stream_start",    "on_stream_stop",   "on_channel_change",
               "on_watch_tick",      "on_followed_live", "on_chat_message",
               "on_settings_change", "on_panel_change",  "on_bogus_event"};
    } else if (auto it = options_.find("hooks"); it != options_.end()) {
      if (it->second != "none") hooks = split(it->second);
    } else {
      hooks = params.value("granted", json::object()).value("events", json::array());
    }
    respond(id, {{"plugin_version", "0.0.1"}, {"hooks", hooks}});
  }

  void initialized() {
    if (options_.count("report_fds") != 0) {
      send({{"jsonrpc", "2.0"},
            {"method", "log"},
            {"params", {{"level", "info"}, {"message", "fds=" + fds_}}}});
    }
    if (mode_ == "crash-after-initialize") {
      if (option_int("signal", 0) != 0) ::raise(SIGKILL);
      std::exit(option_int("code", 7));
    }
    if (mode_ == "garbage-stdout") {
      write_all("this is not a frame header\r\n\r\n");
      hang();
    }
    if (mode_ == "oversized-frame") {
      write_all("Content-Length: 4194305\r\n\r\n");
      hang();
    }
    if (mode_ == "stop-reading") hang();
    if (mode_ == "flood") {
      int count = option_int("count", 5000);
      for (int i = 0; i < count; ++i) {
        send({{"jsonrpc", "2.0"},
              {"method", "log"},
              {"params", {{"level", "debug"}, {"message", "flood " + std::to_string(i)}}}});
      }
    }
    if (mode_ == "slow-host-call") {
      send({{"jsonrpc", "2.0"},
            {"id", next_id_++},
            {"method", "get_followed_live"},
            {"params", json::object()}});
    }
  }

  void event(const std::string& method, const json& params) {
    events_.push_back(method);
    if (method == "on_chat_message") {
      long seq = std::atol(params.value("message", json::object()).value("id", "0").c_str());
      if (!chat_seqs_.empty() && seq != chat_seqs_.back() + 1) chat_in_order_ = false;
      chat_seqs_.push_back(seq);
    }
    if (mode_ == "crash-on-event" && method == "on_stream_stop") std::exit(5);
  }

  void action(const json& id, const json& params) {
    std::string name = params.value("action", "");
    json args = params.value("args", json::object());
    if (args.is_null()) args = json::object();
    if (name == "t.call") {
      json request = {{"jsonrpc", "2.0"}, {"id", next_id_}, {"method", args.value("method", "")}};
      if (args.contains("params")) request["params"] = args["params"];
      calls_[next_id_++] = id;
      return send(request);
    }
    if (name == "t.fire") {
      json request = {{"jsonrpc", "2.0"}, {"id", next_id_++}, {"method", args.value("method", "")}};
      if (args.contains("params")) request["params"] = args["params"];
      send(request);
      return respond(id, json::object());
    }
    if (name == "t.send") {
      json notification = {{"jsonrpc", "2.0"}, {"method", args.value("method", "")}};
      if (args.contains("params")) notification["params"] = args["params"];
      send(notification);
      return respond(id, json::object());
    }
    if (name == "t.state") {
      return respond(id, {{"methods", methods_},
                          {"events", events_},
                          {"chat_seqs", chat_seqs_},
                          {"chat_in_order", chat_in_order_},
                          {"init", init_},
                          {"pid", static_cast<int>(::getpid())}});
    }
    if (name == "t.echo") return respond(id, args);
    if (name == "t.never") return;
    if (name == "t.answer-pings") {
      holding_pings_ = false;
      for (const json& ping : held_pings_) respond(ping, json::object());
      respond(id, {{"answered", held_pings_.size()}});
      held_pings_.clear();
      return;
    }
    respond_error(id, -32601, "unknown action " + name);
  }

  void handle_response(const json& message) {
    if (!message.contains("id") || !message["id"].is_number_integer()) return;
    if (message["id"] == kShutdownCallId && !shutdown_id_.is_null()) {
      return respond(shutdown_id_, nullptr);
    }
    auto it = calls_.find(message["id"].get<long>());
    if (it == calls_.end()) return;  // e.g. slow-host-call's own call
    json action_id = it->second;
    calls_.erase(it);
    respond(action_id, {{"response", message}});
  }

  std::string mode_;
  std::map<std::string, std::string> options_;
  std::string fds_;
  Input input_;
  bool ignoring_ = false;
  bool holding_pings_ = true;  // slow-ping, until t.answer-pings
  std::vector<json> held_pings_;
  json init_ = nullptr;
  std::vector<std::string> methods_;
  std::vector<std::string> events_;
  std::vector<long> chat_seqs_;
  bool chat_in_order_ = true;
  long next_id_ = 1;
  std::map<long, json> calls_;  // our request id -> the invoke_action to answer
  static constexpr long kShutdownCallId = 900001;  // call-during-shutdown's own call
  json shutdown_id_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "well-behaved";
  std::map<std::string, std::string> options;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    auto eq = arg.find('=');
    options[arg.substr(0, eq)] = eq == std::string::npos ? "1" : arg.substr(eq + 1);
  }
  return Plugin(std::move(mode), std::move(options)).run();
}
