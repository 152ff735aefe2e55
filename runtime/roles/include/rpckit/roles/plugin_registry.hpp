#pragma once
// PluginRegistry<Plugin>: the plugins of a host, by id, for any protocol. An id is added
// once; plugins start and stop one by one or all at once (all at once really: one slow
// plugin's exit grace never adds to another's); `each` visits them off the lock, and a plugin
// lives until the registry ends, so a visit (an event fanned out, a report) may call back
// into the host. `Plugin` has start() and stop() (stop blocking until it has stopped).
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace rpckit::roles {

template <class Plugin>
class PluginRegistry {
 public:
  PluginRegistry() = default;
  ~PluginRegistry() {
    stop_all();
    std::map<std::string, std::unique_ptr<Plugin>> plugins;
    {
      std::lock_guard lock(mutex_);
      plugins.swap(plugins_);
    }
    plugins.clear();  // off the lock: a plugin's last reports may call back into the host
  }
  PluginRegistry(const PluginRegistry&) = delete;
  PluginRegistry& operator=(const PluginRegistry&) = delete;

  // False when the id is taken (the plugin is then dropped).
  bool add(const std::string& id, std::unique_ptr<Plugin> plugin) {
    std::lock_guard lock(mutex_);
    return plugins_.emplace(id, std::move(plugin)).second;
  }
  Plugin* find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    auto it = plugins_.find(id);
    return it == plugins_.end() ? nullptr : it->second.get();
  }
  std::vector<std::string> ids() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [id, plugin] : plugins_) out.push_back(id);
    return out;
  }
  void start(const std::string& id) {
    if (Plugin* p = find(id)) p->start();
  }
  void start_all() {
    for (const std::string& id : ids()) start(id);
  }
  void stop(const std::string& id) {
    if (Plugin* p = find(id)) p->stop();
  }
  void stop_all() {
    std::vector<std::thread> stoppers;
    for (const std::string& id : ids()) stoppers.emplace_back([this, id] { stop(id); });
    for (auto& t : stoppers) t.join();
  }
  // Calls fn(id, plugin) for each, in id order, off the lock.
  template <class Fn>
  void each(Fn&& fn) const {
    std::vector<std::pair<std::string, Plugin*>> all;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [id, plugin] : plugins_) all.emplace_back(id, plugin.get());
    }
    for (auto& [id, plugin] : all) fn(id, *plugin);
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Plugin>> plugins_;
};

}  // namespace rpckit::roles
