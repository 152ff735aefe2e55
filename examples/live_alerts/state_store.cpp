#include "state_store.hpp"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace live_alerts {

StateStore::StateStore(const std::filesystem::path& data_dir) : path_(data_dir / "state.json") {}

std::optional<SavedState> StateStore::load(std::string* error) const {
  std::ifstream in(path_);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("live") || !j["live"].is_array()) {
    if (error) *error = path_.string() + " is not a valid state file; starting afresh";
    return std::nullopt;
  }
  SavedState state;
  for (const auto& id : j["live"]) {
    if (id.is_string()) state.live_channel_ids.push_back(id.get<std::string>());
  }
  return state;
}

bool StateStore::save(const SavedState& state, std::string* error) const {
  std::error_code ec;
  std::filesystem::create_directories(path_.parent_path(), ec);
  std::filesystem::path tmp = path_;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << nlohmann::json{{"version", 1}, {"live", state.live_channel_ids}}.dump(2) << "\n";
    if (!out.flush()) {
      if (error) *error = "cannot write " + tmp.string();
      return false;
    }
  }
  std::filesystem::rename(tmp, path_, ec);
  if (ec) {
    if (error) *error = "cannot replace " + path_.string() + ": " + ec.message();
    return false;
  }
  return true;
}

}  // namespace live_alerts
