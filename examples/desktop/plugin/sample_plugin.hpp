#pragma once
// The sample desktop plugin's application: plugin/health (form A, spec section 6) and its one
// plugin-defined method, sample/word_count, which streams codex/event notifications, checks
// the host with host/ping and asks host/request_approval while the host waits on it.
//
//   sample/word_count {text: string, permission?: string (default "workspace.read")}
//     approved -> {status: "finished", words, lines, chars, longest_word}
//     declined -> {status: "denied", permission}
//     text missing or not a string, permission not a string -> -32602
//     before a successful plugin/health -> -32600 (plugin-defined requests come after it)
#include <atomic>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "desktop_v1/roles.hpp"

namespace desktop_sample {

inline constexpr const char* kPluginId = "rpckit.desktop-sample";
inline constexpr const char* kPluginVersion = "0.1.0";
inline constexpr const char* kWordCountMethod = "sample/word_count";

struct PluginState {
  std::atomic<int> requests_served{0};
};

class SamplePlugin : public desktop::v1::PluginHandler<PluginState> {
 public:
  explicit SamplePlugin(const desktop::v1::HostClient& host) : host_(host) {}

  desktop::v1::HealthResult plugin_health(PluginState& state,
                                          const desktop::v1::PluginHealthParams& params) override;

  // sample/word_count; `healthy`: plugin/health has been answered.
  rpckit::JsonValue word_count(PluginState& state, const nlohmann::json* params, bool healthy);

 private:
  void event(const std::string& method, const nlohmann::json& params) const;

  const desktop::v1::HostClient& host_;
};

}  // namespace desktop_sample
