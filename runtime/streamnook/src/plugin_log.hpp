#pragma once
// PluginLog: a plugin's log file, <log_dir>/plugin.log (spec 1). The plugin's stderr is
// written there directly (the child's fd 2); each `log` notification is appended as one line,
//   2026-11-24T09:15:02.318Z [warning] the message
// with control characters escaped, so a message can neither forge nor break a line. Each line
// is one append-mode write: lines never interleave with each other.
#include <filesystem>
#include <string_view>

namespace rpckit::streamnook {

class PluginLog {
 public:
  explicit PluginLog(std::filesystem::path path) : path_(std::move(path)) {}
  const std::filesystem::path& path() const { return path_; }
  // False when the file cannot be written (the caller reports it).
  bool append(std::string_view level, std::string_view message) const;

 private:
  std::filesystem::path path_;
};

}  // namespace rpckit::streamnook
