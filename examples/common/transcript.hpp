#pragma once
// Transcript: a readable account of the conversation and the lifecycle on stdout, and, when
// asked, a machine-readable one: one JSON object per line for every frame and lifecycle event
// ({"type": "frame", "plugin": <peer>, "direction": "<local>_to_<peer role>", "message": ...}),
// which `rpckit validate --transcript` checks. Shared by every example host.
#include <chrono>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rpckit_examples {

class Transcript {
 public:
  // `local_role` and `peer_role` name the sides in the protocol's words ("host", "plugin").
  explicit Transcript(bool verbose_frames, std::string local_role = "host",
                      std::string peer_role = "plugin");
  // With JSON lines written: prints the command that opens them in the inspector.
  ~Transcript();
  // Also writes JSON lines to `path`; false (with *error) when it cannot be opened.
  bool open_jsonl(const std::string& path, std::string* error);

  void frame(std::string_view plugin_id, bool outgoing, std::string_view body);
  void lifecycle(std::string_view plugin_id, std::string_view kind, std::string_view cause,
                 std::string_view detail);
  void host(std::string_view what);  // the demo's own narration
  void plugin_says(std::string_view plugin_id, std::string_view what);

 private:
  void write_line(const nlohmann::json& entry);
  double elapsed_s() const;

  bool verbose_frames_;
  std::string local_role_, peer_role_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::optional<std::ofstream> jsonl_;
  std::string jsonl_path_;
};

}  // namespace rpckit_examples
