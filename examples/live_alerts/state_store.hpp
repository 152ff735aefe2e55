#pragma once
// The plugin's state in data_dir, kept across restarts (events missed while the plugin was
// down are not replayed, so it compares the host's live set with what it last saw).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace live_alerts {

struct SavedState {
  std::vector<std::string> live_channel_ids;
};

class StateStore {
 public:
  explicit StateStore(const std::filesystem::path& data_dir);

  // nullopt on the first run (no file) or when the file is unreadable (logged by the caller).
  std::optional<SavedState> load(std::string* error) const;
  // Writes beside the file and renames it over, so a crash never leaves half a file.
  bool save(const SavedState& state, std::string* error) const;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace live_alerts
