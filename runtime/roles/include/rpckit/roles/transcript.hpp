#pragma once
// Transcript: a host's record of a session. One JSON object per line for every frame, lifecycle
// event, host note and peer report, in the order they happened (the format is
// docs/transcript.md; `rpckit validate --transcript` checks it and `rpckit trace` shows it),
// and, when asked, a readable account of the same on a stream (stdout for a terminal).
// Thread-safe: any thread may record.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/roles/lifecycle_event.hpp"

namespace rpckit::roles {

class Transcript {
 public:
  struct Options {
    // The sides in the protocol's words ("host", "plugin"; "client", "server").
    std::string local_role = "host";
    std::string peer_role = "plugin";
    // Where the readable account goes (nullptr: nowhere), and whether it shows every frame
    // or only lifecycle events, notes and reports.
    std::FILE* readable = stdout;
    bool readable_frames = true;
  };
  Transcript();
  explicit Transcript(Options options);
  virtual ~Transcript();
  Transcript(const Transcript&) = delete;
  Transcript& operator=(const Transcript&) = delete;

  // Also writes JSON lines to `path`; false (with *error) when it cannot be opened.
  bool open_jsonl(const std::string& path, std::string* error);
  // The JSON-lines file, when one is open (or was: it stays known after close).
  const std::string& jsonl_path() const { return jsonl_path_; }
  std::FILE* readable() const { return options_.readable; }

  void frame(std::string_view plugin_id, bool outgoing, std::string_view body);
  void lifecycle(std::string_view plugin_id, std::string_view kind, std::string_view cause,
                 std::string_view detail);
  void lifecycle(const LifecycleEvent& event);
  void host(std::string_view what);  // the host's own narration
  void plugin_says(std::string_view plugin_id, std::string_view what);

 private:
  void write_line(const nlohmann::json& entry);
  double elapsed_s() const;
  void print(const char* format, ...) const;

  Options options_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::optional<std::ofstream> jsonl_;
  std::string jsonl_path_;
};

}  // namespace rpckit::roles
